import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import {
  documentedPrefixes,
  findDocumentedPrefixTokens,
  hexBodies,
} from './find-documented-prefix-tokens.js';
import { isSpelledInWords } from './spelled-in-words.js';

// Words are drawn at test time, not taken from a list: consonant-vowel syllables make a
// pronounceable word of 5 to 9 letters (`ramelo`, `Tisanek`), written in one of the cases names
// use, joined by `_`, `-` or a short number, the way people type sample tokens
// (`Need5_T00-be-exactly-40-chars`).
const consonants = 'bdfklmnprstv';
const vowels = 'aeio';
const letter = (set: string) =>
  fc.noBias(fc.integer({ min: 0, max: set.length - 1 })).map((at) => set[at]!);
const word = fc
  .tuple(
    fc.array(fc.tuple(letter(consonants), letter(vowels)), { minLength: 2, maxLength: 4 }),
    fc.option(letter(consonants), { nil: '' }),
    fc.constantFrom('lower', 'capital', 'upper'),
  )
  .map(([syllables, coda, style]) => {
    const plain = syllables.map(([c, v]) => c + v).join('') + coda;
    if (style === 'upper') return plain.toUpperCase();
    return style === 'capital' ? plain[0]!.toUpperCase() + plain.slice(1) : plain;
  })
  .filter((spelled) => spelled.length >= 5);
const joiner = fc.oneof(
  fc.constantFrom('_', '-'),
  fc.noBias(fc.integer({ min: 0, max: 999 })).map(String),
);
const wordBody = fc
  .tuple(fc.array(fc.tuple(word, joiner), { minLength: 3, maxLength: 5 }), word)
  // A number among the words: a body in one class of characters is turned down by another check.
  .map(([pairs, last]) => `${pairs.map(([w, j]) => w + j).join('')}${last}7`)
  .filter((body) => body.length >= 20);

const hexPrefixes = new Set(hexBodies.map(([prefix]) => prefix));
const seeds = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));

describe('documented prefixes followed by a body spelled in words', () => {
  it('are not claimed by the documented-prefix layer, under any documented prefix', () => {
    fc.assert(
      fc.property(fc.constantFrom(...documentedPrefixes), wordBody, ([prefix], body) => {
        expect(isSpelledInWords(body), body).toBe(true);
        const text = `token: ${prefix}${body} here`;
        expect(findDocumentedPrefixTokens(text), text).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('while a generated body in the same place is claimed under the issuer kind', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...documentedPrefixes),
        seeds,
        fc.noBias(fc.integer({ min: 32, max: 64 })),
        fc.constantFrom(alphabets.alnum, alphabets.base64url, alphabets.upperAlnum),
        ([prefix, kind], seed, length, drawn) => {
          const alphabet = hexPrefixes.has(prefix) ? alphabets.hex : drawn;
          const body = pick(seededRandom(seed), alphabet, length).replace(/^[-_]+|[-_]+$/g, 'A');
          const text = `token: ${prefix}${body} here`;
          expect(
            findDocumentedPrefixTokens(text).map((span) => span.kind),
            text,
          ).toEqual([kind]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('issuers that document a hex body', () => {
  // A token of theirs cut short or glued to more characters still opens with 16 hex characters.
  // 24+: a shorter hex run holds few letters now and then and reads as a number, turned down by
  // another check.
  const hexOpening = fc
    .tuple(
      seeds,
      fc.noBias(fc.integer({ min: 24, max: 64 })),
      fc.constantFrom('lower', 'upper', 'mixed'),
    )
    .map(([seed, length, style]) => {
      const random = seededRandom(seed);
      const hex = pick(random, alphabets.hex, length);
      if (style === 'lower') return hex;
      if (style === 'upper') return hex.toUpperCase();
      return [...hex].map((c) => (random.next() < 0.5 ? c.toUpperCase() : c)).join('');
    });

  it('claim a hex body cut short, grown, or glued to other characters', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...hexBodies),
        hexOpening,
        fc.option(seeds, { nil: undefined }),
        ([prefix], hex, glued) => {
          const tail = glued === undefined ? '' : pick(seededRandom(glued), alphabets.alnum, 12);
          const instance = prefix === 'sgp_' ? 'local_' : '';
          const text = `see ${prefix}${instance}${hex}${tail} here`;
          expect(findDocumentedPrefixTokens(text).length, text).toBe(1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leave a body that leaves hex within its first 16 characters to the generic layer', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...hexBodies),
        hexOpening,
        fc.noBias(fc.integer({ min: 0, max: 15 })),
        letter('ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ'),
        ([prefix], hex, at, outside) => {
          const body = `${hex.slice(0, at)}${outside}${hex.slice(at + 1)}`;
          const text = `see ${prefix}${body} here`;
          expect(findDocumentedPrefixTokens(text), text).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
