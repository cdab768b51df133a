// Further copies of units whose copies meet in a punctuation run (and of control units that open
// with letters or a number), priced by this build (and BENCH_BASE's beside it) against exact o200k:
// aggregate bias and the share priced more than a tenth low, mean and sd over seeds (what the
// bounds of estimate-tokens-punctuation-seams.test.ts need).
// Run after `pnpm build`: node bench/evaluate-heuristic-seams.ts [seeds] [first seed] [units]
import { createTokenCounter, estimateTokens as thisEstimate } from '../dist/index.js';
import { furtherCopyErrors, repeatedUnits } from '../src/test-utils/punctuation-seam-units.ts';
import { loadBaseBuild } from './bench-helpers.ts';

const base = (await loadBaseBuild())?.estimateTokens;
const exact = createTokenCounter({ encoding: 'o200k_base' });
const seeds = Number(process.argv[2] ?? 12);
const firstSeed = Number(process.argv[3] ?? Math.floor(Math.random() * 2 ** 31));
const count = Number(process.argv[4] ?? 600);
const builds = { this: (text: string) => thisEstimate(text), ...(base ? { base } : {}) };
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const deviation = (values: number[]) => {
  const m = mean(values);
  return Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, values.length - 1));
};
const pct = (value: number) => (value * 100).toFixed(2).padStart(6);
console.log(`${seeds} seeds from ${firstSeed}, ${count} units each`);
for (const control of [false, true]) {
  for (const [build, estimate] of Object.entries(builds)) {
    const bias: number[] = [];
    const low: number[] = [];
    for (let s = 0; s < seeds; s++) {
      const units = repeatedUnits(firstSeed + s * 7919, count, control);
      const errors = furtherCopyErrors(units, estimate, (text) => exact.count(text));
      bias.push(errors.bias);
      low.push(errors.lowRate);
    }
    console.log(
      `${control ? 'control' : 'seam   '} ${build.padEnd(4)} bias ${pct(mean(bias))} sd ${pct(deviation(bias))} min ${pct(Math.min(...bias))}  low ${pct(mean(low))} sd ${pct(deviation(low))} max ${pct(Math.max(...low))}`,
    );
  }
}
exact.dispose();
