import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from './estimate-tokens.js';
import {
  isFitLanguage,
  latinLanguageSamples,
  latinLanguageStrings,
  latinScriptLanguages,
} from './test-utils/latin-script-languages.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');

// Languages with this many catalogue strings are widely written ones (Spanish, Polish, Turkish,
// Catalan, ...), held to the issue's floor; the rest (Sardinian, Walloon, Kurdish) have few whole
// words in o200k's vocabulary, which the English-letter features cannot see: they are at -11 to
// -17 % (they were at -15 to -35 % before the word-surprisal features) and held to a floor that
// catches a regression. bench/evaluate-heuristic-languages.ts prints every language.
const widelyWritten = 25_000;
const floor = (language: string) =>
  latinLanguageStrings(language).length >= widelyWritten ? -0.1 : -0.2;

describe('estimateTokens per Latin-script language (fresh seed per run)', () => {
  const seed = Number(process.env.HEURISTIC_SEED ?? Math.floor(Math.random() * 2 ** 31));
  // Catalogues of fewer strings are a few programs' messages, too little text for a stable aggregate.
  const languages = latinScriptLanguages(2000);
  const o200k = tiktoken.get_encoding('o200k_base');
  const bias = new Map<string, number>();
  for (const language of languages) {
    let estimated = 0;
    let exact = 0;
    for (const { text } of latinLanguageSamples(seed, 120, [language])) {
      estimated += estimateTokens(text);
      exact += o200k.encode_ordinary(text).length;
    }
    bias.set(language, estimated / exact - 1);
  }
  o200k.free();
  const describeBias = (names: readonly string[]) =>
    `seed ${seed}: ${names.map((name) => `${name} ${(bias.get(name)! * 100).toFixed(1)}%`).join(', ')}`;

  it('finds Latin-script languages on both sides of the fit when the system has catalogues', () => {
    if (languages.length === 0) return;
    expect(languages.some(isFitLanguage)).toBe(true);
    expect(languages.some((language) => !isFitLanguage(language))).toBe(true);
  });

  it(`undercounts no language the weights never saw beyond its floor (seed ${seed})`, () => {
    const unseen = languages.filter((language) => !isFitLanguage(language));
    for (const language of unseen)
      expect(bias.get(language)!, `${language}; ${describeBias(unseen)}`).toBeGreaterThanOrEqual(
        floor(language),
      );
  });

  it(`undercounts no widely written language it never saw by more than 10 % (seed ${seed})`, () => {
    // Languages the fit draws are held out one at a time by bench/evaluate-heuristic-languages.ts,
    // which refits without each (Romanian, the closest, is at -9 to -10 % there).
    const wide = languages.filter(
      (language) =>
        !isFitLanguage(language) && latinLanguageStrings(language).length >= widelyWritten,
    );
    expect(wide.length === 0 || wide.length >= 3).toBe(true);
    for (const language of wide)
      expect(bias.get(language)!, `${language}; ${describeBias(wide)}`).toBeGreaterThanOrEqual(
        -0.1,
      );
  });
});
