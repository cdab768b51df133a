// Random Cyrillic letters with capitals inside their runs (and lower-case control texts), priced by
// this build (and BENCH_BASE's beside it) against exact o200k: aggregate bias and per-text MAPE,
// mean and sd over seeds (what the bounds of estimate-tokens-cyrillic-capitals.test.ts need).
// Run after `pnpm build`: node bench/evaluate-heuristic-cyrillic-capitals.ts [seeds] [first seed] [texts]
import { createTokenCounter, estimateTokens as thisEstimate } from '../dist/index.js';
import { cyrillicCapitalTexts } from '../src/test-utils/cyrillic-capital-texts.ts';
import { textErrors } from '../src/test-utils/heuristic-evaluation.ts';
import { loadBaseBuild } from './bench-helpers.ts';

const base = (await loadBaseBuild())?.estimateTokens;
const exact = createTokenCounter({ encoding: 'o200k_base' });
const seeds = Number(process.argv[2] ?? 12);
const firstSeed = Number(process.argv[3] ?? Math.floor(Math.random() * 2 ** 31));
const count = Number(process.argv[4] ?? 150);
const builds = { this: (text: string) => thisEstimate(text), ...(base ? { base } : {}) };
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const deviation = (values: number[]) => {
  const m = mean(values);
  return Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, values.length - 1));
};
const pct = (value: number) => (value * 100).toFixed(2).padStart(6);
console.log(`${seeds} seeds from ${firstSeed}, ${count} texts each`);
for (const control of [false, true]) {
  for (const [build, estimate] of Object.entries(builds)) {
    const bias: number[] = [];
    const mape: number[] = [];
    for (let s = 0; s < seeds; s++) {
      const texts = cyrillicCapitalTexts(firstSeed + s * 7919, count, control);
      const errors = textErrors(texts, estimate, (text) => exact.count(text));
      bias.push(errors.bias);
      mape.push(errors.mape);
    }
    console.log(
      `${control ? 'control ' : 'capitals'} ${build.padEnd(4)} bias ${pct(mean(bias))} sd ${pct(deviation(bias))} min ${pct(Math.min(...bias))} max ${pct(Math.max(...bias))}  MAPE ${pct(mean(mape))} sd ${pct(deviation(mape))} max ${pct(Math.max(...mape))}`,
    );
  }
}
exact.dispose();
