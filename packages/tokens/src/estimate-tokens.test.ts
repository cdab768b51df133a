import { createRequire } from 'node:module';
import { corpusSkipReason } from '@baton/test-corpus';
import fc from 'fast-check';
import { estimateTokenCount } from 'tokenx';
import { describe, expect, it } from 'vitest';
import { estimateTokens, InvalidInputError } from './index.js';
import { categories } from './test-utils/corpus-texts.ts';
import {
  classErrors,
  countedSamples,
  meanAbsolutePercentageError,
} from './test-utils/heuristic-evaluation.ts';
import {
  languageSamples,
  languageStrings,
  missingClasses,
  seededRandom,
  syntheticSamples,
} from './test-utils/synthetic-texts.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');

describe('estimateTokens', () => {
  it('does not undercount long whitespace runs (the dangerous direction for compaction)', () => {
    const encoders = {
      o200k_base: tiktoken.get_encoding('o200k_base'),
      cl100k_base: tiktoken.get_encoding('cl100k_base'),
    };
    fc.assert(
      fc.property(
        fc.constantFrom(' ', '\n', '\t', '\r\n', 'x\n\n\n', 'word\n\n', '  \n'),
        fc.integer({ min: 200, max: 3000 }),
        fc.constantFrom('o200k_base' as const, 'cl100k_base' as const),
        (unit, repeats, encoding) => {
          const text = `${unit.repeat(repeats)}a`;
          const exact = encoders[encoding].encode_ordinary(text).length;
          expect(estimateTokens(text, { encoding }) / exact).toBeGreaterThanOrEqual(0.75);
        },
      ),
      { numRuns: Number(process.env.WHITESPACE_RUNS ?? 40) },
    );
    // 20,001 spaces and a letter: 158 tokens exact (o200k); it used to be estimated as 1.
    const spaces = `${' '.repeat(20_001)}a`;
    const exact = encoders.o200k_base.encode_ordinary(spaces).length;
    expect(estimateTokens(spaces) / exact).toBeGreaterThanOrEqual(0.9);
  });

  it('throws InvalidInputError naming bad options', () => {
    for (const options of [null, 5, 'o200k_base']) {
      try {
        estimateTokens('x', options as never);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidInputError);
        expect((error as InvalidInputError).path).toBe('options');
      }
    }
    expect(() => estimateTokens('', null as never)).toThrow(InvalidInputError);
  });

  it('is zero for empty text and positive for any other text', () => {
    expect(estimateTokens('')).toBe(0);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 50 }), (text) => {
        expect(estimateTokens(text)).toBeGreaterThan(0);
        expect(Number.isInteger(estimateTokens(text, { encoding: 'cl100k_base' }))).toBe(true);
      }),
    );
  });

  it('grows with the text', () => {
    const line = 'const value = computeSomething(input, 42);\n';
    expect(estimateTokens(line.repeat(10))).toBeGreaterThan(estimateTokens(line.repeat(5)));
  });

  it('charges CJK by character, not by bytes or chars/4', () => {
    const japanese = '東京都は日本の首都であり、世界最大級の都市圏を形成している。';
    expect(estimateTokens(japanese)).toBeGreaterThan(japanese.length / 4);
    // cl100k splits CJK into more tokens than o200k.
    expect(estimateTokens(japanese, { encoding: 'cl100k_base' })).toBeGreaterThan(
      estimateTokens(japanese),
    );
  });

  it('rejects non-string text', () => {
    expect(() => estimateTokens(undefined as unknown as string)).toThrowError(InvalidInputError);
    expect(() => estimateTokens({} as unknown as string)).toThrow(/text: expected a string/);
    expect(() => estimateTokens('hi', { encoding: 'gpt2' as never })).toThrow(/options.encoding/);
  });
});

describe.skipIf(corpusSkipReason !== undefined)(
  `estimateTokens on held-out real text (${corpusSkipReason ?? 'corpus present'})`,
  () => {
    const heldOut = countedSamples().filter((sample) => sample.heldOut);

    it('has samples in every category', () => {
      const report = meanAbsolutePercentageError(heldOut, (text) => estimateTokens(text));
      for (const category of categories)
        expect(report.byCategory[category].samples, category).toBeGreaterThan(30);
    });

    it('meets the o200k targets: <= 7 % overall, <= 8 % per category, better than chars/4 and tokenx', () => {
      const ours = meanAbsolutePercentageError(heldOut, (text) => estimateTokens(text));
      const quarter = meanAbsolutePercentageError(heldOut, (text) => Math.ceil(text.length / 4));
      const tokenx = meanAbsolutePercentageError(heldOut, (text) => estimateTokenCount(text));
      expect(ours.overall).toBeLessThanOrEqual(0.07);
      for (const category of categories) {
        const mape = ours.byCategory[category].mape;
        expect(mape, category).toBeLessThanOrEqual(0.08);
        expect(mape, `${category} vs chars/4`).toBeLessThan(quarter.byCategory[category].mape);
        expect(mape, `${category} vs tokenx`).toBeLessThan(tokenx.byCategory[category].mape);
      }
    });

    it('tracks cl100k with its own weights (<= 12 % per category)', () => {
      const ours = meanAbsolutePercentageError(
        heldOut,
        (text) => estimateTokens(text, { encoding: 'cl100k_base' }),
        'cl100k',
      );
      const o200kWeights = meanAbsolutePercentageError(
        heldOut,
        (text) => estimateTokens(text),
        'cl100k',
      );
      expect(ours.overall).toBeLessThan(o200kWeights.overall);
      for (const category of categories)
        expect(ours.byCategory[category].mape, category).toBeLessThanOrEqual(0.12);
    });
  },
);

describe('estimateTokens on the evaluation seed (the benchmark table; the fit uses another seed)', () => {
  // Fixed, so that these bounds are the issue's targets and fail when a re-fit regresses: per-text
  // MAPE <= 8 % in every class. Texts are in one language each: Russian and Serbian mixed in one
  // text hid a 14 % overcount of Russian and an 8 % undercount of Serbian.
  const seed = 2026;
  const o200k = tiktoken.get_encoding('o200k_base');
  const report = classErrors(
    syntheticSamples(seed, 300),
    (text) => estimateTokens(text),
    (text) => o200k.encode_ordinary(text).length,
  );

  it('per-text MAPE <= 8 % in every class, no aggregate undercount beyond 10 %', () => {
    if (missingClasses().length > 0) return;
    expect(report.size).toBeGreaterThanOrEqual(13);
    for (const [name, { mape, bias }] of report) {
      expect(mape, name).toBeLessThanOrEqual(0.08);
      expect(bias, name).toBeGreaterThanOrEqual(-0.1);
    }
  });
});

describe('estimateTokens on generated text it was not fitted on', () => {
  // A fresh seed per run (the fit uses its own fixed seed); printed so a failure can be replayed.
  const seed = Number(process.env.HEURISTIC_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const perClass = Number(process.env.HEURISTIC_SAMPLES ?? 300);
  const o200k = tiktoken.get_encoding('o200k_base');
  const samples = syntheticSamples(seed, perClass);
  const missing = missingClasses();
  if (missing.length > 0)
    console.warn(`no gettext catalogues for ${missing.join(', ')}: those classes are skipped`);

  const report = classErrors(
    samples,
    (text) => estimateTokens(text),
    (text) => o200k.encode_ordinary(text).length,
  );
  const describeReport = () =>
    `seed ${seed}: ${[...report]
      .map(
        ([name, r]) =>
          `${name} MAPE ${(r.mape * 100).toFixed(1)} % bias ${(r.bias * 100).toFixed(1)} %`,
      )
      .join('; ')}`;

  it('generates 20–2,000-character texts of every class it has a source for', () => {
    for (const sample of samples) {
      expect(sample.text.length).toBeGreaterThanOrEqual(20);
      expect(sample.text.length).toBeLessThanOrEqual(2000);
    }
    for (const name of ['base64', 'hex', 'uuid', 'emoji'] as const)
      expect(report.has(name)).toBe(true);
  });

  it('undercounts no class by more than 10 % in aggregate', () => {
    for (const [name, { bias }] of report)
      expect(bias, `${name}; ${describeReport()}`).toBeGreaterThanOrEqual(-0.1);
  });

  it('beats chars/4 in every class; per-text MAPE <= 8 % on UUIDs and emoji, <= 20 % on every class', () => {
    for (const [name, { mape, quarter }] of report) {
      expect(mape, `${name}; ${describeReport()}`).toBeLessThan(quarter);
      expect(mape, `${name}; ${describeReport()}`).toBeLessThanOrEqual(0.2);
    }
    for (const name of ['uuid', 'emoji'] as const)
      expect(report.get(name)!.mape, describeReport()).toBeLessThanOrEqual(0.08);
  });
});

describe('estimateTokens per language (one language per text, fresh seed)', () => {
  // A tokenizer's vocabulary favours some languages of a script over others (o200k holds many whole
  // Russian words, few Serbian ones; Traditional Chinese costs more than Simplified): each language
  // is held to its own aggregate bias, so no single language hides behind its script's average.
  const seed = Number(process.env.HEURISTIC_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const o200k = tiktoken.get_encoding('o200k_base');
  const samples = languageSamples(seed, 200);

  it(`keeps every language's aggregate bias within -8 % / +10 % and per-text MAPE <= 12 % (seed ${seed})`, () => {
    if (samples.length === 0) return;
    const byLanguage = new Map<
      string,
      { exact: number; estimate: number; error: number; n: number }
    >();
    for (const { language, text } of samples) {
      const exact = o200k.encode_ordinary(text).length;
      const estimate = estimateTokens(text);
      const entry = byLanguage.get(language) ?? { exact: 0, estimate: 0, error: 0, n: 0 };
      entry.exact += exact;
      entry.estimate += estimate;
      entry.error += Math.abs(estimate - exact) / exact;
      entry.n++;
      byLanguage.set(language, entry);
    }
    for (const [language, { exact, estimate, error, n }] of byLanguage) {
      expect(estimate / exact - 1, `${language} bias`).toBeGreaterThanOrEqual(-0.08);
      expect(estimate / exact - 1, `${language} bias`).toBeLessThanOrEqual(0.1);
      expect(error / n, `${language} MAPE`).toBeLessThanOrEqual(0.12);
    }
  });

  it('does not price as Russian the languages that share its letters ы and э (aggregate >= -10 %)', () => {
    // Mongolian, Kyrgyz, Tatar, Kazakh and Belarusian write ы or э; Mongolian (ө, ү) and Tatar (ә, җ)
    // have no Ukrainian or Serbian letter either, so they were charged at Russian rates: -26 % and
    // -20 % aggregate. Priced as other Cyrillic they are at -3.4 % and -7.3 % (eight seeds); the fit
    // draws them (its own seed) at 0.3 of a generated class's weight, and they are held to -10 %, in
    // the dangerous direction only (Kyrgyz is overcounted by about 11 %).
    const others = languageSamples(seed, 200, ['cyrillic-with-russian-letters']);
    const byLanguage = new Map<string, { exact: number; estimate: number }>();
    for (const { language, text } of others) {
      const entry = byLanguage.get(language) ?? { exact: 0, estimate: 0 };
      entry.exact += o200k.encode_ordinary(text).length;
      entry.estimate += estimateTokens(text);
      byLanguage.set(language, entry);
    }
    for (const [language, { exact, estimate }] of byLanguage) {
      expect(estimate / exact - 1, `${language} bias`).toBeGreaterThanOrEqual(-0.1);
    }
  });

  it(`does not price Bulgarian as Russian for Russian-only letters scattered through it (seed ${seed})`, () => {
    // Scattered at 2 % of the letters (the density of ы in Russian), ы/э/ё priced Bulgarian text
    // entirely as Russian: -19 % aggregate. Each text gets its own rate, 0.5-4 % of its letters.
    const random = seededRandom(seed);
    const bulgarian = samples.filter(({ language }) => language === 'bg');
    if (bulgarian.length < 50) return;
    let exact = 0;
    let estimate = 0;
    for (const { text } of bulgarian) {
      const rate = 0.005 + random() * 0.035;
      let hostile = '';
      for (const character of text) {
        hostile += character;
        if (/\p{Script=Cyrillic}/u.test(character) && random() < rate)
          hostile += 'ыэё'[Math.floor(random() * 3)];
      }
      exact += o200k.encode_ordinary(hostile).length;
      estimate += estimateTokens(hostile);
    }
    expect(estimate / exact - 1).toBeGreaterThanOrEqual(-0.08);
  });

  it(`prices short Traditional Chinese as Traditional: aggregate >= -10 % (seed ${seed})`, () => {
    // Single UI strings of 5+ Han characters and under 20 characters (a short chat message): with 80
    // character pairs to tell the forms apart, 17 % of Traditional strings held none and were priced
    // as Simplified (o200k spends about 30 % more tokens per Traditional character): -11 % aggregate.
    const random = seededRandom(seed);
    const pool = languageStrings('zh_TW').filter(
      (text) => text.length < 20 && (text.match(/[\u4e00-\u9fff]/g)?.length ?? 0) >= 5,
    );
    if (pool.length < 1000) return;
    let exact = 0;
    let estimate = 0;
    for (let i = 0; i < 2000; i++) {
      const text = pool[Math.floor(random() * pool.length)]!;
      exact += o200k.encode_ordinary(text).length;
      estimate += estimateTokens(text);
    }
    expect(estimate / exact - 1).toBeGreaterThanOrEqual(-0.1);
  });

  it('does not price a long text as Russian for one Russian-only letter dropped into it', () => {
    // Bulgarian has neither Russian-only letters (ы, э, ё) nor Ukrainian or Serbian ones, so one
    // injected `ы` was enough to charge a whole Bulgarian text at Russian rates (-18 % aggregate).
    const long = samples.filter(({ language, text }) => language === 'bg' && text.length >= 400);
    if (long.length < 20) return;
    let exact = 0;
    let estimate = 0;
    for (const { text } of long) {
      const hostile = `${text} ы`;
      exact += o200k.encode_ordinary(hostile).length;
      estimate += estimateTokens(hostile);
    }
    expect(estimate / exact - 1).toBeGreaterThanOrEqual(-0.08);
  });
});
