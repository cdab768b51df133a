import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

const letters = fc
  .noBias(fc.integer({ min: 0, max: 25 }))
  .map((at) => 'abcdefghijklmnopqrstuvwxyz'[at]!);
const word = fc.noBias(fc.array(letters, { minLength: 2, maxLength: 8 })).map((w) => w.join(''));
// A credential word inside a file's name: the name, not a key, before a diagnostic's position.
const credential = fc.constantFrom('pwd', 'password', 'token', 'secret', 'auth', 'key', 'passwd');
const extension = fc.constantFrom('ts', 'py', 'go', 'rs', 'java', 'c', 'tsx', 'rb');
const separator = fc.constantFrom('_', '-', '.', '');
const position = fc.tuple(
  fc.noBias(fc.integer({ min: 1, max: 99_999 })),
  fc.noBias(fc.integer({ min: 1, max: 400 })),
);

describe('a diagnostic at a position in a file named for a credential', () => {
  it('keeps `<path>/<name>.<ext>:<line>:<column>: …` as written', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 0, maxLength: 3 }),
        word,
        separator,
        credential,
        extension,
        position,
        fc.constantFrom('error', 'warning', 'note'),
        (directories, stem, join, named, ext, [line, column], level) => {
          const path = [...directories, `${stem}${join}${named}.${ext}`].join('/');
          const text = `${path}:${line}:${column}: ${level}: ${stem} is not defined`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('still redacts a password given after the same name as a key', () => {
    fc.assert(
      fc.property(fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })), (seed) => {
        const value = pick(seededRandom(seed), alphabets.alnum, 20);
        expect(redactSecrets(`db_password: ${value}`).text).not.toContain(value);
        expect(redactSecrets(`config.pwd=${value}`).text).not.toContain(value);
      }),
      { numRuns: 100 },
    );
  });
});
