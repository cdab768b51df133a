/**
 * Two pipeline costs the LLM excluded (an instant mock summariser), measured in interleaved rounds
 * (CPU time of this process and wall time; min / median / max):
 * - the first compaction of a never-seen 1,000-message history: every string carries a per-run
 *   salt, so neither the counter's message memo nor the redaction memo has seen it (the counter's
 *   per-piece cache is process-wide, as in a live process); then a warm repeat on the same objects;
 * - the summarise path at 50,000 agent-like messages: counted once by the counter first (the
 *   middleware counts before it compacts), then the first summarise of those messages and a repeat,
 *   with the JS heap allocated during the call (GC-profiler deltas, see `timed`).
 * Run alone: pnpm build && node --expose-gc bench/run.ts --cold-and-large
 * To compare with another build of this package in the same process, interleaved round by round,
 * set BATON_BENCH_BASELINE to that build's dist/index.js (e.g. `git archive <commit> src`, built
 * with tsc into a scratch folder under bench-results/).
 */
import { GCProfiler } from 'node:v8';
import { loadTranscripts, median, withToolCallIdSuffix } from '@baton/test-corpus';
import { createTokenCounter, type TokenCounter } from '@baton/tokens';
import { ContextCompressor } from '../dist/index.js';

/** A build of the compressor under test: this one, or a baseline build to compare with. */
export interface Variant {
  name: string;
  Compressor: typeof ContextCompressor;
}

export async function variants(): Promise<Variant[]> {
  const list: Variant[] = [{ name: 'this build', Compressor: ContextCompressor }];
  const baseline = process.env.BATON_BENCH_BASELINE;
  if (baseline) {
    const module = (await import(baseline)) as { ContextCompressor: typeof ContextCompressor };
    list.unshift({ name: 'baseline', Compressor: module.ContextCompressor });
  }
  return list;
}

type Message = { role: string; content: unknown; [key: string]: unknown };

/** What the instant mock summariser returns. */
export const benchSummary = [
  '## Goal',
  'Benchmark summary.',
  '## Completed actions',
  '1. RAN the bench — ok [tool: bash]',
  '## Remaining work',
  'None',
].join('\n');

const protocolFields = new Set(['type', 'role', 'toolCallId', 'toolName', 'mediaType']);

/** A deep copy with `salt` put in front of every string but protocol fields: text never seen. */
export function salted<T>(value: T, salt: string): T {
  if (typeof value === 'string') return (value === '' ? value : `${salt} ${value}`) as T;
  if (Array.isArray(value)) return value.map((item) => salted(item, salt)) as T;
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      copy[key] = protocolFields.has(key) ? inner : salted(inner, salt);
    }
    return copy as T;
  }
  return value;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1_000;
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();

interface Sample {
  cpu: number[];
  wall: number[];
  mib: number[];
}

const sample = (): Sample => ({ cpu: [], wall: [], mib: [] });

/**
 * Runs `run` after a full GC and records its CPU time, wall time and the JS heap bytes it
 * allocated: the growth of used heap between GCs, summed over every GC `v8.GCProfiler` saw during
 * the call, plus the growth after the last one (external memory, i.e. buffers, excluded). The GC
 * before the call is outside the timed span.
 */
async function timed(into: Sample, run: () => Promise<unknown>): Promise<void> {
  gc();
  const profiler = new GCProfiler();
  profiler.start();
  const before = process.memoryUsage().heapUsed;
  const cpuStarted = cpuMs();
  const started = performance.now();
  await run();
  const wall = performance.now() - started;
  const cpu = cpuMs() - cpuStarted;
  const after = process.memoryUsage().heapUsed;
  const data = profiler.stop();
  let bytes = 0;
  let last = before;
  for (const entry of data?.statistics ?? []) {
    bytes += entry.beforeGC.heapStatistics.usedHeapSize - last;
    last = entry.afterGC.heapStatistics.usedHeapSize;
  }
  bytes += after - last;
  into.wall.push(wall);
  into.cpu.push(cpu);
  into.mib.push(bytes / 2 ** 20);
}

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const spread = (values: number[]) =>
  `${format(Math.min(...values))} / ${format(median(values))} / ${format(Math.max(...values))}`;

const strategies = ['auto', 'summarize', 'receipt', 'mask', 'truncate'] as const;

/** First compaction of a never-seen history, per strategy, interleaved; then a warm repeat. */
export async function firstCompaction(
  history: Message[],
  rounds: number,
  builds: Variant[],
): Promise<{ lines: string[]; tokens: number }> {
  // One counter for the whole process, as a live process keeps one per model.
  const counter: TokenCounter = createTokenCounter({ encoding: 'o200k_base' });
  const tokens = counter.countMessages(history as never);
  const targetTokens = Math.floor(tokens / 2);
  const rows = new Map<string, { cold: Sample; warm: Sample; applied: string }>();
  rows.set('count only', { cold: sample(), warm: sample(), applied: '' });
  for (const build of builds) {
    for (const strategy of strategies) {
      rows.set(`${strategy} (${build.name})`, { cold: sample(), warm: sample(), applied: '' });
    }
  }
  let salt = 0;
  for (let round = -1; round < rounds; round++) {
    for (const name of rows.keys()) {
      const messages = salted(history, `run${++salt}x${process.pid}`);
      const row = rows.get(name)!;
      const scratch = sample();
      if (name === 'count only') {
        await timed(round < 0 ? scratch : row.cold, async () =>
          counter.countMessages(messages as never),
        );
        continue;
      }
      const build = builds.find((item) => name.endsWith(`(${item.name})`))!;
      const strategy = name.slice(0, name.indexOf(' ')) as (typeof strategies)[number];
      const compressor = new build.Compressor({ counter, summarizer: async () => benchSummary });
      const call = async () => {
        try {
          const result = await compressor.compress(messages as never, { targetTokens, strategy });
          row.applied = result.event.stages.join(' + ') || result.strategy;
        } catch (error) {
          const result = (error as { result?: { strategy: string } }).result;
          if (!result) throw error;
          row.applied = `${result.strategy} (not effective)`;
        }
      };
      // Round -1 warms the JIT and is not recorded.
      await timed(round < 0 ? scratch : row.cold, call);
      await timed(round < 0 ? scratch : row.warm, call);
    }
  }
  const lines = [
    `| strategy | stages | cold CPU ms (min / median / max) | cold wall ms | warm repeat CPU ms | warm wall ms | cold allocated MiB (median) |`,
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const [name, row] of rows) {
    const warm = name === 'count only' ? '–' : spread(row.warm.cpu);
    const warmWall = name === 'count only' ? '–' : spread(row.warm.wall);
    lines.push(
      `| ${name} | ${name === 'count only' ? 'counter.countMessages (the floor: exact o200k count of every message)' : row.applied} | ${spread(row.cold.cpu)} | ${spread(row.cold.wall)} | ${warm} | ${warmWall} | ${format(median(row.cold.mib))} |`,
    );
  }
  return { lines, tokens };
}

/** Agent-like traffic: a call with a line of text, its ~10-line result, a short user turn. */
function agentStep(index: number, salt: string): Message {
  switch (index % 3) {
    case 0:
      return {
        role: 'assistant',
        content: [
          { type: 'text', text: `Step ${index}: reading the next file (${salt}).` },
          {
            type: 'tool-call',
            toolCallId: `call-${salt}-${index}`,
            toolName: 'read_file',
            input: { path: `src/area-${index % 97}/file-${index}.ts` },
          },
        ],
      };
    case 1:
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `call-${salt}-${index - 1}`,
            toolName: 'read_file',
            output: {
              type: 'text',
              value: Array.from(
                { length: 10 },
                (_, line) => `const value${line}_${index} = compute(${line * index}, '${salt}');`,
              ).join('\n'),
            },
          },
        ],
      };
    default:
      return {
        role: 'user',
        content: `Continue with item ${index} (${salt}); keep the tests green.`,
      };
  }
}

/** The dev transcripts but Claude Code's, without system messages, repeated to `size` messages. */
export function realHistory(size: number): Message[] {
  const history: Message[] = [];
  const transcripts = loadTranscripts().filter((item) => !item.name.startsWith('claude-code'));
  for (let pass = 0; history.length < size; pass++) {
    for (const [which, transcript] of transcripts.entries()) {
      const body = transcript.messages.filter((message) => message.role !== 'system');
      history.push(...(withToolCallIdSuffix(body, `${pass}-${which}`) as Message[]));
    }
  }
  history.length = size;
  return history;
}

export function agentHistory(size: number, salt: string): Message[] {
  const history: Message[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: `Refactor the project (${salt}).` },
  ];
  for (let index = 0; history.length < size; index++) history.push(agentStep(index, salt));
  return history;
}

/** The summarise path at `size` messages: first summarise of counted messages, then a repeat. */
export async function largeSummarize(
  size: number,
  rounds: number,
  builds: Variant[],
): Promise<{ lines: string[]; tokens: number; requests: number }> {
  const counter = createTokenCounter({ encoding: 'o200k_base' });
  const samples = builds.map(() => ({ first: sample(), repeat: sample() }));
  let tokens = 0;
  let requests = 0;
  let salt = 0;
  for (let round = -1; round < rounds; round++) {
    for (const [which, build] of builds.entries()) {
      const { first, repeat } = samples[which]!;
      const messages = agentHistory(size, `r${++salt}p${process.pid}`);
      tokens = counter.countMessages(messages as never);
      let calls = 0;
      const compressor = new build.Compressor({
        counter,
        summarizer: async () => {
          calls++;
          return benchSummary;
        },
      });
      const call = () =>
        compressor.compress(messages as never, {
          targetTokens: Math.floor(tokens / 2),
          strategy: 'summarize',
        });
      const scratch = sample();
      await timed(round < 0 ? scratch : first, call);
      requests = calls;
      await timed(round < 0 ? scratch : repeat, call);
    }
  }
  const lines = [
    '| build | call | CPU ms (min / median / max) | wall ms | allocated MiB (min / median / max) |',
    '| --- | --- | ---: | ---: | ---: |',
  ];
  for (const [which, build] of builds.entries()) {
    const { first, repeat } = samples[which]!;
    lines.push(
      `| ${build.name} | first summarise of these messages | ${spread(first.cpu)} | ${spread(first.wall)} | ${spread(first.mib)} |`,
      `| ${build.name} | repeat on the same messages | ${spread(repeat.cpu)} | ${spread(repeat.wall)} | ${spread(repeat.mib)} |`,
    );
  }
  return { tokens, requests, lines };
}
