import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { redactSecrets } from './index.js';
import { familyToken, middleOf } from './test-utils/family-tokens.js';
import {
  itStaysLinear,
  oneOf,
  pronounceableWord,
  randomValue,
} from './test-utils/generated-values.js';

// How encoders write a value into a query string or a form body: `encodeURIComponent`, or every
// character but letters and digits escaped (some HTTP clients), in upper- or lower-case hex.
const encoders: Record<string, (value: string) => string> = {
  component: encodeURIComponent,
  'all but alphanumerics, upper-case hex': (value) =>
    value.replace(
      /[^A-Za-z0-9]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
    ),
  'all but alphanumerics, lower-case hex': (value) =>
    value.replace(/[^A-Za-z0-9]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`),
};

const placements: Record<string, (name: string, encoded: string) => string> = {
  'URL query': (name, encoded) =>
    `GET https://app.example.com/cb?state=ok&${name}=${encoded}&page=2`,
  'form body': (name, encoded) => `grant_type=client_credentials&${name}=${encoded}`,
  'redirect target': (name, encoded) =>
    `Location: https://login.example.com/next?${name}=${encoded}`,
};

/** The redacted text as it reads decoded, escapes cut by a marker kept as written. */
function decoded(text: string): string {
  return decodeURIComponent(text.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
}

describe('credentials percent-encoded as a query or form value', () => {
  it('redacts what the same token loses in plain text, whatever the encoder escapes', () => {
    fc.assert(
      fc.property(
        familyToken(),
        oneOf(Object.keys(encoders)),
        oneOf(Object.keys(placements)),
        pronounceableWord,
        ({ family, token }, encoder, placement, name) => {
          // Premise: what redaction removes from the plain token is the secret (a signed URL keeps
          // its address and loses its signature).
          const plain = `value ${token} end`;
          const secrets = redactSecrets(plain).findings.map((f) => plain.slice(f.start, f.end));
          expect(secrets.length, `${family} redacted in plain text`).toBeGreaterThan(0);
          const text = placements[placement]!(name, encoders[encoder]!(token));
          const output = decoded(redactSecrets(text).text);
          for (const secret of secrets) {
            const piece = secret.length >= 24 ? middleOf(secret) : secret;
            expect(output, `${family}, ${encoder}, ${placement}: ${text}`).not.toContain(piece);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('redacts a secret field of URL-encoded JSON, keyed only behind %22', () => {
    fc.assert(
      fc.property(
        oneOf(['client_secret', 'password', 'api_key', 'access_token', 'refreshToken']),
        randomValue([alphabets.alnum], 20, 40),
        oneOf(Object.keys(encoders)),
        pronounceableWord,
        (key, value, encoder, name) => {
          const json = JSON.stringify({ user: name, [key]: value, page: 2 });
          const text = `https://app.example.com/api?${name}=${encoders[encoder]!(json)}`;
          expect(decoded(redactSecrets(text).text), text).not.toContain(value);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds nothing in encoded ordinary values (control)', () => {
    fc.assert(
      fc.property(
        fc.array(pronounceableWord, { minLength: 1, maxLength: 6 }),
        fc.noBias(fc.integer({ min: 1, max: 9_999 })),
        oneOf(Object.keys(encoders)),
        oneOf(Object.keys(placements)),
        (words, number, encoder, placement) => {
          for (const value of [
            `https://${words[0]}.example.com/${words.join('/')}?step=${number}`,
            words.join(' '),
            JSON.stringify({ query: words.join(' '), page: number, sort: 'name' }),
            `/home/${words[0]}/projects/${words.join('-')}.ts`,
          ]) {
            const text = placements[placement]!(words[0]!, encoders[encoder]!(value));
            expect(redactSecrets(text).findings, text).toEqual([]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('attack: percent-decoded views stay linear', () => {
  itStaysLinear({
    'escaped percent signs': (count) => '%2525'.repeat(count),
    'escapes beside JSON escapes': (count) => '%2F\\"%5C%22'.repeat(count),
    'encoded secret keys without values': (count) => '%7B%22password%22%3A%22'.repeat(count),
    'encoded tokens': (count) => 'ghp%5F'.repeat(count),
  });
});
