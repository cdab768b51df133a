import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

// `pw` is a password's name as much as `pwd` (`DB_PW`, `"pw":`, `adminPw`); the line scan that
// finds keyed values looked only for `pwd` and never read such a key.
const password = drawn('abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789', 10, 24).filter(
  (value) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value),
);
const name = fc.constantFrom('pw', 'PW', 'DB_PW', 'admin_pw', 'adminPw', 'SMTP_PW', 'mail.pw');
const forms: Array<(key: string, value: string) => string> = [
  (key, value) => `${key}=${value}`,
  (key, value) => `export ${key}="${value}"`,
  (key, value) => JSON.stringify({ user: 'ops', [key]: value }),
  (key, value) => `${key}: ${value}`,
  (key, value) => `config.${key} = '${value}';`,
];

describe('keys named pw', () => {
  it('hold a password (property)', () => {
    fc.assert(
      fc.property(name, password, fc.nat({ max: forms.length - 1 }), (key, value, form) => {
        expect(redactSecrets(forms[form]!(key, value)).text).not.toContain(value);
      }),
      { numRuns: 400 },
    );
  });

  it('leave commands that merely start with pw alone', () => {
    for (const text of ['pwsh -File build.ps1', 'cd /tmp && pwd', 'pwgen 16 1', 'pwconv']) {
      expect(redactSecrets(text).text).toBe(text);
    }
  });
});
