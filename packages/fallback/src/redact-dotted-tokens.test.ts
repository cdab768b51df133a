import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

// Signed session tokens join their parts with dots (`<id>.<timestamp>.<signature>`, as
// itsdangerous, Rails and many cookie signers write them). Unquoted after a secret-named key they
// once read as member access (`config.apiKey`) and were kept whenever the parts started with
// letters. Drawn without fast-check's bias: biased draws repeat one character (`AAAA.AAAA`), which
// no signer emits.
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const urlAlphabet = `${alphabet}-_`;
const drawn = (characters: string, minLength: number, maxLength: number) =>
  fc
    .noBias(fc.array(fc.integer({ min: 0, max: characters.length - 1 }), { minLength, maxLength }))
    .map((indexes) => indexes.map((index) => characters[index]).join(''));
const lowerLed = fc
  .tuple(drawn('abcdefghijklmnopqrstuvwxyz', 1, 6), drawn(alphabet, 10, 16))
  .map(([head, rest]) => head + rest);
const signed = fc
  .tuple(
    fc.oneof(lowerLed, drawn(alphabet, 8, 20)),
    fc.oneof(
      drawn(alphabet, 6, 8),
      fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }).map(String),
    ),
    drawn(urlAlphabet, 27, 43),
  )
  .map((parts) => parts.join('.'))
  // Placeholder markers read as placeholders by design: a part led by `your` (`your_token_here`),
  // a run of four `_` or `x` (`____`, `xxxx`), a marker word between separators (`…a_TBD-VP…`).
  .filter(
    (token) =>
      !/(?:^|[^A-Za-z0-9])your|_{4,}|x{4,}|(?:^|[_\-.])(?:null|none|undefined|todo|tbd)(?=$|[_\-.])/i.test(
        token,
      ),
  );
const key = fc.constantFrom(
  'API_TOKEN',
  'password',
  'SESSION_SECRET',
  'auth_token',
  'client_secret',
);

describe('dotted signed tokens after a secret-named key', () => {
  it('are redacted unquoted and quoted, with = or : (property)', () => {
    fc.assert(
      fc.property(
        key,
        fc.constantFrom('=', ': ', ' = '),
        fc.constantFrom('', '"'),
        signed,
        (name, sep, quote, token) => {
          const out = redactSecrets(`${name}${sep}${quote}${token}${quote}`);
          // The signature is the part that grants access; no part of the token may survive.
          for (const part of token.split('.')) {
            if (part.length >= 8) expect(out.text).not.toContain(part);
          }
        },
      ),
      // Shrinking would walk the draw towards one repeated character, which is no token.
      { numRuns: 400, endOnFailure: true },
    );
  });

  // Cut at its digits, a signature can fall into the rhythm of a numbered name's parts
  // (`U7FHvzpuKqi_lwEsi9w8kcu2ffkRW`: `FHvzpuKqi`, `lwEsi`, `kcu`, each shaped like a hump), and
  // was then kept as member access: about one draw in 7,000 above. Drawn here head-on: humps of
  // consonants, none of them a word, joined by short numbers.
  it('are redacted when the signature cut at its digits falls into name-shaped pieces (property)', () => {
    const hump = fc
      .tuple(drawn('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 1, 2), drawn('bcdfghjklmnpqrstvwz', 3, 6))
      .map(([capitals, rest]) => capitals + rest);
    const signature = fc
      .array(fc.tuple(hump, drawn('0123456789', 1, 3)), { minLength: 4, maxLength: 7 })
      .map((pairs) => pairs.map(([letters, digits]) => letters + digits).join(''));
    fc.assert(
      fc.property(key, fc.constantFrom('=', ': '), lowerLed, signature, (name, sep, id, sig) => {
        const token = `${id}.${sig}`;
        const out = redactSecrets(`${name}${sep}${token}`);
        expect(out.text, token).not.toContain(sig);
        expect(out.text, token).not.toContain(id);
      }),
      { numRuns: 200 },
    );
  });

  it('leave member access and dotted names alone', () => {
    const word = fc.constantFrom(
      ...'config settings process env secrets vault client auth session options values store'.split(
        ' ',
      ),
    );
    const member = fc.constantFrom(
      'apiKey',
      'API_TOKEN',
      'password',
      'clientSecret',
      'token',
      'sessionSecret',
    );
    fc.assert(
      fc.property(
        key,
        fc.array(word, { minLength: 1, maxLength: 3 }),
        member,
        (name, path, last) => {
          const text = `${name}=${[...path, last].join('.')}`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 200 },
    );
  });
});
