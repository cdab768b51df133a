import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { readsAsWords } from './secret-heuristics.js';
import { drawn } from './test-utils/drawn.js';

const keys = fc.constantFrom('password', 'DB_PASSWORD', 'secret_key', 'API_TOKEN', 'client_secret');
const forms: Array<(key: string, value: string) => string> = [
  (k, v) => `| ${k} | ${v} |`,
  (k, v) => `| \`${k}\` | \`${v}\` |`,
  (k, v) => `${k}: ${v}`,
  (k, v) => `${k} = ${v}`,
];
const form = fc.noBias(fc.nat(forms.length - 1)).map((at) => forms[at]!);
// `key = --flag` is left out of the control: the connection-string rule reads `Password=<value>`
// whatever it holds (a separate reading, not this one).
const spaced = fc.noBias(fc.nat(2)).map((at) => forms[at]!);
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base64url = `${letters}0123456789-_`;
const words = fc.constantFrom(
  ...'from env file password stdin prompt ask pass secret read vault keyring'.split(' '),
);

describe('a value under a secret-naming key that starts with `--`', () => {
  it('is redacted when the rest names no option (a random value may start `--`)', () => {
    let judged = 0;
    fc.assert(
      fc.property(
        keys,
        drawn(letters, 1, 1),
        drawn(base64url, 7, 40),
        form,
        (key, first, rest, wrap) => {
          const bare = `${first}${rest}`;
          // Premise: what follows the dashes names no option in words, and is redacted as a value
          // without them (filler such as `AAAAAAAa` is kept either way).
          if (readsAsWords(bare) || redactSecrets(wrap(key, bare)).text.includes(bare)) return;
          judged++;
          expect(redactSecrets(wrap(key, `--${bare}`)).text).not.toContain(`--${bare}`);
        },
      ),
      { numRuns: 400 },
    );
    expect(judged).toBeGreaterThan(300);
  });

  it('is kept when it names an option in words (`--from-env`, `--password-stdin`)', () => {
    // Control: a flag is how the value is given, not the value.
    fc.assert(
      fc.property(
        keys,
        fc.array(words, { minLength: 1, maxLength: 3 }),
        spaced,
        (key, parts, wrap) => {
          const text = wrap(key, `--${parts.join('-')}`);
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
