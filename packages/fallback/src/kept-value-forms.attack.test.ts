import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';
import { oneOf } from './test-utils/generated-values.js';

/**
 * Attack suite (reviewer, wt-attack4): GPG key names (`GPG_KEY`, `GPG_KEYS`, `gpg.key`) and
 * names of when something happened to a secret (`token_issued_at`, `password_changed_at`) were
 * kept whatever they held. On wt-lead, of drawn values the same rules redact under `api_key` or
 * `db_password`, 99-100 % of passwords and UUIDs stayed in the clear under those names
 * (bench/exemption-leaks.ts). Only a value of the form the name promises is kept now: key ids and
 * fingerprints, times.
 */
const passwordCharacters =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@%^*+=?~';
const password = drawn(passwordCharacters, 16, 28).filter(
  (value) => /[^A-Za-z0-9]/.test(value) && /[0-9]/.test(value),
);
const hex = (length: number) => drawn('0123456789abcdef', length, length);
const uuid = fc
  .tuple(hex(8), hex(4), hex(3), hex(3), hex(12))
  .map(([a, b, c, d, e]) => `${a}-${b}-4${c}-a${d}-${e}`);
const secret = fc.oneof(password, uuid);

const syntaxes = [
  (name: string, value: string) => `"${name}": "${value}",`,
  (name: string, value: string) => `${name}='${value}'`,
  (name: string, value: string) => `  ${name}: "${value}"`,
];

const cases = {
  gpg: {
    // Each name with a control read by the same rules, without what keeps its value's form.
    names: [
      ['GPG_KEY', 'APP_KEY'],
      ['GPG_KEYS', 'APP_KEYS'],
      ['PGP_KEY', 'APP_KEY'],
      ['gpgKey', 'appKey'],
      ['GPG_SIGNING_KEY', 'SIGNING_KEY'],
      ['gpg.key', 'app.key'],
    ],
    kept: fc.oneof(
      drawn('0123456789ABCDEF', 40, 40),
      drawn('0123456789ABCDEF', 16, 16).map((id) => `0x${id}`),
    ),
  },
  time: {
    names: [
      ['token_issued_at', 'token_issued_value'],
      ['PASSWORD_CHANGED_AT', 'PASSWORD_CHANGED_VALUE'],
      ['client_secret_expires_at', 'client_secret_expires_value'],
      ['apiKeyRotatedAt', 'apiKeyRotatedValue'],
    ],
    kept: fc.oneof(
      fc.noBias(fc.integer({ min: 1_000_000_000, max: 2_000_000_000 })).map(String),
      fc
        .noBias(fc.integer({ min: 0, max: 4_000_000_000_000 }))
        .map((ms) => new Date(ms).toISOString()),
    ),
  },
};

describe('attack: a key kept for its value form keeps only values of that form', () => {
  for (const [kind, { names, kept }] of Object.entries(cases)) {
    it(`${kind} names: a drawn password or UUID is redacted, a value of the promised form is kept`, () => {
      fc.assert(
        fc.property(
          oneOf(names),
          oneOf(syntaxes),
          secret,
          kept,
          ([name, control], syntax, value, form) => {
            fc.pre(!redactSecrets(syntax(control!, value)).text.includes(value));
            // A fingerprint that opens like an issuer's prefix (`EAA…`, Facebook's) is that rule's.
            fc.pre(redactSecrets(form).text === form);
            const plain = syntax(name!, form);
            return (
              !redactSecrets(syntax(name!, value)).text.includes(value) &&
              redactSecrets(plain).text === plain
            );
          },
        ),
        { numRuns: 200 },
      );
    });
  }

  it('a Dockerfile ENV GPG_KEY with a drawn password is redacted, with fingerprints kept', () => {
    fc.assert(
      fc.property(password, cases.gpg.kept, (value, fingerprint) => {
        fc.pre(!redactSecrets(`ENV APP_KEY ${value}`).text.includes(value));
        fc.pre(redactSecrets(fingerprint).text === fingerprint);
        const plain = `ENV GPG_KEYS ${fingerprint}`;
        expect(redactSecrets(plain).text).toBe(plain);
        return !redactSecrets(`ENV GPG_KEY ${value}`).text.includes(value);
      }),
      { numRuns: 100 },
    );
  });
});
