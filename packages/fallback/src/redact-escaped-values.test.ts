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

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

// How a value is written into a query string, a form body, an HTML attribute or coloured terminal
// output: `encodeURIComponent`; every character but letters and digits escaped (some clients), in
// either case of hex; HTML character references (template engines escape `=`, `/`, quotes);
// JSON's `\u00XX`; and `grep --color` marking part of the value.
const encoders: Record<string, (value: string, cut: number) => string> = {
  component: encodeURIComponent,
  'percent, all but alphanumerics, upper-case hex': (value) =>
    value.replace(/[^A-Za-z0-9]/g, (c) => `%${hex(c).toUpperCase()}`),
  'percent, all but alphanumerics, lower-case hex': (value) =>
    value.replace(/[^A-Za-z0-9]/g, (c) => `%${hex(c)}`),
  'HTML hex references': (value) => value.replace(/[^A-Za-z0-9]/g, (c) => `&#x${hex(c)};`),
  'HTML decimal references': (value) =>
    value.replace(/[^A-Za-z0-9]/g, (c) => `&#${c.charCodeAt(0)};`),
  'HTML template escaping': (value) =>
    value.replace(/[=/`'"&]/g, (c) => (c === '&' ? '&amp;' : `&#x${hex(c).toUpperCase()};`)),
  'JSON \\u00XX escapes': (value) => value.replace(/[^A-Za-z0-9]/g, (c) => `\\u00${hex(c)}`),
  'terminal colour on part of it': (value, cut) => {
    const at = cut % Math.max(1, value.length);
    return `\x1b[01;31m\x1b[K${value.slice(0, at)}\x1b[m\x1b[K${value.slice(at)}`;
  },
};

const placements: Record<string, (name: string, encoded: string) => string> = {
  'URL query': (name, encoded) =>
    `GET https://app.example.com/cb?state=ok&${name}=${encoded}&page=2`,
  'form body': (name, encoded) => `grant_type=client_credentials&${name}=${encoded}`,
  'redirect target': (name, encoded) =>
    `Location: https://login.example.com/next?${name}=${encoded}`,
  'HTML attribute': (name, encoded) => `<input type="hidden" name="${name}" value="${encoded}">`,
  'grep output': (name, encoded) => `config/${name}.env:3:${encoded}`,
};

/** The redacted text as it reads decoded, escapes cut by a marker kept as written. */
function decoded(text: string): string {
  return decodeURIComponent(text.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))
    .replace(/&#[xX]([0-9A-Fa-f]+);/g, (_, code) => String.fromCharCode(Number.parseInt(code, 16)))
    .replace(/&#([0-9]+);/g, (_, code) => String.fromCharCode(Number(code)))
    .replaceAll('&amp;', '&')
    .replace(/\\u00([0-9a-f]{2})/g, (_, code) => String.fromCharCode(Number.parseInt(code, 16)))
    .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
}

describe('credentials escaped as a query or form value, an HTML attribute or coloured output', () => {
  it('redacts what the same token loses in plain text, whatever the encoder escapes', () => {
    fc.assert(
      fc.property(
        familyToken(),
        oneOf(Object.keys(encoders)),
        oneOf(Object.keys(placements)),
        pronounceableWord,
        fc.noBias(fc.nat({ max: 200 })),
        ({ family, token }, encoder, placement, name, cut) => {
          // Premise: what redaction removes from the plain token is the secret (a signed URL keeps
          // its address and loses its signature).
          const plain = `value ${token} end`;
          const secrets = redactSecrets(plain).findings.map((f) => plain.slice(f.start, f.end));
          expect(secrets.length, `${family} redacted in plain text`).toBeGreaterThan(0);
          const text = placements[placement]!(name, encoders[encoder]!(token, cut));
          const output = decoded(redactSecrets(text).text);
          for (const secret of secrets) {
            const piece = secret.length >= 24 ? middleOf(secret) : secret;
            expect(output, `${family}, ${encoder}, ${placement}: ${text}`).not.toContain(piece);
          }
        },
      ),
      { numRuns: 600 },
    );
  });

  it('redacts a secret field of escaped JSON, keyed only behind %22, &quot; or \\u0022', () => {
    fc.assert(
      fc.property(
        oneOf(['client_secret', 'password', 'api_key', 'access_token', 'refreshToken']),
        randomValue([alphabets.alnum], 20, 40),
        oneOf(Object.keys(encoders)),
        pronounceableWord,
        (key, value, encoder, name) => {
          const json = JSON.stringify({ user: name, [key]: value, page: 2 });
          const text = `https://app.example.com/api?${name}=${encoders[encoder]!(json, name.length)}`;
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
            const text = placements[placement]!(words[0]!, encoders[encoder]!(value, number));
            expect(redactSecrets(text).findings, text).toEqual([]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('attack: decoded views stay linear', () => {
  itStaysLinear({
    'escaped percent signs': (count) => '%2525'.repeat(count),
    'escapes beside JSON escapes': (count) => '%2F\\"%5C%22'.repeat(count),
    'encoded secret keys without values': (count) => '%7B%22password%22%3A%22'.repeat(count),
    'encoded tokens': (count) => 'ghp%5F'.repeat(count),
    'character references': (count) => '&#x3D;&quot;&amp;&#61;'.repeat(count),
    'unclosed style sequences': (count) => '\x1b[01;31'.repeat(count),
    'style sequences between token pieces': (count) => 'ghp_\x1b[m'.repeat(count),
  });
});
