import { createRequire } from 'node:module';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { estimateTokens } from './estimate-tokens.js';
import { languageStrings } from './test-utils/synthetic-texts.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const o200k = tiktoken.get_encoding('o200k_base');
const exact = (text: string) => o200k.encode_ordinary(text).length;
const numRuns = Number(process.env.CAMEL_CASE_RUNS ?? 20);

/** English words of the system's en_GB catalogue, one entry per occurrence (frequency-weighted). */
function englishWords(): string[] {
  const words: string[] = [];
  for (const text of languageStrings('en_GB'))
    for (const word of text.match(/[A-Za-z]{2,14}/g) ?? []) words.push(word.toLowerCase());
  return words;
}

const capitalise = (word: string) => word[0]!.toUpperCase() + word.slice(1);

describe('estimateTokens on camelCase identifiers', () => {
  afterAll(() => o200k.free());

  it('prices a hump of a word about as the same word after a space', () => {
    const words = englishWords();
    if (words.length < 5000) return;
    // 100 identifiers of 2-4 frequency-weighted catalogue words per run.
    const identifiers = fc.array(
      fc.array(fc.noBias(fc.integer({ min: 0, max: words.length - 1 })), {
        minLength: 2,
        maxLength: 4,
      }),
      { minLength: 100, maxLength: 100 },
    );
    // Estimated minus exact difference between the camelCase and the space-separated spelling, per
    // hump. Measured over 600 draws: 0.01-0.15, median 0.07 (before: 0.14-0.27, median 0.19, and
    // the first draw fails; each hump cost 0.2 tokens more than its word, exact about the same).
    fc.assert(
      fc.property(identifiers, (indices) => {
        const split = indices.map((ids) => ids.map((index) => words[index]!));
        const camel = split
          .map((parts) => parts[0]! + parts.slice(1).map(capitalise).join(''))
          .join('\n');
        const spaced = split.map((parts) => parts.join(' ')).join('\n');
        const humps = split.reduce((sum, parts) => sum + parts.length - 1, 0);
        const excess =
          estimateTokens(camel) - estimateTokens(spaced) - (exact(camel) - exact(spaced));
        expect(excess / humps).toBeLessThanOrEqual(0.17);
        expect(excess / humps).toBeGreaterThanOrEqual(-0.1);
      }),
      { numRuns },
    );
  });
});
