import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenCounter, estimateTokens } from './index.js';
import { periodicRuns } from './periodic-runs.js';
import { isPunctuationSeam } from './punctuation-seam.js';
import { furtherCopyErrors, repeatedUnits } from './test-utils/punctuation-seam-units.ts';

// Attack: a unit repeated without spaces whose copies meet in one punctuation run (`&#123;&`,
// `"k1",`, `[x];`). Priced as copies of the unit alone, the run at each seam was priced as two
// short runs, where BPE cuts the joined run into more tokens: `&#123;&` 2,000 times read 0.75 of
// exact, and random such units' further copies 3 % low in aggregate, a third of them over a tenth
// low. The seed is the run's property seed (HEURISTIC_SEED replays a printed one).
const seed = Number(
  process.env.HEURISTIC_SEED ??
    fc.sample(fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 })), 1)[0],
);
const exact = createTokenCounter({ encoding: 'o200k_base' });
afterAll(() => exact.dispose());
const estimate = (text: string) => estimateTokens(text);
const count = (text: string) => exact.count(text);

describe(`estimateTokens on copies that meet in a punctuation run (seed ${seed})`, () => {
  it('further copies within bounds of exact', () => {
    // 3,000 units: at 600 the aggregate wandered past mean - 4 sd about once in 400 seeds (a few
    // units with large errors dominate it), and CI drew such a seed.
    const units = repeatedUnits(seed, 3000);
    // Premise: the run of each unit is found and read as meeting in punctuation.
    let seams = 0;
    for (const { unit, copies } of units) {
      const text = unit.repeat(copies);
      const runs = periodicRuns(text);
      if (runs !== null && isPunctuationSeam(text, runs[0]!, runs[2]!)) seams++;
    }
    expect(seams / units.length).toBeGreaterThanOrEqual(0.9);
    const { bias, lowRate } = furtherCopyErrors(units, estimate, count);
    // Measured over 150 seeds (bench/evaluate-heuristic-seams.ts 150 90000 3000): bias -0.69 %
    // mean (sd 0.30, least -1.45), 27.1 % of units more than a tenth low (sd 0.77, most 29.3);
    // the build before seams were priced: -2.97 % and 34.2 % (sd 0.38 and 1.1 at 600 units).
    // Bounds are mean -/+ 5 sd.
    expect(bias).toBeGreaterThanOrEqual(-0.022);
    expect(bias).toBeLessThanOrEqual(0.015);
    expect(lowRate).toBeLessThanOrEqual(0.31);
  });

  it('`&#123;&` and its kind repeated at exact', () => {
    for (const code of [1, 39, 123, 4567, 65_535]) {
      const text = `&#${code};&`.repeat(500);
      expect(estimate(text) / count(text)).toBeGreaterThanOrEqual(0.97);
      expect(estimate(text) / count(text)).toBeLessThanOrEqual(1.03);
    }
  });

  it('control: copies that meet in a letter or number piece are priced as before', () => {
    const units = repeatedUnits(seed, 600, true);
    for (const { unit, copies } of units) {
      const text = unit.repeat(copies);
      const runs = periodicRuns(text);
      if (runs !== null) expect(isPunctuationSeam(text, runs[0]!, runs[2]!)).toBe(false);
    }
    const { bias, lowRate } = furtherCopyErrors(units, estimate, count);
    // Measured over 12 seeds, the same in the start build: bias -4.20 % (sd 0.95), 29.7 % more
    // than a tenth low (sd 2.1). Bounds are mean -/+ 4 sd.
    expect(bias).toBeGreaterThanOrEqual(-0.08);
    expect(bias).toBeLessThanOrEqual(-0.004);
    expect(lowRate).toBeLessThanOrEqual(0.38);
  });

  it('only a unit that opens and closes with punctuation around letters or a number', () => {
    const punctuation = fc.constantFrom(...'!"#$%&\'()*+,-./:;<=>?@[]^_`{|}~…«»');
    const inner = fc.constantFrom('a', 'Z', '7', 'я', '日', 'é');
    fc.assert(
      fc.property(
        fc.noBias(fc.array(punctuation, { minLength: 1, maxLength: 3 })),
        fc.noBias(fc.array(fc.oneof(punctuation, inner), { minLength: 0, maxLength: 6 })),
        fc.noBias(fc.array(punctuation, { minLength: 1, maxLength: 3 })),
        inner,
        (open, middle, close, letter) => {
          const unit = open.join('') + middle.join('') + close.join('');
          const holds = /[^\p{P}\p{S}]/u.test(middle.join(''));
          expect(isPunctuationSeam(unit, 0, unit.length)).toBe(holds);
          // Control: opening or closing with a letter or number, or punctuation only, is no seam.
          expect(isPunctuationSeam(letter + unit, 0, unit.length + 1)).toBe(false);
          expect(isPunctuationSeam(unit + letter, 0, unit.length + 1)).toBe(false);
          const only = open.join('') + close.join('');
          expect(isPunctuationSeam(only, 0, only.length)).toBe(false);
        },
      ),
    );
  });
});
