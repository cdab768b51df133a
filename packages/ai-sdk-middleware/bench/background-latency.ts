// Added latency at the steps that compact, blocking vs background, with a scripted 2-second
// summariser in a 40-step tool loop; and the per-step overhead under the threshold at several history
// lengths. Imported by run.ts; `node --expose-gc bench/background-latency.ts` runs this part alone.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LanguageModelV4CallOptions, LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { SummarizerRequest } from '@baton/compressor';
import { MockLanguageModelV4 } from 'ai/test';
import { compactionMiddleware } from '../dist/index.js';

type Prompt = LanguageModelV4CallOptions['prompt'];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const model = new MockLanguageModelV4({ provider: 'bench', modelId: 'local-model' });
const summary = [
  '## Goal',
  'Fix the failing parser test.',
  '## Completed actions',
  '1. READ src/parser.ts [tool: readFile]',
  '## Active state',
  'Tests still failing.',
  '## Remaining work',
  'Fix the parser.',
].join('\n');

const summarizerMs = 2_000;
/** Time of the model call between two steps (the loop does not run back to back in reality). */
const modelCallMs = 1_000;
const steps = 40;
const rounds = 5;

function cpuMicros(): number {
  const usage = process.threadCpuUsage?.() ?? process.cpuUsage();
  return usage.user + usage.system;
}

export function words(count: number, seed: number): string {
  const parts: string[] = [];
  for (let index = 0; index < count; index++) parts.push(`w${(index * 31 + seed) % 997}`);
  return parts.join(' ');
}

export function toolStep(index: number, outputWords: number): Prompt {
  const toolCallId = `call-${index}`;
  return [
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId,
          toolName: 'readFile',
          input: { path: `src/f${index}.ts` },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: 'readFile',
          output: { type: 'text', value: words(outputWords, index) },
        },
      ],
    },
  ];
}

/** Fresh message and part objects around the same strings: what the AI SDK hands over per step. */
export function fresh(prompt: Prompt): Prompt {
  return prompt.map((message) => ({
    ...message,
    content: Array.isArray(message.content)
      ? message.content.map((part) => ({ ...part }))
      : message.content,
  })) as Prompt;
}

function call(middleware: LanguageModelV4Middleware, prompt: Prompt) {
  return middleware.transformParams?.({ type: 'generate', params: { prompt }, model }) as Promise<
    LanguageModelV4CallOptions & { providerMetadata?: unknown }
  >;
}

interface StepSample {
  wallMs: number;
  cpuMs: number;
  compacted: boolean;
  /** No summariser call was running when the step started (a background result was ready). */
  ready: boolean;
}

/** One 40-step loop; returns the per-step samples and how its compactions were made. */
async function loop(background: boolean, round: number) {
  let running = 0;
  const summarizer = async (request: SummarizerRequest) => {
    running++;
    try {
      await sleep(summarizerMs, undefined, { signal: request.abortSignal });
    } finally {
      running--;
    }
    return summary;
  };
  const events: Array<{ fromBackground: boolean; backgroundWasted: number }> = [];
  const middleware = compactionMiddleware({
    contextWindow: 16_000,
    reservedOutputTokens: 2_000,
    strategy: 'summarize',
    summarizer,
    background,
    onCompaction: (event) => void events.push(event),
  });
  let history: Prompt = [
    { role: 'system', content: 'You are a careful coding agent.' },
    {
      role: 'user',
      content: [{ type: 'text', text: `Fix the failing parser test (round ${round}).` }],
    },
  ];
  for (let index = 0; index < 6; index++) history.push(...toolStep(index, 450));
  const samples: StepSample[] = [];
  for (let step = 0; step < steps; step++) {
    history = [...fresh(history), ...toolStep(100 + step, 450)];
    const before = events.length;
    const ready = running === 0;
    const cpu = cpuMicros();
    const started = performance.now();
    await call(middleware, history);
    samples.push({
      wallMs: performance.now() - started,
      cpuMs: (cpuMicros() - cpu) / 1_000,
      compacted: events.length > before,
      ready,
    });
    await sleep(modelCallMs);
  }
  return { samples, events };
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] as number;
}

const format = (value: number) =>
  !Number.isFinite(value)
    ? 'n/a'
    : value >= 100
      ? value.toFixed(0)
      : value >= 1
        ? value.toFixed(2)
        : value.toFixed(3);

export async function backgroundLatencySection(): Promise<string[]> {
  // Rounds run concurrently (5 x 2 loops at once, ~30 s instead of ~4 min serially); the sleeps
  // dominate each loop, so the loops barely compete for the CPU. Wall time is the figure; the CPU
  // of a blocking compaction step also holds other loops' work done during its 2 s wait.
  const runs = await Promise.all(
    Array.from({ length: rounds }, (_, round) =>
      Promise.all([loop(false, round), loop(true, round)]),
    ),
  );
  const lines = [
    `### Compaction latency in a ${steps}-step tool loop, scripted ${summarizerMs / 1_000}-second summariser`,
    '',
    `Heuristic counter, 16,000-token window, \`strategy: 'summarize'\`, ${modelCallMs} ms of model time between steps, each step adds a ~600-token tool round trip. ${rounds} rounds, each running the blocking and the background loop side by side (all rounds concurrently). Figures over all steps that compacted, in all rounds.`,
    '',
    '| Mode | Compacting steps | From background | Wasted summariser calls | p50 ms | p95 ms | min / max ms | CPU ms p50 | Steps under the trigger p50 / p95 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const readyRows: string[] = [];
  for (const [index, mode] of ['blocking', 'background'].entries()) {
    const loops = runs.map((pair) => pair[index] as Awaited<ReturnType<typeof loop>>);
    const samples = loops.flatMap((run) => run.samples);
    const compacting = samples.filter((sample) => sample.compacted);
    const others = samples.filter((sample) => !sample.compacted);
    const events = loops.flatMap((run) => run.events);
    const walls = compacting.map((sample) => sample.wallMs);
    if (mode === 'background') {
      for (const [label, group] of [
        ['result ready', compacting.filter((sample) => sample.ready)],
        ['job still running', compacting.filter((sample) => !sample.ready)],
      ] as const) {
        const wall = group.map((sample) => sample.wallMs);
        const cpu = group.map((sample) => sample.cpuMs);
        readyRows.push(
          `| ${label} | ${group.length} | ${format(percentile(wall, 0.5))} | ${format(percentile(wall, 0.95))} | ${format(Math.max(...wall))} | ${format(percentile(cpu, 0.5))} / ${format(percentile(cpu, 0.95))} |`,
        );
      }
    }
    lines.push(
      `| ${mode} | ${compacting.length} | ${events.filter((event) => event.fromBackground).length} | ${events.reduce((sum, event) => sum + event.backgroundWasted, 0)} | ${format(percentile(walls, 0.5))} | ${format(percentile(walls, 0.95))} | ${format(Math.min(...walls))} / ${format(Math.max(...walls))} | ${
        mode === 'blocking'
          ? 'n/a (waits 2 s)'
          : format(
              percentile(
                compacting.map((sample) => sample.cpuMs),
                0.5,
              ),
            )
      } | ${format(
        percentile(
          others.map((sample) => sample.wallMs),
          0.5,
        ),
      )} / ${format(
        percentile(
          others.map((sample) => sample.wallMs),
          0.95,
        ),
      )} |`,
    );
  }
  lines.push(
    '',
    'Background, split by whether the prepared result was ready when the compacting step started (no summariser call running) or the step had to wait for the job. CPU per single step is at the kernel tick granularity (0 = under a tick).',
    '',
    '| Background compacting steps | Count | p50 ms | p95 ms | max ms | CPU ms p50 / p95 |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...readyRows,
    '',
    ...(await perStepOverhead()),
    '',
  );
  return lines;
}

/**
 * `transformParams` on the next step of a loop under the threshold (fresh objects, one new round
 * trip), at several history lengths; lengths interleaved within each round.
 */
async function perStepOverhead(): Promise<string[]> {
  const lengths = [100, 1_000, 5_000];
  const measureRounds = 7;
  const stepsPerRound = 20;
  const state = lengths.map((length) => {
    const middleware = compactionMiddleware({ contextWindow: 100_000_000 });
    const history: Prompt = [
      { role: 'system', content: 'You are a careful coding agent.' },
      { role: 'user', content: [{ type: 'text', text: 'Fix the failing parser test.' }] },
    ];
    for (let index = 0; history.length < length; index++) history.push(...toolStep(index, 40));
    return { length, middleware, history, wall: [] as number[], cpu: [] as number[] };
  });
  // First call per history: counts everything once (not part of the per-step figure).
  for (const entry of state) await call(entry.middleware, entry.history);
  for (let round = 0; round < measureRounds; round++) {
    for (const entry of state) {
      let wall = 0;
      let cpu = 0;
      for (let step = 0; step < stepsPerRound; step++) {
        entry.history = [...fresh(entry.history), ...toolStep(1_000_000 + round * 10 + step, 40)];
        gc();
        const cpuStart = cpuMicros();
        const started = performance.now();
        const sent = await call(entry.middleware, entry.history);
        wall += performance.now() - started;
        cpu += (cpuMicros() - cpuStart) / 1_000;
        if (sent.prompt !== entry.history) throw new Error('expected a passthrough');
      }
      entry.wall.push(wall / stepsPerRound);
      entry.cpu.push(cpu / stepsPerRound);
    }
  }
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${format(sorted[0] as number)} / ${format(sorted[Math.floor(sorted.length / 2)] as number)} / ${format(sorted.at(-1) as number)}`;
  };
  return [
    '### Per-step overhead under the threshold, by history length',
    '',
    `\`transformParams\` on the next step of a loop (fresh objects, one new tool round trip), heuristic counter, far under the threshold. ${measureRounds} rounds, lengths interleaved in each, ${stepsPerRound} steps per round and length (mean per step). Min / median / max over rounds.`,
    '',
    'Thread CPU time comes from `getrusage` at the kernel tick, so per-step CPU under ~1 ms reads as 0 in a single step; it is summed over the round here. Linear in the history: every step compares each message with the previous request (the AI SDK rebuilds message objects per step) and the counter re-checks each one.',
    '',
    '| Messages | Wall ms per step | CPU ms per step |',
    '| ---: | ---: | ---: |',
    ...state.map(
      (entry) =>
        `| ${entry.history.length.toLocaleString('en-US')} | ${stats(entry.wall)} | ${stats(entry.cpu)} |`,
    ),
  ];
}

if (import.meta.main) console.log((await backgroundLatencySection()).join('\n'));
