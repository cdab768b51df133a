// Prints the heuristic's per-class MAPE and aggregate bias on freshly generated text (seeds other
// than the fit's). Run after `pnpm build`: node bench/evaluate-heuristic-classes.ts [seeds]
import { createRequire } from 'node:module';
import { estimateTokens } from '../dist/index.js';
import { classErrors } from '../src/test-utils/heuristic-evaluation.ts';
import { syntheticSamples } from '../src/test-utils/synthetic-texts.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const o200k = tiktoken.get_encoding('o200k_base');
const seeds = Number(process.argv[2] ?? 3);
const perClass = Number(process.env.HEURISTIC_SAMPLES ?? 300);
const worst = new Map<string, { mape: number; bias: number }>();
for (let s = 0; s < seeds; s++) {
  const seed = 1000 + s * 7919;
  const report = classErrors(
    syntheticSamples(seed, perClass),
    (text) => estimateTokens(text),
    (text) => o200k.encode_ordinary(text).length,
  );
  for (const [name, { mape, bias }] of report) {
    const previous = worst.get(name) ?? { mape: 0, bias: Number.POSITIVE_INFINITY };
    worst.set(name, { mape: Math.max(previous.mape, mape), bias: Math.min(previous.bias, bias) });
  }
}
console.log(`worst over ${seeds} seeds (${perClass} texts per class each):`);
for (const [name, { mape, bias }] of worst)
  console.log(
    `${name.padEnd(14)} MAPE ${(mape * 100).toFixed(1).padStart(5)} %  bias ${(bias * 100).toFixed(1).padStart(6)} %`,
  );
