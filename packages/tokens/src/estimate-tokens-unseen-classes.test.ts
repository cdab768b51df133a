import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenCounter, estimateTokens } from './index.js';
import { classErrors } from './test-utils/heuristic-evaluation.ts';
import { type UnseenClass, unseenClasses, unseenSamples } from './test-utils/unseen-class-texts.ts';

// Attack: shapes neither the fit nor the earlier hostile classes drew (dictionary words of many
// languages run together, URL slugs, identifiers with digits, escaped and percent-encoded text, a
// word repeated behind separators, log lines, stack traces, SQL, hex dumps, JWTs, markdown tables,
// diffs, shell lines, CSS, keys of other alphabets), words drawn from the system's catalogues at
// run time. Undercounting is the dangerous direction for compaction. The seed is the run's property
// seed (BATON_PROPERTY_SEED=random draws a fresh one; HEURISTIC_SEED replays a printed one).
const seed = Number(
  process.env.HEURISTIC_SEED ??
    fc.sample(fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 })), 1)[0],
);
const exact = createTokenCounter({ encoding: 'o200k_base' });
const samples = unseenSamples(seed, 100);
const estimate = (text: string) => estimateTokens(text);
const count = (text: string) => exact.count(text);
const report = classErrors(samples, estimate, count);
const describeReport = () =>
  `seed ${seed}: ${[...report]
    .map(
      ([name, { mape, bias }]) => `${name} ${(mape * 100).toFixed(1)}%/${(bias * 100).toFixed(1)}%`,
    )
    .join(', ')}`;

// Per class: the lowest aggregate bias and the highest per-text MAPE a fresh seed may give, the mean
// over 20 seeds at 100 texts a class (bench/evaluate-heuristic-unseen.ts 20) less or plus 4 standard
// deviations of the per-seed figure (at least 4 x 0.5 points: 20 seeds estimate a spread loosely).
// No bias bound is below the target of -10 % or above 0 (an overcount falling towards the exact
// count is no regression).
const bounds: Record<UnseenClass, { bias: number; mape: number }> = {
  'concatenated-words': { bias: -0.04, mape: 0.114 },
  'spaced-words': { bias: -0.022, mape: 0.08 },
  'url-slugs': { bias: -0.088, mape: 0.099 },
  'identifiers-with-digits': { bias: -0.026, mape: 0.067 },
  'word-repeated-separated': { bias: -0.066, mape: 0.201 },
  // Re-measured over 12 seeds once `%NN`, `\xNN` and `&#...;` stretches were priced by their pieces
  // (bias -3.9 % sd 0.3, MAPE 5.5 % sd 0.8; escaped text -0.8 % sd 0.2, 2.6 % sd 0.4): the words
  // left after `+`, `=`, `?` are now an undercount, no longer hidden by the escapes' overcount.
  'percent-encoded': { bias: -0.059, mape: 0.087 },
  'escaped-text': { bias: -0.028, mape: 0.046 },
  'log-lines-structured': { bias: -0.039, mape: 0.048 },
  'stack-traces-mixed': { bias: -0.043, mape: 0.084 },
  'sql-statements': { bias: -0.024, mape: 0.057 },
  'hex-dumps': { bias: 0, mape: 0.059 },
  jwts: { bias: 0, mape: 0.065 },
  'markdown-tables-mixed': { bias: -0.048, mape: 0.115 },
  'diff-hunks': { bias: -0.023, mape: 0.051 },
  'shell-lines': { bias: -0.036, mape: 0.057 },
  'css-rules': { bias: 0, mape: 0.075 },
  'words-digits-punctuation': { bias: -0.018, mape: 0.067 },
  'keys-other-alphabets': { bias: 0, mape: 0.092 },
};

describe(`estimateTokens on classes no fit or earlier test drew (seed ${seed})`, () => {
  afterAll(() => exact.dispose());

  it('premise: every class is drawn, 20-2,000 characters, in the shapes it names', () => {
    for (const name of unseenClasses) expect(report.has(name), name).toBe(true);
    for (const sample of samples) {
      expect(sample.text.length).toBeGreaterThanOrEqual(20);
      expect(sample.text.length).toBeLessThanOrEqual(2000);
    }
    const share = (name: UnseenClass, shape: RegExp) => {
      const texts = samples.filter((sample) => sample.class === name);
      return texts.filter((sample) => shape.test(sample.text)).length / texts.length;
    };
    // Shares measured on five seeds, less a margin (100 texts a class): words glued to digits, the
    // shape the fix prices (0.92-0.95); letter runs longer than most words, words run together
    // (0.96-0.99); percent escapes (0.93-0.99); whole tokens of three segments, which texts cut
    // short lose (0.52-0.58).
    expect(share('identifiers-with-digits', /\p{L}{4,}\d|\d\p{L}{4,}/u)).toBeGreaterThan(0.8);
    expect(share('concatenated-words', /\p{L}{16,}/u)).toBeGreaterThan(0.85);
    expect(share('percent-encoded', /%[0-9A-Fa-f]{2}/)).toBeGreaterThan(0.8);
    expect(share('jwts', /[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/)).toBeGreaterThan(0.3);
  });

  it('undercounts no class beyond its measured bound (never beyond -10 %), 20-2,000 characters', () => {
    for (const [name, { bias }] of report)
      expect(bias, `${name}; ${describeReport()}`).toBeGreaterThanOrEqual(bounds[name].bias);
  });

  it('keeps every class within its measured per-text MAPE bound', () => {
    for (const [name, { mape }] of report)
      expect(mape, `${name}; ${describeReport()}`).toBeLessThanOrEqual(bounds[name].mape);
  });

  it('control: the same word groups with spaces between the words stay within 10 %', () => {
    // Word pieces after a space keep their pricing; only pieces o200k merges without one (a text's
    // first word, a camelCase hump, a word after a digit, a run longer than a word) changed.
    const { bias, mape } = report.get('spaced-words')!;
    expect(bias, describeReport()).toBeGreaterThanOrEqual(-0.1);
    expect(bias, describeReport()).toBeLessThanOrEqual(0.1);
    expect(mape, describeReport()).toBeLessThanOrEqual(bounds['spaced-words'].mape);
  });
});
