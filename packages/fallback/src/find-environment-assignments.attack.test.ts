import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

/**
 * Attack suite (reviewer, wt-attack3): the same commands as the new rule reads, written with
 * flags where real scripts put them, a line continuation or `--`. On wt-lead 20.8 % of these
 * random values leak (40 seeds x 25 runs: the share the generic token rule misses, all of it),
 * against 0 % in the forms the rule reads (`gh secret set NAME --body v`, `ENV NAME v`).
 */
// Forms the rule does not read yet (`gh secret set -R o/r NAME --body v`, `--env x --body`,
// `-b"v"`, a value on the line after `ENV NAME \\` or `set -gx NAME \\`, `set -gx NAME -- v`): 20.8 %
// of these values leak, as before the rule; listed in the README's Limits, not tested here.

describe('attack: a public key fingerprint set with a space is kept', () => {
  // Official python / php images: `ENV GPG_KEY <fingerprint>`, `ENV GPG_KEYS <fpr> <fpr>`; fish
  // configs set the same. Kept by the parent in this form (0 % -> 100 %); note the parent already
  // redacts `ENV GPG_KEY=<fingerprint>` (pre-existing, same class).
  const fingerprint = drawn('0123456789ABCDEF', 40, 40);
  const lines = [
    (f: string, _g: string) => `ENV GPG_KEY ${f}`,
    (f: string, g: string) => `ENV GPG_KEYS ${f} ${g}`,
    (f: string, _g: string) => `set -gx GPG_KEY ${f}`,
  ];
  it('in a Dockerfile or fish', () => {
    fc.assert(
      fc.property(fingerprint, fingerprint, fc.noBias(fc.nat(lines.length - 1)), (f, g, at) => {
        const text = lines[at]!(f, g);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });
});
