// Prints the heuristic's per-class MAPE and aggregate bias against the exact o200k counter on the
// hostile classes (src/test-utils/hostile-class-texts.ts), short (20-2,000 characters) and long
// (10,000-100,000), worst over several seeds; fresh seeds unless given. Run after `pnpm build`:
//   node bench/evaluate-heuristic-hostile.ts [seeds] [first seed] [short per class] [long per class]
// BENCH_BASE=<dist directory> measures that build's estimateTokens instead.
import { createTokenCounter, estimateTokens as thisEstimate } from '../dist/index.js';
import { classErrors } from '../src/test-utils/heuristic-evaluation.ts';
import { hostileSamples } from '../src/test-utils/hostile-class-texts.ts';
import { loadBaseBuild } from './bench-helpers.ts';

const estimateTokens = (await loadBaseBuild())?.estimateTokens ?? thisEstimate;
const exact = createTokenCounter({ encoding: 'o200k_base' });
const seeds = Number(process.argv[2] ?? 3);
const firstSeed = Number(process.argv[3] ?? Math.floor(Math.random() * 2 ** 31));
const shortPerClass = Number(process.argv[4] ?? 200);
const longPerClass = Number(process.argv[5] ?? 8);
for (const [range, perClass, min, max] of [
  ['short', shortPerClass, 20, 2000],
  ['long', longPerClass, 10_000, 100_000],
] as const) {
  const worst = new Map<string, { mape: number; bias: number }>();
  for (let s = 0; s < seeds; s++) {
    const report = classErrors(
      hostileSamples(firstSeed + s * 7919, perClass, min, max),
      (text) => estimateTokens(text),
      (text) => exact.count(text),
    );
    for (const [name, { mape, bias }] of report) {
      const previous = worst.get(name) ?? { mape: 0, bias: Number.POSITIVE_INFINITY };
      worst.set(name, { mape: Math.max(previous.mape, mape), bias: Math.min(previous.bias, bias) });
    }
  }
  console.log(
    `${range} (${min}-${max} chars, ${perClass} per class): worst over ${seeds} seeds from ${firstSeed}`,
  );
  const pct = (value: number, width: number) => (value * 100).toFixed(1).padStart(width);
  for (const [name, { mape, bias }] of worst)
    console.log(
      `  ${name.padEnd(26)} MAPE ${pct(mape, 6)} %  bias ${pct(bias, 6)} %${bias < -0.1 ? '  <-- undercount' : ''}${range === 'short' && mape > 0.08 ? '  <-- MAPE' : ''}`,
    );
}
