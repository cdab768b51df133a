/**
 * Pipeline time of `compress`, the LLM excluded (an instant mock summariser), at 100, 1,000 and
 * 10,000 messages built from the dev transcripts. Writes bench-results/results.md.
 * Run: pnpm build && pnpm bench
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createReceipt, redactMessages } from '@baton/fallback';
import { loadTranscripts, median, withToolCallIdSuffix } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { ContextCompressor, validateToolPairs } from '../dist/index.js';
import { benchSummary, firstCompaction, largeSummarize, variants } from './cold-and-large.ts';

type Message = { role: string; content: unknown; [key: string]: unknown };

const here = dirname(fileURLToPath(import.meta.url));
const transcripts = loadTranscripts();
if (transcripts.length === 0) {
  console.error('corpus not found: the compressor bench needs ../shared/corpus');
  process.exit(1);
}

/**
 * A turn unit: a user message, or an assistant message with the tool messages that answer it, so
 * that units can be interleaved without separating a call from its results.
 */
function turnUnits(messages: Message[]): Message[][] {
  const units: Message[][] = [];
  for (const message of messages) {
    if (message.role === 'tool' && units.length > 0) units.at(-1)!.push(message);
    else units.push([message]);
  }
  return units;
}

/**
 * A realistic history of `size` messages: turn units taken round-robin from every transcript (ids
 * renamed per pass), after one system prompt and a first user message. Interleaving keeps the mix of
 * message sizes the same at every size, so 10x messages means about 10x tokens and the growth ratios
 * measure the pipeline, not a change of mix (the first 100 messages of one transcript are far lighter
 * than the corpus average).
 */
function buildHistory(size: number, pool = transcripts): Message[] {
  const system = pool
    .flatMap((transcript) => transcript.messages)
    .find((message) => message.role === 'system');
  const bodies = pool.map((transcript) =>
    turnUnits(transcript.messages.filter((message) => message.role !== 'system')),
  );
  const history: Message[] = system ? [system] : [];
  const firstUser = bodies.flat().find((unit) => unit[0]!.role === 'user');
  if (firstUser) history.push(...firstUser);
  for (let pass = 0; history.length < size; pass++) {
    const longest = Math.max(...bodies.map((units) => units.length));
    for (let index = 0; index < longest && history.length < size; index++) {
      for (const [which, units] of bodies.entries()) {
        const unit = units[index];
        if (!unit) continue;
        history.push(...(withToolCallIdSuffix(unit, `${pass}-${which}`) as Message[]));
        if (history.length >= size) break;
      }
    }
  }
  // Trimming may leave a trailing call without its result, as in a live agent loop.
  history.length = size;
  return history;
}

const resultsFile = join(here, '..', 'bench-results', 'results.md');

/** The never-seen first compaction and the 50,000-message summarise path (cold-and-large.ts). */
async function coldAndLargeSection(): Promise<string[]> {
  const rounds = 5;
  const reference = buildHistory(
    1_000,
    transcripts.filter((transcript) => !transcript.name.startsWith('claude-code')),
  );
  const builds = await variants();
  const first = await firstCompaction(reference, rounds, builds);
  const large = await largeSummarize(50_000, 5, builds);
  return [
    '',
    `### First compaction of a never-seen history: 1,000 messages, ${first.tokens.toLocaleString('en')} tokens (target <= 40 ms CPU)`,
    '',
    `Every string salted per run (the counter's message memo and the redaction memo have not seen it; the o200k per-piece cache is process-wide, as in a live process). Target = half the history, instant mock summariser. ${rounds} interleaved rounds after one discarded round; each strategy's cold call on fresh salted copies, then a warm repeat on the same objects. Node ${process.version}.`,
    '',
    ...first.lines,
    '',
    `### Summarise path at 50,000 messages (${large.tokens.toLocaleString('en')} tokens, ${large.requests} summariser requests; target <= 1 s CPU, <= 100 MiB allocated)`,
    '',
    'Agent-like messages (a call, its 10-line result, a short user turn; unique text per run), counted once by the counter first as the middleware does before it compacts. Allocated = JS heap allocated during the call (growth of used heap between GCs, summed over the GCs `v8.GCProfiler` reports, plus the growth after the last; buffers excluded). 5 rounds after one discarded round.',
    '',
    ...large.lines,
    '',
  ];
}

if (process.argv.includes('--cold-and-large')) {
  const section = ['## @baton/compressor (cold and large only)', ...(await coldAndLargeSection())];
  mkdirSync(dirname(resultsFile), { recursive: true });
  writeFileSync(resultsFile, section.join('\n'));
  console.log(section.join('\n'));
  process.exit(0);
}

const summary = benchSummary;

const sizes = [100, 1_000, 10_000];
const strategies = ['truncate', 'mask', 'receipt', 'summarize', 'auto'] as const;
/** Runs discarded while the JIT settles (a live process compacts many times). */
const warmupRuns = 3;
// Many repetitions: the machine is a loaded 2-core box, and growth ratios divide two medians.
const runsFor = (size: number) => (size >= 10_000 ? 15 : size >= 1_000 ? 41 : 81);

/** CPU time (user + system) of this process, in ms: less sensitive to other processes than wall time. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1_000;
}

interface Outcome {
  tokensAfter: number;
  strategy: string;
  event: { removedMessageIndexes: number[] };
}

/**
 * Times every strategy on one history, round-robin (one run of each strategy per round), so a burst
 * of load from other processes hits all strategies alike. Returns medians and the last outcome.
 */
async function measureStrategies(
  messages: Message[],
  counter: ReturnType<typeof createTokenCounter>,
  tokens: number,
  runs: number,
): Promise<Map<string, { medianMs: number; medianCpuMs: number; last: Outcome }>> {
  const compressors = new Map(
    strategies.map((strategy) => [
      strategy,
      new ContextCompressor({ counter, summarizer: async () => summary }),
    ]),
  );
  const times = new Map<string, number[]>(strategies.map((strategy) => [strategy, []]));
  const cpuTimes = new Map<string, number[]>(strategies.map((strategy) => [strategy, []]));
  const last = new Map<string, Outcome>();
  for (let run = 0; run < runs + warmupRuns; run++) {
    for (const strategy of strategies) {
      (globalThis as { gc?: () => void }).gc?.();
      const cpuStarted = cpuMs();
      const started = performance.now();
      let outcome: Outcome;
      try {
        outcome = (await compressors.get(strategy)!.compress(messages as never, {
          targetTokens: Math.floor(tokens / 2),
          strategy,
        })) as Outcome;
      } catch (error) {
        // CompactionNotEffectiveError (mask on prose-heavy histories) still carries its attempt.
        const result = (error as { result?: Outcome }).result;
        if (!result) throw error;
        outcome = result;
      }
      if (run >= warmupRuns) {
        times.get(strategy)!.push(performance.now() - started);
        cpuTimes.get(strategy)!.push(cpuMs() - cpuStarted);
      }
      last.set(strategy, outcome);
    }
  }
  return new Map(
    strategies.map((strategy) => [
      strategy,
      {
        medianMs: median(times.get(strategy)!),
        medianCpuMs: median(cpuTimes.get(strategy)!),
        last: last.get(strategy)!,
      },
    ]),
  );
}

interface Row {
  size: number;
  tokens: number;
  strategy: string;
  medianMs: number;
  medianCpuMs: number;
  tokensAfter: number;
  applied: string;
  removed: number[];
}
/** The same run's cost of the @baton/fallback calls the pipeline makes, on the same middle. */
const peerRows: Array<{ size: number; middleTokens: number; redactMs: number; receiptMs: number }> =
  [];
const rows: Row[] = [];
const coldRows: Array<{ size: number; tokens: number; countMs: number; compressMs: number }> = [];

for (const size of sizes) {
  const messages = buildHistory(size);
  const problems = validateToolPairs(messages).problems.length;
  // Cold: a fresh counter, so every message is tokenised once inside compress.
  const cold = createTokenCounter({ encoding: 'o200k_base' });
  const countStart = performance.now();
  const tokens = cold.countMessages(messages);
  const countMs = performance.now() - countStart;
  const coldCounter = createTokenCounter({ encoding: 'o200k_base' });
  const coldCompressor = new ContextCompressor({
    counter: coldCounter,
    summarizer: async () => summary,
  });
  const coldStart = performance.now();
  await coldCompressor.compress(messages as never, {
    targetTokens: Math.floor(tokens / 2),
    strategy: 'summarize',
  });
  coldRows.push({ size, tokens, countMs, compressMs: performance.now() - coldStart });

  // Warm: the counter has seen the history (as in a live session, where compress runs turn after turn).
  const counter = createTokenCounter({ encoding: 'o200k_base' });
  counter.countMessages(messages);
  const measured = await measureStrategies(messages, counter, tokens, runsFor(size));
  for (const strategy of strategies) {
    const { medianMs, medianCpuMs, last } = measured.get(strategy)!;
    rows.push({
      size,
      tokens,
      strategy,
      medianMs,
      medianCpuMs,
      tokensAfter: last.tokensAfter,
      applied: last.strategy,
      removed: last.event.removedMessageIndexes,
    });
  }
  const removed = rows.find((row) => row.size === size && row.strategy === 'summarize')!.removed;
  const middle = removed.map((index) => messages[index]!);
  const redactTimes: number[] = [];
  const receiptTimes: number[] = [];
  for (let run = 0; run < runsFor(size); run++) {
    let started = performance.now();
    redactMessages(middle as never);
    redactTimes.push(performance.now() - started);
    started = performance.now();
    createReceipt(middle as never, { maxTokens: 750, counter });
    receiptTimes.push(performance.now() - started);
  }
  peerRows.push({
    size,
    middleTokens: counter.countMessages(middle),
    redactMs: median(redactTimes),
    receiptMs: median(receiptTimes),
  });
  console.log(`size ${size}: ${tokens} tokens, ${problems} input problems`);
}

/**
 * The issue's reference point, 1,000 messages / ~200k tokens: the same construction from the
 * transcripts other than Claude Code's (whose messages are ~4x larger).
 */
const lighter = transcripts.filter((transcript) => !transcript.name.startsWith('claude-code'));
const targetMessages = buildHistory(1_000, lighter);
const targetCounter = createTokenCounter({ encoding: 'o200k_base' });
const targetTokens = targetCounter.countMessages(targetMessages);
const targetRows: Array<{
  strategy: string;
  applied: string;
  medianMs: number;
  medianCpuMs: number;
  tokensAfter: number;
}> = [];
const measuredTarget = await measureStrategies(targetMessages, targetCounter, targetTokens, 41);
for (const strategy of strategies) {
  const { medianMs, medianCpuMs, last } = measuredTarget.get(strategy)!;
  targetRows.push({
    strategy,
    applied: last.strategy,
    medianMs,
    medianCpuMs,
    tokensAfter: last.tokensAfter,
  });
}

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
const lines: string[] = [];
lines.push('## @baton/compressor', '');
lines.push(
  `Pipeline time of \`compress\` with an instant mock summariser (the LLM excluded), target = half the history. Histories built from the ${transcripts.length} dev transcripts, concatenated. Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Medians.`,
  '',
);
lines.push(
  `### Reference: 1,000 messages, ${targetTokens.toLocaleString('en')} tokens (target < 50 ms), warm counter`,
  '',
);
lines.push('| strategy | applied | tokens after | median wall ms | median CPU ms |');
lines.push('| --- | --- | ---: | ---: | ---: |');
for (const row of targetRows) {
  lines.push(
    `| ${row.strategy} | ${row.applied} | ${row.tokensAfter.toLocaleString('en')} | ${format(row.medianMs)} | ${format(row.medianCpuMs)} |`,
  );
}
lines.push('');
lines.push('### Warm counter (messages already counted once, as in a live session)', '');
lines.push(
  `Runs per size (after ${warmupRuns} warm-up runs): ${sizes.map((size) => `${size.toLocaleString('en')}: ${runsFor(size)}`).join(', ')}.`,
  '',
);
lines.push(
  '| messages | tokens | strategy | applied | tokens after | median wall ms | median CPU ms |',
);
lines.push('| ---: | ---: | --- | --- | ---: | ---: | ---: |');
for (const row of rows) {
  lines.push(
    `| ${row.size.toLocaleString('en')} | ${row.tokens.toLocaleString('en')} | ${row.strategy} | ${row.applied} | ${row.tokensAfter.toLocaleString('en')} | ${format(row.medianMs)} | ${format(row.medianCpuMs)} |`,
  );
}
lines.push(
  '',
  '### Growth (time ratio per 10x messages; target <= 12x) and ms per 100k input tokens',
  '',
);
lines.push(
  '| strategy | wall 100 -> 1,000 | wall 1,000 -> 10,000 | CPU 100 -> 1,000 | CPU 1,000 -> 10,000 | wall ms / 100k tokens at 100 | at 1,000 | at 10,000 |',
);
lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const strategy of strategies) {
  const row = (size: number) =>
    rows.find((item) => item.size === size && item.strategy === strategy)!;
  const per = (size: number) => ((row(size).medianMs / row(size).tokens) * 100_000).toFixed(2);
  lines.push(
    `| ${strategy} | ${(row(1_000).medianMs / row(100).medianMs).toFixed(1)}x | ${(row(10_000).medianMs / row(1_000).medianMs).toFixed(1)}x | ${(row(1_000).medianCpuMs / row(100).medianCpuMs).toFixed(1)}x | ${(row(10_000).medianCpuMs / row(1_000).medianCpuMs).toFixed(1)}x | ${per(100)} | ${per(1_000)} | ${per(10_000)} |`,
  );
}
lines.push(
  '',
  '### Share of @baton/fallback in the same run (same middle as `summarize`, medians)',
  '',
);
lines.push(
  '| messages | middle tokens | compress (summarize) ms | redactMessages(middle) ms | createReceipt(middle, 750) ms |',
);
lines.push('| ---: | ---: | ---: | ---: | ---: |');
for (const peer of peerRows) {
  const total = rows.find(
    (row) => row.size === peer.size && row.strategy === 'summarize',
  )!.medianMs;
  lines.push(
    `| ${peer.size.toLocaleString('en')} | ${peer.middleTokens.toLocaleString('en')} | ${format(total)} | ${format(peer.redactMs)} | ${format(peer.receiptMs)} |`,
  );
}
lines.push(
  '',
  '### Cold counter (first call: every message tokenised inside compress; one run)',
  '',
);
lines.push(
  '| messages | tokens | countMessages alone ms | compress (summarize) ms | compress / count |',
);
lines.push('| ---: | ---: | ---: | ---: | ---: |');
for (const row of coldRows) {
  lines.push(
    `| ${row.size.toLocaleString('en')} | ${row.tokens.toLocaleString('en')} | ${format(row.countMs)} | ${format(row.compressMs)} | ${(row.compressMs / row.countMs).toFixed(2)}x |`,
  );
}
lines.push(...(await coldAndLargeSection()));
lines.push('');
mkdirSync(dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, lines.join('\n'));
console.log(lines.join('\n'));
