/**
 * Quality harness (`pnpm eval`, not part of `pnpm test`): compacts corpus windows with each strategy
 * at the same budget and scores what the compacted context still holds of the window's facts (tool
 * names, reference-weighted paths, error lines, user asks, the latest ask verbatim), measured
 * deterministically with `@baton/fallback`'s `measureRetention` (see evaluate-strategies.ts).
 * Strategies: truncate, mask, receipt, summarize with the local model, and summarize with a
 * user-supplied model (OPENAI_COMPATIBLE_BASE_URL, else the OpenAI API when OPENAI_API_KEY is set;
 * model BATON_EVAL_SUMMARIZER_MODEL, else OPENAI_COMPATIBLE_MODEL, else gpt-4o-mini). Each summariser
 * gives two rows: the verified summary (what Baton inserts) and the model's reply alone.
 * Model-answered probes (recall, artifact trail, continuation, decision; see probe-answers.ts) run
 * when a capable model is configured (same URL and key, model BATON_EVAL_PROBE_MODEL), scored
 * against the facts of the span each compaction removed.
 * Writes bench-results/eval.md (BATON_EVAL_OUT: another file, relative to bench-results). Exits 1 when a summariser call failed (after writing the table).
 * Windows: BATON_EVAL_WINDOWS (default 4); the 135M model is a test fixture, not Baton's quality
 * ceiling.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTokenCounter } from '@baton/tokens';
import { createLocalModel, resolveModelPath, summarizerInputBudget } from '../dist/index.js';
import { corpusWindows } from '../src/test-utils/corpus-windows.ts';
import {
  type EvalStrategy,
  evaluateWindow,
  isCompactable,
  meanPercent,
  type StrategyOutcome,
  summarizerFailures,
  survivalRows,
  userSummarizerFromEnv,
} from './evaluate-strategies.ts';
import { probeModelFromEnv, probes } from './probe-answers.ts';

const here = dirname(fileURLToPath(import.meta.url));
const counter = createTokenCounter({ model: 'gpt-4o' });
const windowCount = Number(process.env.BATON_EVAL_WINDOWS ?? 4);
const contextSize = 4096;
const summaryTargetTokens = 160;

const probeModel = probeModelFromEnv();
const user = userSummarizerFromEnv();
let local: ReturnType<typeof createLocalModel> | undefined;
try {
  local = createLocalModel({ modelPath: resolveModelPath(), contextSize });
} catch (error) {
  console.error(`eval: no local model (${(error as Error).message}); local strategies skipped`);
}

const strategies: EvalStrategy[] = [
  { name: 'truncate', strategy: 'truncate' },
  { name: 'mask', strategy: 'mask' },
  { name: 'receipt', strategy: 'receipt' },
  ...(local
    ? [
        {
          name: `summarize, verified (local \`${local.modelId}\`)`,
          strategy: 'summarize' as const,
          summarizer: {
            model: local,
            name: local.modelId,
            options: {
              timeoutMs: 300_000,
              deadlineMs: 600_000,
              summarizerInputBudget: summarizerInputBudget({ contextSize, summaryTargetTokens }),
              detail: 'brief' as const,
            },
          },
        },
      ]
    : []),
  ...(user
    ? [
        {
          name: `summarize, verified (user model \`${user.modelId}\` at ${user.host})`,
          strategy: 'summarize' as const,
          summarizer: { model: user.model, name: user.modelId, options: { timeoutMs: 120_000 } },
        },
      ]
    : []),
];

const outcomes: StrategyOutcome[] = [];
let windowsRun = 0;
for (const window of corpusWindows(Number.POSITIVE_INFINITY, 1_000, counter)) {
  if (windowsRun === windowCount) break;
  // Not compactable to this budget at all: not a window for the comparison.
  if (!(await isCompactable(window, { counter, summaryTargetTokens }))) continue;
  windowsRun++;
  const results = await evaluateWindow(window, strategies, {
    counter,
    summaryTargetTokens,
    probeModel,
  });
  for (const result of results) {
    console.error(`window ${windowsRun} (${window.name}) ${result.strategy}: ${result.outcome}`);
  }
  outcomes.push(...results);
}
await local?.dispose();

const failures = summarizerFailures(outcomes);
const probeFailures = outcomes.reduce((sum, outcome) => sum + outcome.probeFailures, 0);
const probeRows = strategies.map((entry) => {
  const list = outcomes.filter((outcome) => outcome.strategy === entry.name && outcome.probeScores);
  return `| ${entry.name} | ${probes.map((probe) => meanPercent(list.map((outcome) => outcome.probeScores![probe.kind]))).join(' | ')} |`;
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
const models = [
  local
    ? `Local model: \`${local.modelId}\` (CPU, one thread): a small test fixture (SmolLM2-135M by default), not Baton's quality ceiling.`
    : 'No local model found: the local summariser was not run.',
  user
    ? `User model: \`${user.modelId}\` at ${user.host} (from \`OPENAI_COMPATIBLE_BASE_URL\` / \`OPENAI_API_KEY\`).`
    : 'No user model configured (`OPENAI_COMPATIBLE_BASE_URL` or `OPENAI_API_KEY`, model `BATON_EVAL_SUMMARIZER_MODEL`): not run.',
].join('\n');
const body = `# @baton/local-model eval: fact survival at the same budget

${windowsRun} corpus windows of about 1,000 o200k tokens each, compacted to 60 % (\`protectLastNTokens\` 200,
summary target ${summaryTargetTokens}). Survival: share of the window's facts (\`extractHandoffFacts\`) found
in the compacted context (\`measureRetention\`), averaged over windows where the class occurs.
A summariser gives two rows: the verified summary Baton inserts, and the reply alone (the same context
without Baton's added-facts section; where the reply was rejected, the receipt stands in both).
A failed summariser call is counted as \`call failed\` and never scored.
A strategy that refused a window (an error in its outcomes) is scored over the windows it compacted.
${models}

| strategy | tool names | paths (weighted) | error lines | user asks | latest ask verbatim | outcomes |
| --- | --- | --- | --- | --- | --- | --- |
${survivalRows(strategies, outcomes).join('\n')}
${failures.length > 0 ? `\n**${failures.length} summariser calls failed** (not scored): ${failures.join('; ')}\n` : ''}
${probeSection}`;
const out = resolve(join(here, '..', 'bench-results'), process.env.BATON_EVAL_OUT || 'eval.md');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, body);
console.log(body);
if (failures.length > 0) {
  console.error(`eval: ${failures.length} summariser calls failed:\n${failures.join('\n')}`);
  process.exitCode = 1;
}
