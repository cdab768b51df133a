import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

/**
 * Attack suite (reviewer, wt-attack3): `pointsElsewhere` reads any value made of `/` and name
 * characters as a file path. A base64 password (`openssl rand -base64 33`) starts with `/` one time
 * in 64 and holds no `+` about half of those times; passed to `docker run -e` it was redacted by
 * the parent build (4497495^1, 0 % leaked) and 10.3 % leak on wt-lead (40 seeds x 25 runs;
 * 0.3 % with `--rm` and `-p` around it).
 */
const base64WithoutPlus = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/';
const password = drawn(base64WithoutPlus, 43, 43).map((body) => `/${body}`);
const name = fc.constantFrom('DB_PASSWORD', 'POSTGRES_PASSWORD', 'REDIS_PASSWORD');

describe('attack: a generated password that starts with `/` is no file path', () => {
  it('is redacted in docker run -e NAME=<value>', () => {
    fc.assert(
      fc.property(name, password, (key, value) => {
        // The same password without its leading `/` must be one the rules redact (a drawn body
        // that opens like a JPEG's base64, `/9j/`, is file bytes either way).
        const control = `docker run -e ${key}=${value.slice(1)} postgres`;
        fc.pre(!redactSecrets(control).text.includes(value.slice(1)));
        // Stripping the `/` also strips a JPEG's signature: a drawn `/9j/…` is judged as image
        // bytes with it and as a password without it, so the control says nothing there.
        fc.pre(!value.startsWith('/9j/'));
        const text = `docker run -e ${key}=${value} postgres`;
        expect(redactSecrets(text).text).not.toContain(value);
      }),
      { numRuns: 400, endOnFailure: true },
    );
  });
});
