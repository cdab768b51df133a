import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenCounter, estimateTokens } from './index.js';
import { classErrors } from './test-utils/heuristic-evaluation.ts';
import { holdoutSamples } from './test-utils/holdout-class-texts.ts';
import {
  type HostileClass,
  hostileClasses,
  hostileSamples,
  scriptBlocks,
} from './test-utils/hostile-class-texts.ts';

// Attack: text the fit never saw and real text seldom has (random letters of every script block the
// heuristic knows, a word trailed by random letters, mixed-script names, runs of random punctuation,
// one character or one word repeated, numbers with separators, URL-encoded and \u-escaped strings,
// rule lines). The weighted features priced such pieces as merged where o200k's vocabulary cannot
// merge them: random Greek at 0.58 of the exact count, Hangul 0.26, Armenian, Georgian, Arabic and
// Devanagari 0.36-0.38, random punctuation 0.15, a word and a random rest 0.5. Undercounting is the
// dangerous direction: compaction then starts too late. The seed is the run's property seed
// (BATON_PROPERTY_SEED=random draws a fresh one; HEURISTIC_SEED replays a printed one).
const seed = Number(
  process.env.HEURISTIC_SEED ??
    fc.sample(fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 })), 1)[0],
);
const exact = createTokenCounter({ encoding: 'o200k_base' });
const short = hostileSamples(seed, 150);
const long = hostileSamples(seed + 1, 2, 10_000, 100_000);
const estimate = (text: string) => estimateTokens(text);
const count = (text: string) => exact.count(text);
const shortReport = classErrors(short, estimate, count);
const longReport = classErrors(long, estimate, count);
const describeReport = (report: ReadonlyMap<string, { mape: number; bias: number }>) =>
  `seed ${seed}: ${[...report]
    .map(
      ([name, { mape, bias }]) => `${name} ${(mape * 100).toFixed(1)}%/${(bias * 100).toFixed(1)}%`,
    )
    .join(', ')}`;

// Classes whose per-text error is held too: a margin over the worst of 20 seeds when written
// (random letters of every block 1.9-7.6 %, a word and a random rest 7.5 %, mixed-script names
// 7.9 %, punctuation runs 2.9 %; aggregate bias no lower than -8.7 %, random Hebrew at 10,000+
// characters; \u-escaped strings 1.8-2.0 % over 3 seeds, +22 % in aggregate before their escapes
// were priced by their pieces; URL-encoded text of every script 0.8-1.0 % over 3 seeds, 17 % and
// +16 % in aggregate before its `%NN` escapes were priced by their pieces). Random Cyrillic is
// overcounted (+12 %): the safe direction, left open.
const mapeHeld = (name: HostileClass) =>
  (name.startsWith('random-') && name !== 'random-cyrillic') ||
  name === 'word-random-rest' ||
  name === 'mixed-script-identifiers' ||
  name === 'punctuation-runs' ||
  name === 'escaped-unicode-json' ||
  name === 'url-encoded' ||
  // One word repeated: 80 % per-text error when priced as one long word (7 % worst of 3 seeds now).
  name === 'word-repeated';

describe(`estimateTokens on hostile classes (seed ${seed})`, () => {
  afterAll(() => exact.dispose());

  it('premise: each class is drawn at both lengths, of the letters it names', () => {
    for (const name of hostileClasses) {
      expect(shortReport.has(name), name).toBe(true);
      expect(longReport.has(name), name).toBe(true);
    }
    for (const sample of short) {
      expect(sample.text.length).toBeGreaterThanOrEqual(20);
      expect(sample.text.length).toBeLessThanOrEqual(2000);
    }
    for (const sample of long) expect(sample.text.length).toBeGreaterThanOrEqual(10_000);
    for (const sample of short.filter((s) => s.class.startsWith('random-'))) {
      const letters = new Set<string>(
        scriptBlocks[sample.class.slice(7) as keyof typeof scriptBlocks],
      );
      const others = [...sample.text].filter((c) => c !== ' ' && !letters.has(c));
      expect(others, sample.class).toEqual([]);
    }
  });

  // One unit repeated without whitespace (a word, random letters of any script, punctuation, mixed;
  // alone or inside a longer piece) was priced as one long word: `the` 2,000 times at 0.50 of the
  // exact count, `and` 0.61, `мир` 0.38, while `information` was 4.6x, so the word-repeated class
  // swung from -43 % to +41 % by the words drawn. Now priced by copies of the unit (periodic-runs.ts).
  it('undercounts no class by more than 10 % in aggregate, 20-2,000 characters', () => {
    for (const [name, { bias }] of shortReport)
      expect(bias, `${name}; ${describeReport(shortReport)}`).toBeGreaterThanOrEqual(-0.1);
  });

  // Left open at 10,000+ characters for the repeated classes: two texts a class, and a copy is priced
  // by the unit's estimate after a space, where 5 of the 142 listed words are one token but two or
  // three bare (`these`, `understanding`): one such text drawn long swung the aggregate to -39 % in 1
  // seed of 20. The 150 short texts a class average it out.
  it('undercounts no class by more than 10 % in aggregate, 10,000-100,000 characters', () => {
    for (const [name, { bias }] of longReport)
      if (name !== 'word-repeated' && name !== 'unit-repeated')
        expect(bias, `${name}; ${describeReport(longReport)}`).toBeGreaterThanOrEqual(-0.1);
  });

  it('premise: the repeated classes hold a unit of 2-16 characters repeated in a row', () => {
    // Cut to length, a short text may keep fewer than two copies (23 characters of
    // `understanding`): held from 100 characters, where most must keep three.
    const twice = /(\S{2,16}?)\1/u;
    const thrice = /(\S{2,16}?)\1\1/u;
    const repeated = [...short, ...long].filter(
      (s) => (s.class === 'word-repeated' || s.class === 'unit-repeated') && s.text.length >= 100,
    );
    for (const sample of repeated) expect(twice.test(sample.text), sample.text).toBe(true);
    const three = repeated.filter((s) => thrice.test(s.text)).length;
    expect(three / repeated.length).toBeGreaterThan(0.8);
  });

  it('keeps per-text MAPE at or under 10 % on the classes it prices closely', () => {
    for (const [name, { mape }] of shortReport)
      if (mapeHeld(name))
        expect(mape, `${name}; ${describeReport(shortReport)}`).toBeLessThanOrEqual(0.1);
  });

  it('control: real text of the same scripts is not lifted into an overcount', () => {
    // Words of real languages in these scripts: the vocabulary holds their letters together, so the
    // floor stays under the fitted estimate (short Greek, Hebrew, Georgian, Indic, Thai, Korean,
    // CJK and Cyrillic UI strings from the system's catalogues; classes it has none of are absent).
    const names = [
      'short-greek',
      'short-hebrew',
      'short-georgian',
      'short-indic',
      'short-thai',
      'short-korean',
      'short-cjk',
      'short-cyrillic',
    ] as const;
    const report = classErrors(holdoutSamples(seed, 150, [...names]), estimate, count);
    for (const [name, { bias, mape }] of report) {
      expect(bias, `${name}; ${describeReport(report)}`).toBeLessThanOrEqual(0.06);
      expect(mape, `${name}; ${describeReport(report)}`).toBeLessThanOrEqual(0.1);
    }
  });
});
