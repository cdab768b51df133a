/**
 * Receipt retention on synthetic transcripts in shapes the dev corpus lacks (see
 * src/test-utils/generate-agent-transcript.ts), at 1,000, 2,000 and 4,000 tokens, per shape and per
 * error ecosystem. Truth comes from the generator. Seeds FIRST..FIRST+N-1 (deterministic; default
 * 1..300). Develop on the default seeds and check on others (`300 100001`): held-out draws.
 * `held-out` as the third argument draws windows of src/test-utils/generate-held-out-window.ts
 * instead: formats the receipt's rules were not written from (the leave-source-out stand-in).
 * Run: pnpm build && node bench/generated-receipts.ts [N] [FIRST] [held-out]
 */
import './resolve-source-imports.ts';
import { createTokenCounter } from '@baton/tokens';

// BATON_DIST=/path/to/other/dist compares another build (A/B) on the same transcripts.
const { createReceipt } = (await import(
  process.env.BATON_DIST ? `${process.env.BATON_DIST}/index.js` : '../dist/index.js'
)) as typeof import('../dist/index.js');

const { generateAgentTranscript } = await import('../src/test-utils/generate-agent-transcript.ts');
const { generateHeldOutWindow } = await import('../src/test-utils/generate-held-out-window.ts');
const { scoreGeneratedReceipt } = await import('../src/test-utils/score-generated-receipt.ts');

const counter = createTokenCounter({ encoding: 'o200k_base' });
const count = Number(process.argv[2] ?? 300);
const first = Number(process.argv[3] ?? 1);
const generate = process.argv[4] === 'held-out' ? generateHeldOutWindow : generateAgentTranscript;
const measures = ['errors', 'resolvedMarks', 'files', 'filesListedOnce', 'tools', 'asks'] as const;
type Sums = Record<string, number[]>;
const table = new Map<string, Sums>();
const add = (key: string, measure: string, value: number | undefined) => {
  if (value === undefined) return;
  const entry = table.get(key) ?? {};
  table.set(key, entry);
  entry[measure] = [...(entry[measure] ?? []), value];
};
let internals = 0;
let secrets = 0;
for (let seed = first; seed < first + count; seed++) {
  const truth = generate(seed);
  for (const budget of [1000, 2000, 4000]) {
    const receipt = createReceipt(truth.messages, { maxTokens: budget, counter });
    const score = scoreGeneratedReceipt(receipt.text, truth);
    internals += score.internalsShown;
    secrets += score.secretsShown;
    for (const measure of measures) {
      add(`${budget} all`, measure, score[measure]);
      add(`${budget} shape ${truth.shape}`, measure, score[measure]);
      if (budget === 2000)
        for (const trait of truth.traits) add(`2000 ${trait}`, measure, score[measure]);
    }
    if (budget === 2000) {
      for (const eco of new Set(truth.errors.map((error) => error.ecosystem))) {
        const mine = truth.errors.filter((error) => error.ecosystem === eco);
        const scored = scoreGeneratedReceipt(receipt.text, { ...truth, errors: mine });
        add(`2000 errors ${eco}`, 'errors', scored.errors);
        add(`2000 errors ${eco}`, 'resolvedMarks', scored.resolvedMarks);
      }
    }
  }
}
const mean = (values: number[] | undefined) =>
  values && values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
const percent = (value: number | undefined) =>
  value === undefined ? '–' : `${(value * 100).toFixed(1)} %`;
console.log(`${count} transcripts (seeds ${first}..${first + count - 1}); ${measures.join(' | ')}`);
for (const [key, entry] of [...table].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  console.log(
    `${key.padEnd(26)} ${measures.map((m) => percent(mean(entry[m])).padStart(8)).join(' ')}`,
  );
}
console.log(`internals shown: ${internals}; secrets shown: ${secrets}`);
