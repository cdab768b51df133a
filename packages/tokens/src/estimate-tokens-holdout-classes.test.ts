import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from './estimate-tokens.js';
import { classErrors } from './test-utils/heuristic-evaluation.ts';
import {
  type HoldoutClass,
  holdoutClasses,
  holdoutSamples,
} from './test-utils/holdout-class-texts.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');

// Per-text MAPE ceilings, a margin above the worst of eight seeds at 120 texts per class when
// written: 0.09 where that worst was <= 7 % (identifiers 7.4 % and short Thai, Lao, Khmer and
// Myanmar 6.2 % at 150 texts since each script has its own weight; 10.9 % and 10.3 % before), 0.13
// for short Latin-script text in other languages (worst 11.0 % since the word-surprisal features;
// 0.16 before: o200k holds whole words of some languages, Spanish, German, and few of others, which
// English letters cannot tell apart), 0.10 for the rest: worst of 40 seeds at 150 texts per class
// 8.1 % (SQL; short Indic 7.8 %, Cyrillic pseudo-words 7.8 %, short Cyrillic 7.7 %) since a line
// break after a letter of another script is priced as its own piece (0.12 before; short Indic was
// 11.7 % with one Indic weight, under a ceiling of 0.16).
const strict: readonly HoldoutClass[] = [
  'pseudo-words',
  'pseudo-words-mixed',
  'pseudo-words-accented',
  'numbers',
  'urls',
  'log-lines',
  'yaml',
  'markdown-table',
  'short-cjk',
  'short-korean',
  'short-georgian',
  'emoji-sequences',
  'identifiers',
  'short-thai',
];
// chars/4 is nearly exact on identifiers made of frequent English words (about four characters per
// token, 8 % MAPE); the heuristic's 6.5-7.4 % is not far enough below it to be held to beat it.
const charsPerFourIsNearExact: readonly HoldoutClass[] = ['identifiers'];
const ceiling = (name: HoldoutClass) =>
  strict.includes(name) ? 0.09 : name === 'short-latin' ? 0.13 : 0.1;

describe('estimateTokens on classes the fit does not draw (fresh seed per run)', () => {
  // The fit draws these classes with its own fixed seed; a fresh seed here measures text the
  // weights never saw. Printed so a failure can be replayed with HEURISTIC_SEED.
  const seed = Number(process.env.HEURISTIC_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const samples = holdoutSamples(seed, 150);
  const o200k = tiktoken.get_encoding('o200k_base');
  const report = classErrors(
    samples,
    (text) => estimateTokens(text),
    (text) => o200k.encode_ordinary(text).length,
  );
  o200k.free();
  const describeReport = () =>
    `seed ${seed}: ${[...report]
      .map(
        ([name, { mape, bias }]) =>
          `${name} ${(mape * 100).toFixed(1)}%/${(bias * 100).toFixed(1)}%`,
      )
      .join(', ')}`;

  it(`generates 20–2,000-character texts of the classes the system has sources for (seed ${seed})`, () => {
    for (const sample of samples) {
      expect(sample.text.length).toBeGreaterThanOrEqual(20);
      expect(sample.text.length).toBeLessThanOrEqual(2000);
    }
    // The classes built from generated letters, numbers and markup need no system files.
    for (const name of holdoutClasses.filter((name) => !name.startsWith('short-')))
      if (name !== 'mixed-language') expect(report.has(name), name).toBe(true);
  });

  it(`undercounts no class by more than 10 % in aggregate (seed ${seed})`, () => {
    for (const [name, { bias }] of report)
      expect(bias, `${name}; ${describeReport()}`).toBeGreaterThanOrEqual(-0.1);
  });

  it(`keeps per-text MAPE under each class's ceiling and below chars/4's (seed ${seed})`, () => {
    for (const [name, { mape, quarter }] of report) {
      expect(mape, `${name}; ${describeReport()}`).toBeLessThanOrEqual(ceiling(name));
      if (!charsPerFourIsNearExact.includes(name))
        expect(mape, `${name}; ${describeReport()}`).toBeLessThan(quarter);
    }
  });
});
