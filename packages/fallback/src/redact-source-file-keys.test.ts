import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { pronounceableWord } from './test-utils/generated-values.js';

// Found by a CI seed (`cannot open aa0/pw00.ts: a0a aa1`, a receipt test): a source file named
// like a secret (`pwd.ts`, `token_store.py`) before a colon and its diagnostic read as a key and
// its value, and the diagnostic was redacted.
const runs = Number(process.env.BATON_LEAK_RUNS ?? 100);
const secretWord = fc.constantFrom('pwd', 'pw00', 'password', 'secret', 'token', 'auth', 'api_key');
const sourceExtension = fc.constantFrom('ts', 'tsx', 'js', 'mjs', 'py', 'go', 'rs', 'java', 'rb');
const folder = fc.constantFrom('', 'src/', 'aa0/', './lib/', 'C:\\\\app\\\\');
const typed = fc
  .tuple(
    pronounceableWord,
    fc.noBias(fc.integer({ min: 10, max: 9999 })),
    fc.constantFrom('!', '#', '%'),
  )
  .map(([word, digits, symbol]) => `${word[0]!.toUpperCase()}${word.slice(1)}${digits}${symbol}`);

describe('a source file named like a secret, then its diagnostic', () => {
  it('keeps the diagnostic', () => {
    fc.assert(
      fc.property(
        folder,
        secretWord,
        sourceExtension,
        fc.array(pronounceableWord, { minLength: 1, maxLength: 4 }),
        (where, name, extension, words) => {
          const text = `cannot open ${where}${name}.${extension}: ${words.join(' ')}`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: runs },
    );
  });

  it('control: a text file or a dotted key holding a typed password still loses it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('password.txt', 'secret.txt', 'db.password', 'app.secret', 'pass.txt'),
        typed,
        (key, value) => {
          expect(redactSecrets(`${key}: ${value}`).text).not.toContain(value);
        },
      ),
      { numRuns: runs },
    );
  });
});
