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
const pick = <T>(items: readonly T[]) =>
  fc.noBias(fc.integer({ min: 0, max: items.length - 1 })).map((at) => items[at]!);
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const secret = drawn(`${alnum}-_`, 20, 40).filter(
  (v) => /\d/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v) && !/^[-_]|[-_]$/.test(v),
);
const name = pick([
  'API_TOKEN',
  'DB_PASSWORD',
  'STRIPE_SECRET_KEY',
  'GITHUB_TOKEN',
  'CLIENT_SECRET',
]);

const forms: Record<string, (n: string, v: string) => string> = {
  'gh secret set -R owner/repo NAME --body v': (n, v) =>
    `gh secret set -R acme/api ${n} --body ${v}`,
  'gh secret set NAME --env production --body v': (n, v) =>
    `gh secret set ${n} --env production --body "${v}"`,
  'gh secret set NAME --repo owner/repo -b v': (n, v) =>
    `gh secret set ${n} --repo acme/api -b ${v}`,
  'gh secret set NAME -b"v"': (n, v) => `gh secret set ${n} -b"${v}"`,
  'ENV NAME \\ newline v': (n, v) => `ENV ${n} \\\n    ${v}`,
  'set -gx NAME \\ newline v': (n, v) => `set -gx ${n} \\\n    ${v}`,
  'set -gx NAME -- v': (n, v) => `set -gx ${n} -- ${v}`,
};

describe('attack: variable-setting commands with flags, continuations or `--`', () => {
  for (const [form, write] of Object.entries(forms)) {
    it(`redacts the value in ${form}`, () => {
      fc.assert(
        fc.property(name, secret, (n, v) => {
          expect(redactSecrets(write(n, v)).text).not.toContain(v);
        }),
        { numRuns: 300, endOnFailure: true },
      );
    });
  }
});

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
