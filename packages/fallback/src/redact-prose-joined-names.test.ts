import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { redactSecrets } from './index.js';
import { oneOf, randomValue } from './test-utils/generated-values.js';

// Issue 11: a sentence stating a secret by its full name (`the auth_token is …`, `db-password
// was …`) leaked whenever the secret word was joined to the name's other parts by `_`, `-` or `.`.
const values = randomValue(
  [alphabets.alnum, alphabets.base64url, alphabets.hex, alphabets.lowerAlnum],
  8,
  48,
);
const owners = fc.constantFrom('auth', 'db', 'admin', 'client', 'refresh', 'prod', 'api', 'ci');
// `<name>_key` alone is left out: data models name keys that are no secret (`hash_key is GSI1PK`).
const words = fc.constantFrom('token', 'password', 'secret', 'passwd', 'secret_key');
const joiners = fc.constantFrom('_', '-', '.');
const upper = fc.boolean();
const sentences: Array<(name: string, value: string) => string> = [
  (name, value) => `the ${name} is ${value}`,
  (name, value) => `My ${name} was ${value}.`,
  (name, value) => `the ${name} for prod = ${value}`,
  (name, value) => `${name} is now ${value}`,
  (name, value) => `The ${name} for staging is now ${value}, please rotate it.`,
  (name, value) => `${name} has been reset to ${value}`,
];
const sentence = oneOf(sentences);

describe('prose naming a secret by a joined name', () => {
  it('a value stated after `<owner>_<secret word> is` is redacted whenever one after `the password is` is', () => {
    let judged = 0;
    fc.assert(
      fc.property(
        values,
        owners,
        joiners,
        words,
        upper,
        sentence,
        (value, owner, joiner, word, capitals, say) => {
          // The same value stated under a plain secret word is the baseline.
          if (redactSecrets(`the password is ${value}`).text.includes(value)) return;
          judged++;
          const joined = `${owner}${joiner}${word}`;
          const name = capitals ? joined.toUpperCase() : joined;
          const out = redactSecrets(say(name, value)).text;
          expect(out.includes(value), `${name} leaked`).toBe(false);
          expect(out).toContain(name);
        },
      ),
      { numRuns: 400 },
    );
    expect(judged).toBeGreaterThan(300);
  });

  it('names that are no secret, placeholders and code stay', () => {
    const kept = [
      'the csrf_token is a1B2c3D4e5F6g7H8i9',
      'the public_key is k9Xz2Lq7Wm4Rt8Yp3',
      'the primary_key is user_id',
      'the fake_secret is abc',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell template in the text under test
      'the db_password is ${DB_PASSWORD}',
      'the auth_token is <your-token-here>',
      'the auth_token is getToken()',
      'the api_key is xxxxxxxxxxxx',
      'the cache_key is Zq8Lw3Nx5Vr2Tb9',
      'the sort_key is createdAt',
      'the auth_token is required for every call.',
    ];
    for (const text of kept) expect(redactSecrets(text).text).toBe(text);
  });
});
