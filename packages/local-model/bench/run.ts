/**
 * The local model on one thread: prompt and generation throughput, and summariser latency per 1k
 * input tokens (CPU and wall; min / median / p95 / max over corpus windows of different sizes) with
 * the share of summaries accepted (vs the receipt fallback).
 * Writes bench-results/results.md (BATON_BENCH_OUT names another file in bench-results).
 * Window sizes: BATON_BENCH_SIZES (o200k tokens, comma-separated; default 300,500,700,900,1100,1300,1600,1900,2200,2500).
 * Run: pnpm build && pnpm bench (needs the model: baton-fetch-model).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createContextCompressor } from '@baton/compressor';
import { loadTranscripts, median } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { wrapLanguageModel } from 'ai';
import {
  createLocalModel,
  resolveModelPath,
  summarizerInputBudget,
  withStructuredOutputs,
} from '../dist/index.js';
import { type CorpusWindow, corpusWindows } from '../src/test-utils/corpus-windows.ts';

const here = dirname(fileURLToPath(import.meta.url));
const write = (body: string) => {
  mkdirSync(join(here, '..', 'bench-results'), { recursive: true });
  writeFileSync(
    join(here, '..', 'bench-results', process.env.BATON_BENCH_OUT || 'results.md'),
    body,
  );
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
const spreadWithP95 = (values: number[]) =>
  [Math.min(...values), median(values), percentile(values, 0.95), Math.max(...values)]
    .map((value) => value.toFixed(0))
    .join(' / ');
const benchStarted = performance.now();

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

// Summariser latency on corpus windows of different sizes.
const counter = createTokenCounter({ model: 'gpt-4o' });
const summaryTargetTokens = 160;
const sizes = (process.env.BATON_BENCH_SIZES ?? '300,500,700,900,1100,1300,1600,1900,2200,2500')
  .split(',')
  .map(Number)
  .filter((size) => size > 0);
interface Call {
  input: number;
  output: number;
  ms: number;
  cpuMs: number;
  finish: string;
}
const calls: Call[] = [];
// Records each summariser call as the model counted it. `wrapLanguageModel` drops the model's
// structured-output capability; `withStructuredOutputs` puts it back (the compressor asks for JSON).
const recorded = withStructuredOutputs(
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
          output: result.usage.outputTokens.total ?? 0,
          ms: performance.now() - started,
          cpuMs: (used.user + used.system) / 1000,
          finish: String(result.finishReason.raw ?? result.finishReason.unified),
        });
        return result;
      },
    },
  }),
  { from: local },
);
const budget = summarizerInputBudget({ contextSize, summaryTargetTokens });
const compactable = async (messages: ModelMessage[], targetTokens: number) => {
  try {
    // Windows where a compaction to the target is possible at all (the receipt fits).
    await createContextCompressor({
      counter,
      protectLastNTokens: 200,
      summaryTargetTokens,
    }).compress(messages, { targetTokens, strategy: 'receipt' });
    return true;
  } catch {
    return false;
  }
};
/** One window per size, each from a transcript not used yet (never-seen input for every call). */
const used = new Set<string>();
const pick = async (size: number) => {
  for (const window of corpusWindows(Number.POSITIVE_INFINITY, size, counter)) {
    if (used.has(window.name)) continue;
    if (!(await compactable(window.messages, Math.floor(window.tokens * 0.75)))) continue;
    used.add(window.name);
    return window;
  }
  return undefined;
};
const summarise = async (window: CorpusWindow) => {
  const compressor = createContextCompressor({
    summarizer: recorded,
    summarizerName: local.modelId,
    counter,
    summaryTargetTokens,
    protectLastNTokens: 200,
    maxAttempts: 1,
    timeoutMs: 300_000,
    deadlineMs: 600_000,
    summarizerInputBudget: budget,
    detail: 'brief',
  });
  const before = calls.length;
  const result = await compressor.compress(window.messages, {
    targetTokens: Math.floor(window.tokens * 0.75),
    strategy: 'summarize',
  });
  return { result, call: calls.length === before + 1 ? calls.at(-1) : undefined };
};

// The first summariser call compiles the JSON-schema grammar: timed apart from the others.
const warmupWindow = await pick(sizes[0] ?? 400);
const warmup = warmupWindow ? (await summarise(warmupWindow)).call : undefined;
const rows: Array<{ name: string; tokens: number; call: Call | undefined; outcome: string }> = [];
const outcomes: Record<string, number> = {};
const coverage: number[] = [];
const addedCounts: number[] = [];
for (const size of sizes) {
  const window = await pick(size);
  if (!window) {
    console.error(`no compactable corpus window of about ${size} tokens left: size skipped`);
    continue;
  }
  const { result, call } = await summarise(window);
  const key = result.usedFallback
    ? `receipt (${(result.fallbackReason ?? '').replace(/ \(fact coverage.*$/, '')})`
    : 'summary accepted';
  outcomes[key] = (outcomes[key] ?? 0) + 1;
  rows.push({ name: window.name, tokens: window.tokens, call, outcome: key });
  console.error(
    `window of ${window.tokens} tokens (${window.name}): ${key}; ${call ? `${call.input} in, ${call.output} out, ${call.ms.toFixed(0)} ms wall, ${call.cpuMs.toFixed(0)} ms CPU` : 'no summariser call'}`,
  );
  if (!result.usedFallback) {
    coverage.push(result.event.factCoverage ?? 0);
    addedCounts.push(Object.values(result.event.addedFacts ?? {}).flat().length);
  }
}
await local.dispose();

const measured = rows.flatMap((row) => (row.call ? [row.call] : []));
const perThousand = measured.map((call) => call.ms / (call.input / 1000));
const cpuPerThousand = measured.map((call) => call.cpuMs / (call.input / 1000));
const perCall = (values: number[]) => (values.length === 0 ? '–' : spreadWithP95(values));
const minutes = ((performance.now() - benchStarted) / 60_000).toFixed(1);
write(`# @baton/local-model bench

Model: \`${local.modelId}\` (node-llama-cpp, CPU, 1 thread, context ${contextSize}). Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC, bench ${minutes} min.
Shared 2-core machine: wall times include waiting for the CPU; CPU times (the whole process, llama.cpp's thread included) do not.

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

## Summariser latency on corpus windows (\`compress\`, strategy \`summarize\`, target ${summaryTargetTokens} tokens)

One window per size (o200k tokens), each from a different transcript, compacted to 75 %; one
summariser call each (\`maxAttempts\` 1, structured JSON handoff through the grammar). Input tokens
are the model's own (SmolLM2 tokenizer), prompt and chat template included. Per 1k input tokens =
the whole call (prompt and reply) divided by its input in thousands. Nearest-rank p95: with fewer
than 20 calls it is the largest value.

| window (o200k) | transcript | input tokens | output tokens | finish | wall ms | CPU ms | outcome |
| ---: | --- | ---: | ---: | --- | ---: | ---: | --- |
${rows.map((row) => `| ${row.tokens} | ${row.name} | ${row.call?.input ?? '–'} | ${row.call?.output ?? '–'} | ${row.call?.finish ?? '–'} | ${row.call?.ms.toFixed(0) ?? '–'} | ${row.call?.cpuMs.toFixed(0) ?? '–'} | ${row.outcome} |`).join('\n')}

| per 1k input tokens, ${measured.length} calls | min / median / p95 / max |
| --- | --- |
| CPU ms | ${perCall(cpuPerThousand)} |
| wall ms | ${perCall(perThousand)} |
| first summariser call (grammar compiled; not in the rows above), ${warmup?.input ?? 0} in | ${warmup ? `${warmup.cpuMs.toFixed(0)} ms CPU, ${warmup.ms.toFixed(0)} ms wall` : '–'} |

| measure | value |
| --- | --- |
| outcomes (lenient parser, verified) | ${Object.entries(outcomes)
  .map(([key, count]) => `${key}: ${count}`)
  .join('; ')} |
| share of summaries accepted (not receipt) | ${outcomes['summary accepted'] ?? 0} / ${rows.length} |
| accepted: fact coverage of the replies (before top-up); facts added | ${coverage.map((value) => value.toFixed(2)).join(', ') || '–'}; ${addedCounts.join(', ') || '–'} |
`);
