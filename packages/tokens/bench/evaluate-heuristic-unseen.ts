// Per-class aggregate bias and per-text MAPE of this build's estimateTokens (and of BENCH_BASE's
// beside it, when given) against exact o200k, on the classes of src/test-utils/unseen-class-texts.ts
// and, with `all`, the hostile, held-out and synthetic classes too; worst and mean over seeds, with
// the spread of the per-seed aggregate bias (what a test bound of rate + 4 sigma needs).
// Run after `pnpm build`:
//   node bench/evaluate-heuristic-unseen.ts [seeds] [first seed] [per class] [all] [min] [max]
import { createTokenCounter, estimateTokens as thisEstimate } from '../dist/index.js';
import { classErrors } from '../src/test-utils/heuristic-evaluation.ts';
import { holdoutSamples } from '../src/test-utils/holdout-class-texts.ts';
import { hostileSamples } from '../src/test-utils/hostile-class-texts.ts';
import { syntheticSamples } from '../src/test-utils/synthetic-texts.ts';
import { unseenSamples } from '../src/test-utils/unseen-class-texts.ts';
import { loadBaseBuild } from './bench-helpers.ts';

const base = (await loadBaseBuild())?.estimateTokens;
const exact = createTokenCounter({ encoding: 'o200k_base' });
const seeds = Number(process.argv[2] ?? 3);
const firstSeed = Number(process.argv[3] ?? Math.floor(Math.random() * 2 ** 31));
const perClass = Number(process.argv[4] ?? 150);
const all = process.argv[5] === 'all';
const min = Number(process.argv[6] ?? 20);
const max = Number(process.argv[7] ?? 2000);
type Stats = { bias: number[]; mape: number[] };
const builds = { this: (text: string) => thisEstimate(text), ...(base ? { base } : {}) };
const stats = new Map<string, Record<string, Stats>>();
for (let s = 0; s < seeds; s++) {
  const seed = firstSeed + s * 7919;
  const samples: Array<{ text: string; class: string }> = [
    ...unseenSamples(seed, perClass, min, max),
    ...(all
      ? [
          ...hostileSamples(seed, perClass, min, max),
          ...holdoutSamples(seed, perClass),
          ...syntheticSamples(seed, perClass),
        ]
      : []),
  ];
  const counts = new Map(samples.map((sample) => [sample.text, exact.count(sample.text)]));
  for (const [build, estimate] of Object.entries(builds)) {
    const report = classErrors(samples, estimate, (text) => counts.get(text)!);
    for (const [name, { bias, mape }] of report) {
      const entry = stats.get(name) ?? {};
      entry[build] ??= { bias: [], mape: [] };
      entry[build].bias.push(bias);
      entry[build].mape.push(mape);
      stats.set(name, entry);
    }
  }
}
const pct = (value: number, width = 6) => (value * 100).toFixed(1).padStart(width);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const deviation = (values: number[]) => {
  const m = mean(values);
  return Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, values.length - 1));
};
console.log(
  `${seeds} seeds from ${firstSeed}, ${perClass} per class, ${min}-${max} chars; bias = aggregate estimated/exact - 1 (mean, min, sd over seeds); MAPE mean, max and sd`,
);
for (const [name, entry] of stats) {
  const columns = Object.entries(entry).map(
    ([build, { bias, mape }]) =>
      `${build} bias ${pct(mean(bias))} min ${pct(Math.min(...bias))} sd ${pct(deviation(bias), 4)}  MAPE ${pct(mean(mape), 5)} max ${pct(Math.max(...mape), 5)} sd ${pct(deviation(mape), 4)}`,
  );
  const flag =
    Math.min(...entry.this!.bias) < -0.1
      ? ' <-- undercount'
      : Math.max(...entry.this!.mape) > 0.08
        ? ' <-- MAPE'
        : '';
  console.log(`${name.padEnd(26)} ${columns.join('  |  ')}${flag}`);
}
exact.dispose();
