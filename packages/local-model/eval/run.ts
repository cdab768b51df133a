/**
 * Quality harness (`pnpm eval`, not part of `pnpm test`): compacts corpus windows with each strategy
 * at the same budget and scores what the compacted context still holds of the window's facts (tool
 * names, reference-weighted paths, error lines, user asks, the latest ask verbatim), measured
 * deterministically with `@baton/fallback`'s `measureRetention`. Strategies: truncate, mask, receipt,
 * and summarize with the local model (the compressor verifies every summary: facts the reply missed are
 * appended, unusable replies fall back to the receipt).
 * Model-answered probes (recall, artifact trail, continuation, decision; see probe-answers.ts) run
 * when a capable model is configured (OPENAI_COMPATIBLE_BASE_URL or OPENAI_API_KEY, model
 * BATON_EVAL_PROBE_MODEL), scored against the facts of the span each compaction removed.
 * Writes bench-results/eval.md.
 * Windows with the local model: BATON_EVAL_WINDOWS (default 4); the 135M model is a test fixture,
 * not Baton's quality ceiling.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { type CompressionStrategy, createContextCompressor } from '@baton/compressor';
import { extractHandoffFacts, measureRetention, type RetentionScores } from '@baton/fallback';
import { createTokenCounter } from '@baton/tokens';
import { createLocalModel, resolveModelPath, summarizerInputBudget } from '../dist/index.js';
import { corpusWindows } from '../src/test-utils/corpus-windows.ts';
import { answerProbes, type ProbeKind, probeModelFromEnv, probes } from './probe-answers.ts';

const here = dirname(fileURLToPath(import.meta.url));
const counter = createTokenCounter({ model: 'gpt-4o' });
const windowCount = Number(process.env.BATON_EVAL_WINDOWS ?? 4);
const contextSize = 4096;
const summaryTargetTokens = 160;

const probeModel = probeModelFromEnv();
let local: ReturnType<typeof createLocalModel> | undefined;
try {
  local = createLocalModel({ modelPath: resolveModelPath(), contextSize });
} catch (error) {
  console.error(`eval: no local model (${(error as Error).message}); local strategies skipped`);
}

function textOf(messages: readonly ModelMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      parts.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') parts.push(part.text);
      else if (part.type === 'tool-call')
        parts.push(`${part.toolName} ${JSON.stringify(part.input)}`);
      else if (part.type === 'tool-result') {
        const output = part.output as { type: string; value?: unknown };
        parts.push(
          `${part.toolName} ${typeof output.value === 'string' ? output.value : JSON.stringify(output.value)}`,
        );
      }
    }
  }
  return parts.join('\n');
}

type Variant = { name: string; strategy: CompressionStrategy; summarizer?: 'local' };
const variants: Variant[] = [
  { name: 'truncate', strategy: 'truncate' },
  { name: 'mask', strategy: 'mask' },
  { name: 'receipt', strategy: 'receipt' },
  ...(local
    ? ([
        {
          name: `verified summary (${local.modelId})`,
          strategy: 'summarize',
          summarizer: 'local',
        },
      ] as Variant[])
    : []),
];
const keys: Array<keyof RetentionScores> = [
  'toolNames',
  'weightedPaths',
  'errorLines',
  'userAsks',
  'latestAskVerbatim',
];
const scores = new Map<string, Array<Partial<RetentionScores>>>(
  variants.map((variant) => [variant.name, []]),
);
const outcomes = new Map<string, Record<string, number>>(
  variants.map((variant) => [variant.name, {}]),
);

const probeScores = new Map<string, Array<Partial<Record<ProbeKind, number>>>>(
  variants.map((variant) => [variant.name, []]),
);
let probeFailures = 0;

let windowsRun = 0;
for (const window of corpusWindows(Number.POSITIVE_INFINITY, 1_000, counter)) {
  if (windowsRun === windowCount) break;
  const targetTokens = Math.floor(window.tokens * 0.6);
  const base = { counter, summaryTargetTokens, protectLastNTokens: 200 };
  try {
    await createContextCompressor(base).compress(window.messages, {
      targetTokens,
      strategy: 'receipt',
    });
  } catch {
    continue; // Not compactable to this budget at all.
  }
  windowsRun++;
  const facts = extractHandoffFacts(window.messages);
  for (const variant of variants) {
    const compressor = createContextCompressor({
      ...base,
      ...(variant.summarizer && local
        ? {
            summarizer: local,
            summarizerName: local.modelId,
            maxAttempts: 1,
            timeoutMs: 300_000,
            deadlineMs: 600_000,
            summarizerInputBudget: summarizerInputBudget({ contextSize, summaryTargetTokens }),
            detail: 'brief' as const,
          }
        : {}),
    });
    try {
      const result = await compressor.compress(window.messages, {
        targetTokens,
        strategy: variant.strategy,
      });
      scores.get(variant.name)!.push(measureRetention(textOf(result.messages), facts));
      if (probeModel) {
        const removed = result.event.removedMessageIndexes.map((index) => window.messages[index]!);
        const probed = await answerProbes(
          textOf(result.messages),
          extractHandoffFacts(removed),
          probeModel,
        );
        probeScores.get(variant.name)!.push(probed.scores);
        probeFailures += probed.failed.length;
      }
      const key = result.usedFallback
        ? `receipt: ${(result.fallbackReason ?? '').split(' (fact')[0]!.slice(0, 60)}`
        : result.strategy;
      const counts = outcomes.get(variant.name)!;
      counts[key] = (counts[key] ?? 0) + 1;
    } catch (error) {
      const counts = outcomes.get(variant.name)!;
      const key = `error: ${(error as Error).name}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
}
await local?.dispose();

const mean = (values: Array<number | undefined>) => {
  const defined = values.filter((value): value is number => value !== undefined);
  return defined.length === 0
    ? '–'
    : `${Math.round((defined.reduce((a, b) => a + b, 0) / defined.length) * 100)} %`;
};
const rows = variants.map((variant) => {
  const list = scores.get(variant.name)!;
  const counts = Object.entries(outcomes.get(variant.name)!)
    .map(([key, count]) => `${key} ×${count}`)
    .join('; ');
  return `| ${variant.name} | ${keys.map((key) => mean(list.map((score) => score[key]))).join(' | ')} | ${counts} |`;
});
const probeRows = variants.map((variant) => {
  const list = probeScores.get(variant.name)!;
  return `| ${variant.name} | ${probes.map((probe) => mean(list.map((score) => score[probe.kind]))).join(' | ')} |`;
});
const probeSection = probeModel
  ? `## Model-answered probes (\`${probeModel.model}\`)

The probe model answers each question from the compacted context; answers are scored against the facts
of the span the compaction removed: recall (error lines quoted exactly), artifact trail (paths,
weighted), continuation (earlier asks, by their words), decision (tools named). ${probeFailures} probe calls failed (not scored).

| strategy | ${probes.map((probe) => probe.kind).join(' | ')} |
| --- | ${probes.map(() => '---').join(' | ')} |
${probeRows.join('\n')}
`
  : 'Model-answered probes (recall, artifact trail, continuation, decision) need a capable model: set `OPENAI_COMPATIBLE_BASE_URL` or `OPENAI_API_KEY` (and `BATON_EVAL_PROBE_MODEL`); not run.\n';
const body = `# @baton/local-model eval: fact survival at the same budget

${windowsRun} corpus windows of about 1,000 o200k tokens each, compacted to 60 % (\`protectLastNTokens\` 200,
summary target ${summaryTargetTokens}). Survival: share of the window's facts (\`extractHandoffFacts\`) found
in the compacted context (\`measureRetention\`), averaged over windows where the class occurs.
${local ? `Local model: \`${local.modelId}\` (CPU, one thread): a 135M test fixture, not Baton's quality ceiling.` : 'No local model found: local strategies not run.'}

| strategy | tool names | paths (weighted) | error lines | user asks | latest ask verbatim | outcomes |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

${probeSection}`;
mkdirSync(join(here, '..', 'bench-results'), { recursive: true });
writeFileSync(join(here, '..', 'bench-results', 'eval.md'), body);
console.log(body);
