// Prints the heuristic's per-class MAPE and aggregate bias on freshly generated text (seeds other
// than the fit's): the fit's hard classes and the held-out classes the fit never draws. Run after
// `pnpm build`: node bench/evaluate-heuristic-classes.ts [seeds] [first seed]
import { createRequire } from 'node:module';
import { estimateTokens } from '../dist/index.js';
import { classErrors } from '../src/test-utils/heuristic-evaluation.ts';
import { holdoutSamples } from '../src/test-utils/holdout-class-texts.ts';
import { syntheticSamples } from '../src/test-utils/synthetic-texts.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const o200k = tiktoken.get_encoding('o200k_base');
const seeds = Number(process.argv[2] ?? 3);
const firstSeed = Number(process.argv[3] ?? 1000);
const perClass = Number(process.env.HEURISTIC_SAMPLES ?? 300);
const worst = new Map<string, { mape: number; bias: number; quarter: number }>();
for (let s = 0; s < seeds; s++) {
  const seed = firstSeed + s * 7919;
  const report = classErrors(
    [...syntheticSamples(seed, perClass), ...holdoutSamples(seed, perClass)],
    (text) => estimateTokens(text),
    (text) => o200k.encode_ordinary(text).length,
  );
  for (const [name, { mape, bias, quarter }] of report) {
    const previous = worst.get(name) ?? { mape: 0, bias: Number.POSITIVE_INFINITY, quarter: 0 };
    worst.set(name, {
      mape: Math.max(previous.mape, mape),
      bias: Math.min(previous.bias, bias),
      quarter: Math.max(previous.quarter, quarter),
    });
  }
}
console.log(`worst over ${seeds} seeds from ${firstSeed} (${perClass} texts per class each):`);
const pct = (value: number, width: number) => (value * 100).toFixed(1).padStart(width);
for (const [name, { mape, bias, quarter }] of worst)
  console.log(
    `${name.padEnd(22)} MAPE ${pct(mape, 5)} %  bias ${pct(bias, 6)} %  chars/4 MAPE ${pct(quarter, 5)} %${mape > 0.08 || bias < -0.1 ? '  <-- over target' : ''}`,
  );
