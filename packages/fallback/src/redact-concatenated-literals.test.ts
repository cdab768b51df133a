import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { redactSecrets } from './index.js';
import { oneOf, randomValue } from './test-utils/generated-values.js';

// A long literal split over lines by concatenation (`"abc" +` / `"def"`, Python's implicit
// `("abc"` / `"def")`, PHP's `.`). Before, the first piece was judged under the key and the rest,
// on lines of their own, were left: half or more of the credential in the clear.
const key = oneOf(['api_key', 'API_TOKEN', 'secret', 'password', 'clientSecret']);
const assign = oneOf([' = ', ': ', ' := ']);
const joiner = oneOf([' +\n  ', '\n  ', ' .\n    ', '\n  + ']);
// Letters and digits, at most 16, and none found alone (a piece may open with an issuer's mark
// by chance, `AP…`): the pieces are secrets only by the key they are joined under.
const pieces = fc
  .noBias(fc.array(randomValue([alphabets.alnum], 10, 16), { minLength: 2, maxLength: 4 }))
  .filter((parts) => parts.every((part) => redactSecrets(`"${part}"`).findings.length === 0));
const code = (name: string, sep: string, join: string, parts: string[], open: string) =>
  `${name}${sep}${open}${parts.map((part) => `"${part}"`).join(join)}${open ? ')' : ''};`;

describe('a secret literal concatenated over lines', () => {
  it('is redacted in every piece, as one value (property)', () => {
    fc.assert(
      fc.property(key, assign, joiner, pieces, oneOf(['', '(']), (name, sep, join, parts, open) => {
        const text = code(name, sep, join, parts, open);
        // Premise: a later piece on its line alone is not found.
        const later = parts[parts.length - 1]!;
        expect(redactSecrets(`  "${later}"`).text).toContain(later);
        const output = redactSecrets(text).text;
        for (const part of parts) expect(output).not.toContain(part);
        // The assignment stays (a YAML-like `key: "a"` / `  "b"` may lose its quotes with the value).
        expect(output.startsWith(`${name}${sep}`)).toBe(true);
      }),
      { numRuns: 600 },
    );
  });

  it('is kept under a name that is no secret (control)', () => {
    fc.assert(
      fc.property(assign, joiner, pieces, (sep, join, parts) => {
        const text = code('build_label', sep, join, parts, '');
        expect(redactSecrets(text).text).toContain(parts[parts.length - 1]!);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves messages split over lines alone', () => {
    for (const text of [
      'message = ("The password must contain " +\n           "at least 12 characters")',
      'token: "abc" +\n "def"',
      'String apiKey = config.get("api.key") +\n    config.get("api.suffix");',
    ]) {
      expect(redactSecrets(text).text).toBe(text);
    }
  });
});
