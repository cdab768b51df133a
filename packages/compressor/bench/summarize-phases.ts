/**
 * Where the first summarise of a 50,000-message history spends main-thread CPU, phase by phase
 * (the steps `summarizeSpan` takes before the summariser is called, on the agent-like history of
 * cold-and-large.ts): redacting the span whole, clipping it, serialising its segments (with the
 * word-stem scan), extracting its facts, joining the prompts (chunks of 725 segments) and counting
 * them exactly. CPU of this thread only (`process.threadCpuUsage`): GC helper threads excluded.
 *
 * `--after-real-history` first runs the 1,000-message real-corpus compactions of
 * `--cold-and-large` (every strategy, 5 rounds), as that bench does before its 50,000-message
 * rows. Measured on 2026-11-28, that prelude alone took redaction of the span from ~260 to ~470 ms
 * and serialising from ~80 to ~215 ms (the redaction memo cleared made no difference; the mask
 * strategy's prelude did not do it, summarize's and receipt's did): the state the JIT is left in
 * by real text, not memo or heap size, is most of the gap between a fresh process and the bench.
 * Run: pnpm build && node --expose-gc bench/summarize-phases.ts [--after-real-history]
 * BATON_BENCH_BASELINE=<baseline>/packages/compressor/dist/index.js adds a baseline build,
 * interleaved round by round.
 */
import { median } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { agentHistory, firstCompaction, realHistory, variants } from './cold-and-large.ts';

/** The internals of one build that `summarizeSpan` runs, from the files beside its index. */
async function phasesOf(index: string) {
  const beside = (file: string) => index.replace(/index\.js$/, file);
  return {
    redaction: (await import(
      beside('redact-for-summary.js')
    )) as typeof import('../src/redact-for-summary.ts'),
    segments: (await import(
      beside('transcript-segments.js')
    )) as typeof import('../src/transcript-segments.ts'),
    verify: (await import(
      beside('verify-summary.js')
    )) as typeof import('../src/verify-summary.ts'),
  };
}

const thisBuild = new URL('../dist/index.js', import.meta.url).href;
const baseline = process.env.BATON_BENCH_BASELINE;
const builds = [
  ...(baseline ? [{ name: 'baseline', ...(await phasesOf(baseline)) }] : []),
  { name: 'this build', ...(await phasesOf(thisBuild)) },
];
const counter = createTokenCounter({ encoding: 'o200k_base' });

if (process.argv.includes('--after-real-history')) {
  const history = realHistory(1_000);
  await firstCompaction(history, 5, await variants());
}

const phases = ['redact whole', 'clip', 'segments', 'facts', 'join', 'count'] as const;
const samples = builds.map(() => new Map(phases.map((phase) => [phase, [] as number[]])));
const threadMs = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1_000;
};
const rounds = 5;
let salt = 0;
for (let round = -1; round < rounds; round++) {
  for (const [which, build] of builds.entries()) {
    const messages = agentHistory(50_000, `r${++salt}p${process.pid}`);
    counter.countMessages(messages as never);
    const span = messages.slice(1, -2) as never[];
    (globalThis as { gc?: () => void }).gc?.();
    const spent = new Map<(typeof phases)[number], number>();
    let started = threadMs();
    const lap = (phase: (typeof phases)[number]) => {
      const now = threadMs();
      spent.set(phase, now - started);
      started = now;
    };
    const whole = build.redaction.redactWhole(span);
    lap('redact whole');
    const redacted = build.redaction.redactForSummary(span, 3_000, whole);
    lap('clip');
    const scanner = new build.verify.WordStemScanner();
    const segments = redacted.map((message, position) =>
      build.segments.transcriptSegment(message, position + 1, 'concise', false, scanner),
    );
    lap('segments');
    build.verify.extractSpanFacts(whole);
    lap('facts');
    const chunks: (typeof segments)[] = [];
    for (let at = 0; at < segments.length; at += 725) chunks.push(segments.slice(at, at + 725));
    const prompts = chunks.map((chunk) => build.segments.joinPrompt(chunk, undefined));
    lap('join');
    const countRequest = build.segments.createRequestCounter(
      counter,
      (position: number) => span[position],
    );
    for (const [at, chunk] of chunks.entries()) {
      countRequest('Summarise.', chunk, undefined, prompts[at], at * 725);
    }
    lap('count');
    if (round >= 0) for (const phase of phases) samples[which]!.get(phase)!.push(spent.get(phase)!);
  }
}

const spread = (values: number[]) =>
  `${Math.min(...values).toFixed(0)} / ${median(values).toFixed(0)} / ${Math.max(...values).toFixed(0)}`;
console.log(
  `| phase | ${builds.map((build) => `${build.name} ms (min / median / max)`).join(' | ')} |`,
);
console.log(`| --- | ${builds.map(() => '---:').join(' | ')} |`);
for (const phase of phases) {
  console.log(
    `| ${phase} | ${samples.map((byPhase) => spread(byPhase.get(phase)!)).join(' | ')} |`,
  );
}
