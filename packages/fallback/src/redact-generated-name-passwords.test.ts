import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

// Kubernetes generated names (`web-x2k4p`, `api-7d9f8b6c5d-x2k4p`) are kept in tool output as
// names. A value of that shape is still a password where a syntax says so: `.netrc`'s
// `password <value>`, a command line's `-p<value>`, a URL's user info, `curl -u user:<value>`.
const safe = 'bcdfghjklmnpqrstvwxz2456789';
const name = fc
  .tuple(
    drawn('abcdefghijklmnopqrstuvwxyz', 3, 10),
    fc.option(drawn(safe, 8, 10), { nil: undefined }),
    drawn(safe, 5, 5),
  )
  .map(([label, hash, suffix]) => (hash ? `${label}-${hash}-${suffix}` : `${label}-${suffix}`));

const passwordForms: Array<(value: string) => string> = [
  (value) => `machine build.example.com login ci password ${value}`,
  (value) => `machine build.example.com\n  login ci\n  password ${value}\n`,
  (value) => `mysql -u root -p${value} app`,
  (value) => `sshpass -p ${value} ssh deploy@host`,
  (value) => `psql postgres://app:${value}@db.example.com:5432/app`,
  (value) => `curl -u ci:${value} https://ci.example.com/api`,
];

describe('a generated name in a password position', () => {
  it('is redacted where a syntax names it a password (property)', () => {
    fc.assert(
      fc.property(name, fc.nat({ max: passwordForms.length - 1 }), (value, form) => {
        expect(redactSecrets(passwordForms[form]!(value)).text).not.toContain(value);
      }),
      { numRuns: 400 },
    );
  });

  it('is still kept where tool output names a pod (property)', () => {
    fc.assert(
      fc.property(name, (value) => {
        for (const text of [`kubectl logs ${value}`, `pod/${value} created`]) {
          expect(redactSecrets(text).text).toBe(text);
        }
      }),
      { numRuns: 200 },
    );
  });
});
