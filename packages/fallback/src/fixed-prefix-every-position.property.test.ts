import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  credentialEmbeddings,
  fixedPrefixFamilies,
  identifierJoinedEmbeddings,
} from './credential-embeddings.js';
import { credentialFamilies, seededRandom } from './credential-families.js';
import { documentedPrefixes } from './find-documented-prefix-tokens.js';
import { redactSecrets } from './index.js';

/** The value whole, or any 16 alphanumeric characters of it in a row, left in `output`. */
function leaks(output: string, token: string): boolean {
  if (output.includes(token)) return true;
  for (let start = 0; start + 16 <= token.length; start += 4) {
    const piece = token.slice(start, start + 16);
    if (/^[A-Za-z0-9]{16}$/.test(piece) && output.includes(piece)) return true;
  }
  return false;
}

const families = fixedPrefixFamilies();
// Families whose prefix is unique to one issuer: found even joined to a name by `_`, `-` or `+`.
const strongFamilies = families.filter((entry) =>
  documentedPrefixes.some(([prefix]) => entry.prefix.startsWith(prefix)),
);
// A value glued to the letter or digit before it (`\nghp_…`, `%2Fghp_…`): the hard case, where a
// rule that wants a word boundary before the prefix sees none.
const glued = (text: string, token: string) =>
  /[A-Za-z0-9]/.test(text[text.indexOf(token) - 1] ?? '');

describe('every documented fixed-prefix family, in every position', () => {
  it('premise: every family the package knows and every documented prefix is attacked', () => {
    const fixed = credentialFamilies.filter((credential) => credential.fixedPrefix);
    // Families with a one-character prefix (`AAAA…` is a run, not a prefix) are the only ones left out.
    expect(families.length).toBeGreaterThanOrEqual(fixed.length - 2);
    for (const [prefix] of documentedPrefixes) {
      expect(
        families.some((entry) => entry.prefix.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
    expect(families.length * credentialEmbeddings.length).toBeGreaterThanOrEqual(160 * 40);
  });

  it('no value is left in the clear, wherever it stands (full sweep per drawn seed)', () => {
    let cells = 0;
    let gluedCells = 0;
    fc.assert(
      fc.property(fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })), (seed) => {
        const random = seededRandom(seed);
        const missed: string[] = [];
        for (const family of families) {
          for (const [position, wrap] of credentialEmbeddings) {
            const token = family.make(random);
            const text = wrap(token, random);
            // Control: the value really stands in the text before redaction.
            expect(text.includes(token), `${family.family} in ${position}`).toBe(true);
            cells++;
            if (glued(text, token)) gluedCells++;
            if (leaks(redactSecrets(text).text, token)) {
              missed.push(`${family.family} | ${position} | ${JSON.stringify(text).slice(0, 160)}`);
            }
          }
        }
        expect(missed, `seed ${seed}`).toEqual([]);
      }),
      { numRuns: 2 },
    );
    // Premise: both sweeps covered every cell, and the escape-glued case was drawn in each family.
    expect(cells).toBe(2 * families.length * credentialEmbeddings.length);
    expect(gluedCells).toBeGreaterThanOrEqual(2 * families.length * 5);
    // About 20,000 redactions: minutes on a loaded machine are not a failure of the property.
  }, 180_000);

  it('a prefix unique to its issuer is found even joined to a name (`backup_ghp_….json`)', () => {
    let cells = 0;
    fc.assert(
      fc.property(fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })), (seed) => {
        const random = seededRandom(seed);
        const missed: string[] = [];
        for (const family of strongFamilies) {
          for (const [position, wrap] of identifierJoinedEmbeddings) {
            const token = family.make(random);
            const text = wrap(token, random);
            expect(text.includes(token), `${family.family} in ${position}`).toBe(true);
            // Premise: the value is glued to the name before it.
            expect(/[_+-]/.test(text[text.indexOf(token) - 1]!)).toBe(true);
            cells++;
            if (leaks(redactSecrets(text).text, token))
              missed.push(`${family.family} | ${position}`);
          }
        }
        expect(missed, `seed ${seed}`).toEqual([]);
      }),
      { numRuns: 4 },
    );
    expect(strongFamilies.length).toBeGreaterThanOrEqual(documentedPrefixes.length / 2);
    expect(cells).toBe(4 * strongFamilies.length * identifierJoinedEmbeddings.length);
  });

  it('a standard-base64 body (`ops_eyJ…/…+…`) joined to a name is found past its `/` and `+`', () => {
    // Read with the common alphabet alone, the part before the body's first `/` stayed in the
    // clear whenever the issuer's rule stood down for the join (seeds 1 and 2 of the sweep above).
    const base64Families = strongFamilies.filter((entry) => entry.prefix.endsWith('eyJ'));
    expect(base64Families.length).toBeGreaterThan(0);
    // Drawn from the run's property seed, so a failure replays with BATON_PROPERTY_SEED.
    const seed = fc.sample(fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })), 1)[0]!;
    const random = seededRandom(seed);
    let slashes = 0;
    const missed: string[] = [];
    for (let draw = 0; draw < 100; draw++) {
      for (const family of base64Families) {
        for (const [position, wrap] of identifierJoinedEmbeddings) {
          const token = family.make(random);
          if (/[/+]/.test(token.slice(0, 40))) slashes++;
          if (leaks(redactSecrets(wrap(token, random)).text, token))
            missed.push(`${family.family} | ${position}`);
        }
      }
    }
    expect(missed, `seed ${seed}`).toEqual([]);
    // Premise: most draws hold a `/` or `+` within the first 40 characters (the shape that leaked).
    expect(slashes).toBeGreaterThan(base64Families.length * identifierJoinedEmbeddings.length * 50);
  });

  it('control: the leak check flags every cell of an unredacted text', () => {
    const random = seededRandom(7);
    for (const family of families) {
      for (const [, wrap] of credentialEmbeddings) {
        const token = family.make(random);
        expect(leaks(wrap(token, random), token)).toBe(true);
      }
    }
  });

  it('control: a word boundary before the prefix misses the glued positions', () => {
    // What the rules want without the escape-aware pass: no match at the token's start.
    const random = seededRandom(11);
    let missedByBoundary = 0;
    for (const family of families) {
      for (const [, wrap] of credentialEmbeddings) {
        const token = family.make(random);
        const text = wrap(token, random);
        if (glued(text, token)) missedByBoundary++;
      }
    }
    expect(missedByBoundary).toBeGreaterThan(families.length * 4);
  });
});
