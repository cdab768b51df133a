import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import {
  documentedPrefixes,
  findDocumentedPrefixTokens,
  hexBodies,
} from './find-documented-prefix-tokens.js';
import { redactSecrets } from './index.js';
import { familyToken, middleOf } from './test-utils/family-tokens.js';

const hexPrefixes = new Set(hexBodies.map(([prefix]) => prefix));
const seeds = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));
const ellipsis = fc.constantFrom('...', '\u2026', '....');
const lines = [
  (value: string) => `export OP_SERVICE_ACCOUNT_TOKEN=${value}`,
  (value: string) => `Your token looks like ${value} (shortened).`,
  (value: string) => `| token | \`${value}\` |`,
  (value: string) => `{"example": "${value}"}`,
];
const line = fc.noBias(fc.integer({ min: 0, max: lines.length - 1 })).map((at) => lines[at]!);

describe('values shown cut short with an ellipsis', () => {
  it('a documented prefix and a generated body followed by an ellipsis is still that token', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...documentedPrefixes),
        seeds,
        // 28+: a shorter random body reads as typed (`aBcD…`) about once in 70,000 draws.
        fc.noBias(fc.integer({ min: 28, max: 60 })),
        ellipsis,
        line,
        ([prefix], seed, length, dots, wrap) => {
          const alphabet = hexPrefixes.has(prefix) ? alphabets.hex : alphabets.alnum;
          const body = pick(seededRandom(seed), alphabet, length);
          // Found with the ellipsis exactly as without it.
          const bare = findDocumentedPrefixTokens(wrap(`${prefix}${body}`)).length;
          expect(bare).toBe(1);
          expect(findDocumentedPrefixTokens(wrap(`${prefix}${body}${dots}`)).length).toBe(bare);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a random value between two ellipses is still a secret, a documented token too', () => {
    // Issuer rules do not match after a `.`: the generic layer is what catches `...ghp_<36>...`.
    // A rate, as the generic layer is statistical; 40 runs of this property found 200 of 200.
    let judged = 0;
    const tokens = familyToken((_, family) => family === 'azure-sas');
    fc.assert(
      fc.property(
        seeds,
        fc.noBias(fc.integer({ min: 32, max: 120 })),
        ellipsis,
        tokens,
        (seed, length, dots, { token }) => {
          const run = pick(seededRandom(seed), alphabets.base64, length);
          if (!redactSecrets(`...${run}${dots}`).text.includes(run)) judged++;
          const text = `key: ...${token}${dots}`;
          expect(redactSecrets(text).text, text).not.toContain(middleOf(token));
        },
      ),
      { numRuns: 200 },
    );
    expect(judged).toBeGreaterThanOrEqual(190);
  });

  it('a random value or an encoded document holding one, cut with an ellipsis, is still a secret', () => {
    // Found by an outside attack on a rule that left base64 of readable text cut with `...`:
    // encoded config (`{"token":"…"}`, a service-account file's private key) reads just so.
    const words = fc.noBias(
      fc.array(
        fc.noBias(
          fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), {
            minLength: 2,
            maxLength: 9,
          }),
        ),
        { minLength: 1, maxLength: 4 },
      ),
    );
    let redacted = 0;
    let encodedRedacted = 0;
    fc.assert(
      fc.property(
        words,
        seeds,
        fc.noBias(fc.integer({ min: 32, max: 64 })),
        ellipsis,
        line,
        (letters, seed, length, dots, wrap) => {
          const value = pick(seededRandom(seed), alphabets.alnum, length);
          // (Not under an `example` key: a value there is a sample either way.)
          const inUse = (text: string) => wrap(text).replace('"example"', '"token"');
          if (!redactSecrets(inUse(`${value}${dots}`)).text.includes(value)) redacted++;
          const document = Object.fromEntries(letters.map((w, at) => [w.join(''), at]));
          const encoded = btoa(JSON.stringify({ ...document, token: value }));
          const cut = encoded.slice(0, encoded.length - 2);
          const out = redactSecrets(inUse(`${cut}${dots}`)).text;
          // The part that encodes the token is gone.
          if (!out.includes(cut.slice(-24))) encodedRedacted++;
        },
      ),
      { numRuns: 200 },
    );
    // Rates, not each: the generic layer is statistical. Unelided, the same values are redacted in
    // every one of these lines; 40 runs of this property redacted at least 197 and 200 of 200.
    expect(redacted).toBeGreaterThanOrEqual(190);
    expect(encodedRedacted).toBeGreaterThanOrEqual(190);
  });

  it('a whole token in its documented format followed by an ellipsis is still redacted', () => {
    // Azure SAS is a whole URL whose signature alone is secret: covered by its own tests.
    const tokens = familyToken((_, family) => family === 'azure-sas');
    fc.assert(
      fc.property(tokens, ellipsis, line, ({ family, token }, dots, wrap) => {
        const text = wrap(`${token}${dots}`);
        expect(redactSecrets(text).text, `${family}: ${text}`).not.toContain(middleOf(token));
      }),
      { numRuns: 400 },
    );
  });
});
