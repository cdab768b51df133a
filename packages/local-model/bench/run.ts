/**
 * The local model on one thread: prompt and generation throughput, and summariser latency per 1k
 * input tokens with the share of summaries accepted (vs the receipt fallback) on corpus windows.
 * Writes bench-results/results.md. Run: pnpm build && pnpm bench (needs the model: baton-fetch-model).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContextCompressor } from '@baton/compressor';
import { loadTranscripts, median } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { wrapLanguageModel } from 'ai';
import { createLocalModel, resolveModelPath, summarizerInputBudget } from '../dist/index.js';
import { corpusWindows } from '../src/test-utils/corpus-windows.ts';

const here = dirname(fileURLToPath(import.meta.url));
const write = (body: string) => {
  mkdirSync(join(here, '..', 'bench-results'), { recursive: true });
  writeFileSync(join(here, '..', 'bench-results', 'results.md'), body);
  console.log(body);
};

let modelPath: string;
try {
  modelPath = resolveModelPath();
} catch (error) {
  console.error(`local-model bench skipped: ${(error as Error).message}`);
  process.exit(0);
}
const transcripts = loadTranscripts();
if (transcripts.length === 0) {
  console.error('corpus not found: the local-model bench needs ../shared/corpus');
  process.exit(1);
}

const contextSize = 4096;
const rounds = 5;
const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
};
const spread = (values: number[], digits = 1) =>
  `${Math.min(...values).toFixed(digits)} / ${median(values).toFixed(digits)} / ${Math.max(...values).toFixed(digits)}`;

const local = createLocalModel({ modelPath, contextSize });
const loadStarted = performance.now();
const loadCpu = process.cpuUsage();
await local.load();
const loadMs = performance.now() - loadStarted;
const loadCpuMs = (process.cpuUsage(loadCpu).user + process.cpuUsage(loadCpu).system) / 1000;

// Distinct text per round (never-seen input: no prefix of it is held by the sequence).
const texts = transcripts
  .flatMap((transcript) => transcript.messages)
  .filter((message) => message.role === 'user' && typeof message.content === 'string')
  .map((message) => String(message.content))
  .filter((text) => text.length > 1_500);

async function timedCall(text: string) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let first = 0;
  let firstCpu = 0;
  const { stream } = await local.doStream({
    prompt: [
      { role: 'system', content: 'Summarise the text in three short lines.' },
      { role: 'user', content: [{ type: 'text', text }] },
    ],
    maxOutputTokens: 64,
  });
  const reader = stream.getReader();
  let usage = { input: 0, output: 0 };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === 'text-delta' && first === 0) {
      first = performance.now();
      const used = process.cpuUsage(cpu);
      firstCpu = (used.user + used.system) / 1000;
    }
    if (value.type === 'finish') {
      usage = {
        input: value.usage.inputTokens.total ?? 0,
        output: value.usage.outputTokens.total ?? 0,
      };
    }
  }
  const ended = performance.now();
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  return {
    promptPerSecond: usage.input / ((first - started) / 1000),
    generatedPerSecond: (usage.output - 1) / ((ended - first) / 1000),
    // Per CPU second: llama.cpp runs on one thread, so this is the rate on an idle core.
    promptPerCpuSecond: usage.input / (firstCpu / 1000),
    generatedPerCpuSecond: (usage.output - 1) / ((cpuMs - firstCpu) / 1000),
    input: usage.input,
    output: usage.output,
    cpuMs,
    wallMs: ended - started,
  };
}

const prompt = (index: number) => texts[index % texts.length]!.slice(0, 2_000);
const cold = await timedCall(prompt(0));
const warm: Awaited<ReturnType<typeof timedCall>>[] = [];
for (let round = 1; round <= rounds; round++) warm.push(await timedCall(prompt(round)));

// Summariser latency on corpus windows.
const counter = createTokenCounter({ model: 'gpt-4o' });
const summaryTargetTokens = 160;
const calls: Array<{ input: number; ms: number; cpuMs: number }> = [];
const recorded = Object.assign(
  wrapLanguageModel({
    model: local,
    middleware: {
      specificationVersion: 'v4',
      wrapGenerate: async ({ doGenerate }) => {
        const started = performance.now();
        const cpu = process.cpuUsage();
        const result = await doGenerate();
        const used = process.cpuUsage(cpu);
        calls.push({
          input: result.usage.inputTokens.total ?? 0,
          ms: performance.now() - started,
          cpuMs: (used.user + used.system) / 1000,
        });
        return result;
      },
    },
  }),
  // The wrapper keeps the model's structured-output capability (the compressor asks for JSON then).
  { supportsStructuredOutputs: local.supportsStructuredOutputs },
);
const outcomes: Record<string, number> = {};
const coverage: number[] = [];
const addedCounts: number[] = [];
let windowsRun = 0;
for (const window of corpusWindows(Number.POSITIVE_INFINITY, 1_000, counter)) {
  if (windowsRun === Number(process.env.BATON_BENCH_WINDOWS ?? 8)) break;
  const targetTokens = Math.floor(window.tokens * 0.75);
  try {
    // Windows where a compaction to the target is possible at all (the receipt fits).
    await createContextCompressor({
      counter,
      protectLastNTokens: 200,
      summaryTargetTokens,
    }).compress(window.messages, { targetTokens, strategy: 'receipt' });
  } catch {
    continue;
  }
  windowsRun++;
  const compressor = createContextCompressor({
    summarizer: recorded,
    summarizerName: local.modelId,
    counter,
    summaryTargetTokens,
    protectLastNTokens: 200,
    maxAttempts: 1,
    timeoutMs: 300_000,
    deadlineMs: 600_000,
    summarizerInputBudget: summarizerInputBudget({ contextSize, summaryTargetTokens }),
    detail: 'brief',
  });
  const result = await compressor.compress(window.messages, {
    targetTokens,
    strategy: 'summarize',
  });
  const key = result.usedFallback
    ? `receipt (${(result.fallbackReason ?? '').replace(/ \(fact coverage.*$/, '')})`
    : 'summary accepted';
  outcomes[key] = (outcomes[key] ?? 0) + 1;
  console.error(`window ${windowsRun} (${window.name}): ${key}`);
  if (!result.usedFallback) {
    coverage.push(result.event.factCoverage ?? 0);
    addedCounts.push(Object.values(result.event.addedFacts ?? {}).flat().length);
  }
}
await local.dispose();

const perThousand = calls.map((call) => call.ms / (call.input / 1000));
const cpuPerThousand = calls.map((call) => call.cpuMs / (call.input / 1000));
write(`# @baton/local-model bench

Model: \`${local.modelId}\` (node-llama-cpp, CPU, 1 thread, context ${contextSize}). Node ${process.version}.
Shared 2-core machine: wall times include waiting for the CPU; CPU times do not.

## Load and throughput

| measure | value |
| --- | --- |
| model load (cold), wall / CPU | ${loadMs.toFixed(0)} ms / ${loadCpuMs.toFixed(0)} ms |
| first call (cold): prompt tok/s, generated tok/s | ${cold.promptPerSecond.toFixed(1)}, ${cold.generatedPerSecond.toFixed(1)} (${cold.input} in, ${cold.output} out) |
| prompt tok/s per CPU second, ${rounds} warm rounds, min / median / max | ${spread(warm.map((round) => round.promptPerCpuSecond))} |
| generated tok/s per CPU second, ${rounds} warm rounds, min / median / max | ${spread(warm.map((round) => round.generatedPerCpuSecond))} |
| prompt tok/s wall, ${rounds} warm rounds, min / median / max | ${spread(warm.map((round) => round.promptPerSecond))} |
| generated tok/s wall, ${rounds} warm rounds, min / median / max | ${spread(warm.map((round) => round.generatedPerSecond))} |
| CPU ms per call (${warm[0]?.input ?? 0}-${warm.at(-1)?.input ?? 0} in, <= 64 out), min / median / max | ${spread(
  warm.map((round) => round.cpuMs),
  0,
)} |

## Summariser on corpus windows (\`compress\`, strategy \`summarize\`, target ${summaryTargetTokens} tokens)

| measure | value |
| --- | --- |
| windows | ${windowsRun} (about 1,000 o200k tokens each, compacted to 75 %) |
| outcomes (lenient parser, verified) | ${Object.entries(outcomes)
  .map(([key, count]) => `${key}: ${count}`)
  .join('; ')} |
| share of summaries accepted (not receipt) | ${outcomes['summary accepted'] ?? 0} / ${windowsRun} |
| accepted: fact coverage of the replies (before top-up); facts added | ${coverage.map((value) => value.toFixed(2)).join(', ') || '–'}; ${addedCounts.join(', ') || '–'} |
| summariser calls | ${calls.length} (${calls.map((call) => call.input).join(', ')} input tokens) |
| latency per 1k input tokens, wall, p50 / p95 | ${percentile(perThousand, 0.5).toFixed(0)} ms / ${percentile(perThousand, 0.95).toFixed(0)} ms |
| CPU per 1k input tokens, p50 / p95 | ${percentile(cpuPerThousand, 0.5).toFixed(0)} ms / ${percentile(cpuPerThousand, 0.95).toFixed(0)} ms |
`);
