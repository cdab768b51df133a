import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';
import { pronounceableWord } from './test-utils/generated-values.js';

// Variable names of pronounceable words nobody listed (`lomit_pinas`), as code names its values:
// two words at least (one bare word under a password key may be the password itself).
const word = pronounceableWord;
const variable = fc
  .noBias(fc.array(word, { minLength: 2, maxLength: 3 }))
  .map((words) => words.join('_'))
  .filter((name) => !/null|none|todo|test|sample|dummy|example|secret|pass|token|key/.test(name));
// How code hands a variable to a password parameter: a member, a setting, a name ending in the
// secret word. (A bare word under a password key may be the password itself, in code or in a
// log line that prints the arguments; the keyed rules redact it, as they did.)
const reference = fc.oneof(
  variable.map((name) => `self.${name}`),
  variable.map((name) => `settings.${name.toUpperCase()}`),
  fc.tuple(word, word).map(([a, b]) => `config.${a}.${b}`),
  word.map((name) => `${name}_password`),
);
const key = fc.constantFrom('password', 'pwd', 'Password', 'db_password');
const call = (before: string, argument: string, after: string) =>
  `conn = connect(${before}=u, ${argument}, ${after}=h)`;

describe('a password passed as a keyword argument', () => {
  it('is left alone when the argument names a variable (property)', () => {
    // Before: read as a connection string's `Password=` value, comma included, and redacted.
    fc.assert(
      fc.property(variable, key, reference, variable, (before, name, value, after) => {
        const text = call(before, `${name}=${value}`, after);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('is redacted when the argument is a literal (property)', () => {
    const seeds = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));
    fc.assert(
      fc.property(
        seeds,
        fc.noBias(fc.integer({ min: 10, max: 32 })),
        key,
        fc.constantFrom('', '"', "'"),
        (seed, length, name, quote) => {
          const value = pick(seededRandom(seed), alphabets.alnum, length);
          const text = call('user', `${name}=${quote}${value}${quote}`, 'host');
          expect(redactSecrets(text).text).not.toContain(value);
        },
      ),
      { numRuns: 500 },
    );
  });
});
