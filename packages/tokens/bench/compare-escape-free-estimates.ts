// Whether this build's estimateTokens gives text without a `\uXXXX` escape exactly the estimate the
// build in BENCH_BASE gives (the escape pricing of src/unicode-escapes.ts must touch nothing else):
// fast-check strings of every kind, near-escapes (`\u04`, `\\u`, `\uzz`), and the texts of every
// generated class, for o200k and cl100k. Run after `pnpm build`, against the start's dist:
//   BENCH_BASE=<start dist> node bench/compare-escape-free-estimates.ts [runs] [seed]
import fc from 'fast-check';
import { estimateTokens } from '../dist/index.js';
import { holdoutSamples } from '../src/test-utils/holdout-class-texts.ts';
import { hostileSamples } from '../src/test-utils/hostile-class-texts.ts';
import { syntheticSamples } from '../src/test-utils/synthetic-texts.ts';
import { unseenSamples } from '../src/test-utils/unseen-class-texts.ts';
import { loadBaseBuild } from './bench-helpers.ts';

const base = (await loadBaseBuild())?.estimateTokens;
if (!base) throw new Error('set BENCH_BASE to the dist of the build to compare with');
const runs = Number(process.argv[2] ?? 20_000);
const seed = Number(process.argv[3] ?? Math.floor(Math.random() * 2 ** 31));
const hasEscape = (text: string) => /\\u[0-9a-fA-F]{4}/.test(text);
const encodings = ['o200k_base', 'cl100k_base'] as const;
let compared = 0;
let escaped = 0;
const check = (text: string) => {
  if (hasEscape(text)) {
    escaped++;
    return true;
  }
  compared++;
  return encodings.every(
    (encoding) => estimateTokens(text, { encoding }) === base(text, { encoding }),
  );
};
const near = fc
  .array(
    fc.oneof(
      fc.constantFrom('\\', 'u', '\\u', '\\\\u', '"', ' ', '0', '4', 'e', 'F', 'я', '\n', '\t'),
      fc.stringMatching(/^\\u[0-9a-fA-F]{0,3}[g-z" ]?$/),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));
const kinds = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc.string({ unit: 'grapheme', maxLength: 400 }),
  fc.json(),
  fc.lorem({ maxCount: 60 }),
  near,
);
fc.assert(
  fc.property(fc.noBias(kinds), (text) => check(text)),
  { numRuns: runs, seed },
);
for (let s = 0; s < 3; s++) {
  const classSeed = seed + s * 7919;
  for (const sample of [
    ...unseenSamples(classSeed, 100, 20, 2000),
    ...hostileSamples(classSeed, 100, 20, 2000),
    ...hostileSamples(classSeed, 2, 10_000, 100_000),
    ...holdoutSamples(classSeed, 100),
    ...syntheticSamples(classSeed, 100),
  ])
    if (!check(sample.text)) throw new Error(`estimate changed on a ${sample.class} text`);
}
console.log(
  `seed ${seed}: ${compared} texts without an escape estimated identically (o200k and cl100k); ${escaped} with escapes skipped`,
);
