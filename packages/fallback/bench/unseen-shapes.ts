/**
 * Receipt promises on transcript shapes that src/test-utils/generate-agent-transcript.ts does not
 * draw: tool results as JSON objects with exit codes, multi-part outputs, apply_patch envelopes,
 * notebooks, nested tool arguments, diffs, non-English compiler errors, PowerShell 7 `Line |`
 * blocks, Windows drive-letter paths, monorepo runs after `cd packages/x`, errors that recur after
 * a fix, a failing test fixed by editing another file then re-running. Written by a tester apart
 * from that generator, as a held-out check. Scores each promise at 1,000/2,000/4,000 tokens.
 * Run: pnpm build && node bench/unseen-shapes.ts [N] [FIRST]
 */
import { createTokenCounter } from '@baton/tokens';
import {
  buildUnseenTranscript,
  scoreUnseenReceipt,
  unseenEpisodes,
} from '../src/test-utils/unseen-transcript.ts';

const { createReceipt } = (await import(
  process.env.BATON_DIST ? `${process.env.BATON_DIST}/index.js` : '../dist/index.js'
)) as typeof import('../dist/index.js');

const counter = createTokenCounter({ encoding: 'o200k_base' });
const count = Number(process.argv[2] ?? 200);
const first = Number(process.argv[3] ?? 1);
const sums = new Map<string, number[]>();
const add = (key: string, value: number | undefined) => {
  if (value === undefined) return;
  sums.set(key, [...(sums.get(key) ?? []), value]);
};
for (let seed = first; seed < first + count; seed++) {
  const truth = buildUnseenTranscript(seed);
  for (const budget of [1000, 2000, 4000]) {
    const receipt = createReceipt(truth.messages, { maxTokens: budget, counter });
    const score = scoreUnseenReceipt(receipt.text, truth);
    for (const [measure, value] of Object.entries(score.measures)) {
      add(`${budget} ${measure}`, value);
    }
    if (budget === 2000) {
      for (const [episode, value] of Object.entries(score.errorsByEpisode)) {
        add(`2000 errors ${episode}`, value);
      }
      for (const [episode, value] of Object.entries(score.filesByEpisode)) {
        add(`2000 files ${episode}`, value);
      }
    }
  }
}
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
console.log(
  `${count} transcripts (seeds ${first}..${first + count - 1}); episodes: ${unseenEpisodes.join(', ')}`,
);
for (const [key, values] of [...sums].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const counted = key.endsWith('Shown') || key.endsWith('Wrong');
  const value = counted
    ? String(values.reduce((a, b) => a + b, 0))
    : `${(mean(values) * 100).toFixed(1)} %`;
  console.log(`${key.padEnd(44)} ${value.padStart(8)}  (n=${values.length})`);
}
