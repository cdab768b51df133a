import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

// Issuers put ids in numbers between their prefix and a hex secret (`xoxr-<team>-<user>-<id>-<hex>`);
// people and tools name things `<word>-<number>-<hex>` (branches, pods, builds).
const seeds = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));
const lines = [
  (value: string) => `token=${value}`,
  (value: string) => `the new token is ${value} now`,
  (value: string) => `see ${value}`,
  (value: string) => value,
];
const line = fc.noBias(fc.integer({ min: 0, max: lines.length - 1 })).map((at) => lines[at]!);

/** `-` and 1 to 3 groups of 1 to `most` digits. */
function numbers(random: ReturnType<typeof seededRandom>, most = 16): string {
  const groups = 1 + Math.floor(random.next() * 3);
  let out = '';
  for (let group = 0; group < groups; group++) {
    out += `-${pick(random, alphabets.digits, 1 + Math.floor(random.next() * most))}`;
  }
  return out;
}

describe('hex after a prefix and numbered ids', () => {
  it('is redacted after an abbreviated prefix (property)', () => {
    fc.assert(
      fc.property(
        seeds,
        fc.noBias(fc.integer({ min: 16, max: 31 })),
        line,
        (seed, length, wrap) => {
          const random = seededRandom(seed);
          // Consonants only: an abbreviation (`xoxr`, `ghp`), not a word, and no issuer's prefix.
          const prefix = pick(random, 'qjvwxz', 3 + Math.floor(random.next() * 3));
          const hex = pick(random, alphabets.hex, length);
          fc.pre(/[a-f]/.test(hex) && /\d/.test(hex));
          const token = `${prefix}${numbers(random)}-${hex}`;
          const text = wrap(token);
          expect(redactSecrets(text).text, text).not.toContain(hex);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is a name after a word, and short hex is a name after anything (property)', () => {
    fc.assert(
      fc.property(
        seeds,
        fc.noBias(fc.integer({ min: 16, max: 31 })),
        fc.boolean(),
        fc.constantFrom(
          (value: string) => `see ${value}`,
          (value: string) => `git checkout ${value}`,
          (value: string) => value,
        ),
        (seed, length, word, wrap) => {
          const random = seededRandom(seed);
          // A pronounceable word (`balore`; no `k` or `p`, which spell `token` and `api`: words that
          // name a credential), or an abbreviation before hex of under 64 bits.
          const syllables = 2 + Math.floor(random.next() * 2);
          let prefix = '';
          for (let syllable = 0; syllable < syllables; syllable++) {
            prefix += pick(random, 'bdflmnrst', 1) + pick(random, 'aeiou', 1);
          }
          if (!word) prefix = pick(random, 'qjvwxz', 3 + Math.floor(random.next() * 3));
          const hex = pick(random, alphabets.hex, word ? length : 8 + (length % 8));
          // Numbers of 8+ digits are read as hex too (`<name>-<12 digits>-<20 hex>` holds 32), so
          // the name's numbers here stay under 8 digits.
          const text = wrap(`${prefix}${numbers(random, 7)}-${hex}`);
          expect(redactSecrets(text).findings, text).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
