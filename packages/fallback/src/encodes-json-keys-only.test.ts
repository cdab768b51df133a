import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

// Tokens that are base64 of a JSON object (`ops_eyJ…`): key names are the format's, the same in
// every token; the values (an address, key material) are what is drawn.
const seeds = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));
const keyName = seeds.map((seed) => {
  const random = seededRandom(seed);
  const words = 1 + Math.floor(random.next() * 3);
  let name = '';
  for (let word = 0; word < words; word++) {
    const letters = pick(random, alphabets.letters.slice(26), 3 + Math.floor(random.next() * 6));
    name += word === 0 ? letters : letters[0]!.toUpperCase() + letters.slice(1);
  }
  return name;
});
const toBase64Url = (text: string) =>
  btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const lines = [
  (value: string) => `export OP_SERVICE_ACCOUNT_TOKEN=${value}...`,
  (value: string) => `Your token looks like ${value} (shortened).`,
  (value: string) => `| token | \`${value}…\` |`,
];
// Under a key naming a secret (`token: ops_eyJ…`) the key rule redacts whatever value stands there,
// decoded or not: only the value's own shape is judged here.
const line = fc.noBias(fc.integer({ min: 0, max: lines.length - 1 })).map((at) => lines[at]!);

describe('a token that is base64 of JSON, shown cut short', () => {
  it('is left alone when the part shown holds key names and structure only (property)', () => {
    fc.assert(
      fc.property(
        fc.array(keyName, { minLength: 1, maxLength: 2 }),
        fc.constantFrom('"', '"https:', '"https://', '{"', ''),
        line,
        (keys, opening, wrap) => {
          // `{"signInAddress":"https:` or `{"outer":{"inner":"`: cut before any value.
          const fragment = `{${keys.map((key) => `"${key}":`).join('{')}${opening}`;
          const encoded = toBase64Url(fragment);
          // Shorter than the issuer's own rule asks (100+): at that length it is the token.
          fc.pre(encoded.length >= 19 && encoded.length < 100);
          const text = wrap(`ops_${encoded}`);
          expect(redactSecrets(text).findings, text).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is redacted once the part shown holds a drawn value of 16+ characters (property)', () => {
    fc.assert(
      fc.property(
        keyName,
        keyName,
        seeds,
        fc.noBias(fc.integer({ min: 16, max: 40 })),
        fc.noBias(fc.integer({ min: 0, max: 3 })),
        fc.constantFrom(...lines, (value: string) => `token: ${value}`),
        (first, second, seed, shown, alphabet, wrap) => {
          const value = pick(
            seededRandom(seed),
            [alphabets.alnum, alphabets.base64url, alphabets.lowerAlnum, alphabets.hex][alphabet]!,
            shown,
          );
          // Cut right after the drawn value: no more of the token than that is shown.
          const fragment = `{"${first}":"https://my.example.com","${second}":"${value}`;
          const encoded = toBase64Url(fragment);
          const text = wrap(`ops_${encoded}`);
          const result = redactSecrets(text);
          expect(result.text, text).not.toContain(encoded.slice(-12));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is redacted whole, with random key material after the keys', () => {
    fc.assert(
      fc.property(keyName, seeds, line, (key, seed, wrap) => {
        const material = pick(seededRandom(seed), alphabets.base64url, 43);
        const encoded = toBase64Url(`{"${key}":{"alg":"A256GCM","k":"${material}"}}`);
        const text = wrap(`ops_${encoded}`);
        expect(redactSecrets(text).text, text).not.toContain(encoded.slice(-16, -4));
      }),
      { numRuns: 200 },
    );
  });
});
