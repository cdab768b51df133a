import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialFamilies, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

// A credential of any documented family, made from a seed fast-check chooses (so a failure shrinks
// to a replayable seed), and the text agents glue to it on either side.
const credential = fc
  .tuple(fc.integer({ min: 0, max: credentialFamilies.length - 1 }), fc.integer({ min: 1 }))
  .map(([family, seed]) => credentialFamilies[family]!.make(seededRandom(seed)));
const pemKey = fc
  .array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'), {
    minLength: 64,
    maxLength: 64,
  })
  .map((characters) => {
    const line = characters.join('');
    return `-----BEGIN PRIVATE KEY-----\n${line}\n${line.split('').reverse().join('')}\n-----END PRIVATE KEY-----`;
  });
const glue = fc.constantFrom(
  '',
  ' ',
  'x',
  'abc',
  '=',
  ':',
  '"',
  "'",
  '/',
  '_',
  '-',
  '.',
  '\n',
  'token=',
  'password: ',
  'Authorization: Bearer ',
  'https://',
  '@host',
  '[REDACTED:x]',
  '{"value":"',
  '"}',
);
const piece = fc.oneof(
  { weight: 3, arbitrary: credential },
  { weight: 1, arbitrary: pemKey },
  { weight: 3, arbitrary: glue },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
);
const text = fc.array(piece, { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join(''));

describe('redactSecrets is idempotent', () => {
  it('redacting redacted text changes nothing, whatever is glued to the secrets', () => {
    fc.assert(
      fc.property(text, (input) => {
        const once = redactSecrets(input).text;
        expect(redactSecrets(once).text).toBe(once);
      }),
      { numRuns: 600 },
    );
  });

  it('a credential between spaces never survives, glued text or not around it', () => {
    fc.assert(
      fc.property(text, credential, text, (before, secret, after) => {
        const once = redactSecrets(`${before} ${secret} ${after}`).text;
        expect(once).not.toContain(secret);
        expect(redactSecrets(once).text).toBe(once);
      }),
      { numRuns: 400 },
    );
  });

  it('a PEM private key glued to the text before or after it is redacted whole', () => {
    fc.assert(
      fc.property(glue, pemKey, glue, (before, key, after) => {
        const once = redactSecrets(`${before}${key}${after}`).text;
        for (const line of key.split('\n').slice(1, -1)) expect(once).not.toContain(line);
        expect(once).not.toContain('BEGIN PRIVATE KEY');
      }),
      { numRuns: 200 },
    );
  });
});
