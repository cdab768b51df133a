/**
 * @baton/fallback benchmark: redaction quality on the secret-scanner fixtures, receipt retention on
 * the dev transcripts against a Hermes-style fixed-cap baseline (same run), and receipt build time
 * for a ~100k-token window. Writes bench-results/results.md.
 * Run: pnpm build && pnpm bench
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  loadSecretFixtures,
  loadTranscripts,
  median,
  withToolCallIdSuffix,
} from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { createFixedCapReceipt } from '../dist/fixed-cap-receipt.js';
import {
  createReceipt,
  extractHandoffFacts,
  measureRetention,
  type RetentionScores,
  redactMessages,
  redactSecrets,
} from '../dist/index.js';
import { middleWindow } from '../dist/middle-window.js';
import {
  extractReferenceFacts,
  measureReferenceRetention,
  type ReferenceRetention,
} from '../dist/reference-facts.js';

const here = dirname(fileURLToPath(import.meta.url));
const transcripts = loadTranscripts();
const fixtures = loadSecretFixtures();
if (transcripts.length === 0 || fixtures.length === 0) {
  console.error('corpus not found: the fallback bench needs ../shared/corpus');
  process.exit(1);
}
const counter = createTokenCounter({ encoding: 'o200k_base' });
const lines: string[] = ['## @baton/fallback', ''];
const percent = (value: number | undefined) =>
  value === undefined ? 'n/a' : `${(value * 100).toFixed(1)} %`;

// --- Redaction quality -------------------------------------------------------------------------
interface Tally {
  secrets: number;
  caught: number;
  clean: number;
  flagged: number;
}
const bySource = new Map<string, Tally>();
const total: Tally = { secrets: 0, caught: 0, clean: 0, flagged: 0 };
for (const row of fixtures) {
  const source = row.source.split('@')[0]!;
  const tally = bySource.get(source) ?? { secrets: 0, caught: 0, clean: 0, flagged: 0 };
  bySource.set(source, tally);
  const result = redactSecrets(row.text);
  for (const target of [tally, total]) {
    if (row.expect === 'secret') {
      target.secrets++;
      const caught = row.secret_spans
        ? row.secret_spans.every((span) => !result.text.includes(span))
        : result.findings.length > 0;
      if (caught) target.caught++;
    } else {
      target.clean++;
      if (result.findings.length > 0) target.flagged++;
    }
  }
}
lines.push(
  '### Redaction on the secret-scanner fixtures (`secrets/dev.jsonl.gz`)',
  '',
  'A `secret` row is caught when none of its `secret_spans` is left (rows without spans: when anything',
  'was found); a `not-secret` row is a false positive when anything was found. Targets: recall >= 99 %,',
  'false positives <= 3 %.',
  '',
  '| source | secret rows | recall | not-secret rows | false positives |',
  '|---|---:|---:|---:|---:|',
);
for (const [source, tally] of [...bySource].sort()) {
  lines.push(
    `| ${source} | ${tally.secrets} | ${percent(tally.caught / tally.secrets)} | ${tally.clean} | ${percent(tally.flagged / tally.clean)} |`,
  );
}
lines.push(
  `| **all** | ${total.secrets} | **${percent(total.caught / total.secrets)}** | ${total.clean} | **${percent(total.flagged / total.clean)}** |`,
  '',
);

// Redaction speed on real transcript messages, string by string as redactMessages sees them.
const corpusMessages = transcripts.flatMap((transcript) => transcript.messages as ModelMessage[]);
let corpusBytes = 0;
const countBytes = (value: unknown): void => {
  if (typeof value === 'string') corpusBytes += Buffer.byteLength(value);
  else if (Array.isArray(value)) value.forEach(countBytes);
  else if (value !== null && typeof value === 'object') Object.values(value).forEach(countBytes);
};
countBytes(corpusMessages);
const redactionTimes: number[] = [];
const redactionCpu: number[] = [];
for (let run = 0; run < 7; run++) {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  redactMessages(corpusMessages);
  redactionTimes.push(performance.now() - started);
  const used = process.cpuUsage(cpuBefore);
  redactionCpu.push((used.user + used.system) / 1000);
}
const megabytes = corpusBytes / 2 ** 20;
// Wall time follows the load of the shared machine; the CPU time of this process is steadier.
lines.push(
  `\`redactMessages\` over all ${corpusMessages.length.toLocaleString('en-US')} dev transcript messages (${megabytes.toFixed(1)} MiB of strings), median of 7 runs: ` +
    `${median(redactionTimes).toFixed(0)} ms wall (${(megabytes / (median(redactionTimes) / 1000)).toFixed(1)} MiB/s), ` +
    `${median(redactionCpu).toFixed(0)} ms CPU (${(megabytes / (median(redactionCpu) / 1000)).toFixed(1)} MiB/s).`,
  '',
);

// --- Retention ---------------------------------------------------------------------------------
const measures: Array<keyof RetentionScores> = [
  'latestAskVerbatim',
  'toolNames',
  'weightedPaths',
  'errorLines',
  'userAsks',
];
const labels: Record<keyof RetentionScores, string> = {
  latestAskVerbatim: 'latest ask verbatim',
  toolNames: 'tool names',
  weightedPaths: 'file paths (reference-weighted)',
  errorLines: 'error lines',
  userAsks: 'user asks',
};
const windows = transcripts
  .map((transcript) => middleWindow(transcript.messages as ModelMessage[], { counter }))
  .filter((window) => window.length > 0);
const factsOf = windows.map((window) => extractHandoffFacts(window));
const referenceOf = windows.map((window) => extractReferenceFacts(window));
const mean = (values: number[] | undefined) =>
  values && values.length > 0
    ? values.reduce((sum, value) => sum + value, 0) / values.length
    : undefined;
const receiptsOf = new Map<number, Array<{ receipt: string; fixed: string }>>();
for (const budget of [1000, 2000, 4000]) {
  receiptsOf.set(
    budget,
    windows.map((window) => ({
      receipt: createReceipt(window, { maxTokens: budget, counter }).text,
      fixed: createFixedCapReceipt(window, { maxTokens: budget, counter }),
    })),
  );
}
const referenceMeasures: Array<keyof ReferenceRetention> = [
  'latestAskVerbatim',
  'toolNames',
  'toolNamesInActions',
  'weightedPaths',
  'errorLines',
  'userAsks',
];
const referenceLabels: Record<keyof ReferenceRetention, string> = {
  latestAskVerbatim: 'latest ask verbatim',
  toolNames: 'tool names (anywhere, counts line included)',
  toolNamesInActions: 'tool names in the actions sections',
  weightedPaths: 'file paths (occurrence-weighted)',
  errorLines: 'error lines (first 100 chars)',
  userAsks: 'user asks (first 100 chars)',
};
lines.push(
  '### Retention of the dropped window, against independent ground truth',
  '',
  `For each of the ${windows.length} dev transcripts the window is everything after the first exchange and`,
  'before the last ~20 % of tokens. Ground truth comes from `reference-facts.ts`, which shares no code',
  'with the extractor the receipt is built from: tool names of tool-call parts; paths from tool arguments',
  'named path/file/filename/file_path/target plus tokens in tool outputs matched by a simpler regex (a',
  'directory and a file with an extension), weighted by occurrences; error lines are the first line of',
  '`error-text`/`error-json` outputs and output lines matching `Traceback`, `…Error:` or a non-zero exit',
  'code; asks are user messages. Items are redacted first (the receipt never shows a secret). Scores are',
  'means over transcripts that have the item. Baseline: Hermes-style fixed caps (first 12 actions, first 5',
  'errors, first 12 files, every ask, last 8 turns of 700 chars, cut at 8,000 chars) rendered in the same',
  "layout from the receipt extractor's facts, then cut to the same token budget (longest prefix that",
  'fits), scored with the same independent truth.',
  '',
);
for (const budget of [1000, 2000, 4000]) {
  const ours: Record<string, number[]> = {};
  const baseline: Record<string, number[]> = {};
  receiptsOf.get(budget)!.forEach(({ receipt, fixed }, index) => {
    const truth = referenceOf[index]!;
    const scoreOurs = measureReferenceRetention(receipt, truth);
    const scoreBaseline = measureReferenceRetention(fixed, truth);
    for (const measure of referenceMeasures) {
      if (scoreOurs[measure] !== undefined) {
        ours[measure] = [...(ours[measure] ?? []), scoreOurs[measure]!];
      }
      if (scoreBaseline[measure] !== undefined) {
        baseline[measure] = [...(baseline[measure] ?? []), scoreBaseline[measure]!];
      }
    }
  });
  lines.push(
    `#### ${budget.toLocaleString('en-US')} tokens (independent truth)`,
    '',
    '| measure | transcripts | receipt | fixed-cap baseline | receipt / baseline |',
    '|---|---:|---:|---:|---:|',
  );
  for (const measure of referenceMeasures) {
    const a = mean(ours[measure]);
    const b = mean(baseline[measure]);
    const ratio = a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a';
    lines.push(
      `| ${referenceLabels[measure]} | ${ours[measure]?.length ?? 0} | ${percent(a)} | ${percent(b)} | ${ratio} |`,
    );
  }
  lines.push('');
}
// Compressor mode: the current request stays after the handoff and is passed as `latestAsk`; the
// receipt then points to it and must still carry the window's own last ask verbatim, as history.
{
  let windowsWithAsk = 0;
  let verbatim = 0;
  let currentRepeated = 0;
  let withLaterAsk = 0;
  transcripts.forEach((transcript) => {
    const all = transcript.messages as ModelMessage[];
    const window = middleWindow(all, { counter });
    if (window.length === 0) return;
    const end = all.indexOf(window.at(-1)!) + 1;
    const later = all.slice(end).find((message) => message.role === 'user');
    const laterText =
      later === undefined
        ? undefined
        : typeof later.content === 'string'
          ? later.content
          : later.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    if (laterText === undefined || laterText.trim() === '') return;
    withLaterAsk++;
    const receipt = createReceipt(window, { maxTokens: 2000, counter, latestAsk: laterText });
    const truth = extractReferenceFacts(window);
    const current = redactSecrets(laterText.trim()).text;
    // A short request (`/clear`) can also be part of an ask of the window; that is not a repeat.
    const inWindowAsk = truth.asks.some((ask) => ask.includes(current.replace(/\s+/g, ' ')));
    if (receipt.text.includes(current) && !inWindowAsk) currentRepeated++;
    if (truth.latestAsk === undefined || truth.latestAsk === redactSecrets(laterText.trim()).text)
      return;
    windowsWithAsk++;
    if (receipt.text.includes(truth.latestAsk)) verbatim++;
  });
  lines.push(
    `With \`latestAsk\` set to the first user message after the window (as \`@baton/compressor\` passes it when that message stays in the conversation), at 2,000 tokens: the window's own last ask is in the receipt verbatim for ${verbatim} of ${windowsWithAsk} windows that have one; the current request is repeated in ${currentRepeated} of ${withLaterAsk} receipts (text that is also part of a window ask not counted).`,
    '',
  );
}
lines.push(
  '### Retention of the dropped window, self-graded (for reference)',
  '',
  'The same receipts scored against `extractHandoffFacts`, the extractor the receipt itself is built',
  'from. This only shows how much of its own extraction the selection keeps; it cannot see what the',
  'extractor misses. Kept for comparison with earlier runs.',
  '',
);
for (const budget of [1000, 2000, 4000]) {
  const ours: Record<string, number[]> = {};
  const baseline: Record<string, number[]> = {};
  receiptsOf.get(budget)!.forEach(({ receipt, fixed }, index) => {
    const facts = factsOf[index]!;
    const scoreOurs = measureRetention(receipt, facts);
    const scoreBaseline = measureRetention(fixed, facts);
    for (const measure of measures) {
      if (scoreOurs[measure] !== undefined) {
        ours[measure] = [...(ours[measure] ?? []), scoreOurs[measure]!];
      }
      if (scoreBaseline[measure] !== undefined) {
        baseline[measure] = [...(baseline[measure] ?? []), scoreBaseline[measure]!];
      }
    }
  });
  lines.push(
    `#### ${budget.toLocaleString('en-US')} tokens (self-graded)`,
    '',
    '| measure | transcripts | receipt | fixed-cap baseline | receipt / baseline |',
    '|---|---:|---:|---:|---:|',
  );
  for (const measure of measures) {
    const a = mean(ours[measure]);
    const b = mean(baseline[measure]);
    const ratio = a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a';
    lines.push(
      `| ${labels[measure]} | ${ours[measure]?.length ?? 0} | ${percent(a)} | ${percent(b)} | ${ratio} |`,
    );
  }
  lines.push('');
}

// --- Build time for a ~100k-token window --------------------------------------------------------
const bigWindow: ModelMessage[] = [];
let windowTokens = 0;
for (let copy = 0; windowTokens < 100_000; copy++) {
  for (const transcript of transcripts) {
    for (const message of transcript.messages) {
      if (message.role === 'system') continue;
      bigWindow.push(withToolCallIdSuffix(message, String(copy)) as ModelMessage);
      windowTokens += counter.countMessage(message);
      if (windowTokens >= 100_000) break;
    }
    if (windowTokens >= 100_000) break;
  }
}
const buildTimes: number[] = [];
const buildCpu: number[] = [];
const baselineTimes: number[] = [];
const baselineCpu: number[] = [];
// Wall time is at the mercy of other processes on a shared machine; CPU time of this process is
// reported beside it.
function timed(run: () => unknown, wall: number[], cpu: number[]): void {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  run();
  wall.push(performance.now() - started);
  const used = process.cpuUsage(cpuBefore);
  cpu.push((used.user + used.system) / 1000);
}
for (let run = 0; run < 25; run++) {
  (globalThis as { gc?: () => void }).gc?.();
  timed(() => createReceipt(bigWindow, { maxTokens: 2000, counter }), buildTimes, buildCpu);
  timed(
    () => createFixedCapReceipt(bigWindow, { maxTokens: 2000, counter }),
    baselineTimes,
    baselineCpu,
  );
}
lines.push(
  '### Receipt build time',
  '',
  `Window: ${bigWindow.length} messages, ${windowTokens.toLocaleString('en-US')} tokens (o200k), from the dev transcripts. Budget 2,000 tokens. Medians of 25 runs (the first warm the JIT and the encoder). Target < 20 ms.`,
  '',
  '| builder | wall median | CPU median | receipt / baseline (CPU) |',
  '|---|---:|---:|---:|',
  `| createReceipt | ${median(buildTimes).toFixed(1)} ms | ${median(buildCpu).toFixed(1)} ms | ${(median(buildCpu) / median(baselineCpu)).toFixed(2)}x |`,
  `| fixed-cap baseline (same extraction) | ${median(baselineTimes).toFixed(1)} ms | ${median(baselineCpu).toFixed(1)} ms | 1.00x |`,
  '',
);

mkdirSync(join(here, '..', 'bench-results'), { recursive: true });
writeFileSync(join(here, '..', 'bench-results', 'results.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
