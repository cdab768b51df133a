import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

/**
 * Attack suite (reviewer, wt-attack3): `keyIsSecret` now asks only a dotted key's last part for a
 * not-secret word, so `<word>.key` no longer reads as the compound `<word>_key` (`public.key` is a
 * public key, `cache.key` a cache key, `idempotency.key` a request id). Each line below is kept by
 * the parent build (4497495^1) and redacted on wt-lead.
 */
const pick = <T>(items: readonly T[]) =>
  fc.noBias(fc.integer({ min: 0, max: items.length - 1 })).map((at) => items[at]!);
const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const hex = '0123456789abcdef';
// An RSA public key's SubjectPublicKeyInfo: a fixed header, then the random-looking modulus.
const publicKey = drawn(base64, 300, 300).map(
  (body) => `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${body}IDAQAB`,
);

const lines: Record<string, fc.Arbitrary<string>> = {
  'a public key under <prefix>.public.key (YAML / properties)': fc
    .tuple(pick(['jwt', 'auth.jwt', 'oauth', 'license']), publicKey)
    .map(([prefix, key]) => `${prefix}.public.key: ${key}`),
  'a digest under <prefix>.cache.key': fc
    .tuple(pick(['build', 'ci', 'deps']), drawn(hex, 64, 64))
    .map(([prefix, digest]) => `${prefix}.cache.key=${digest}`),
  'a UUID under idempotency.key': fc.noBias(fc.uuid()).map((id) => `request.idempotency.key=${id}`),
  'a table key under <table>.partition.key / sort.key': fc
    .tuple(pick(['orders', 'events']), pick(['partition', 'sort']), drawn(hex, 16, 24))
    .map(([table, kind, value]) => `${table}.${kind}.key=tenant_${value}`),
};

describe('attack: a dotted key whose last two parts name a non-secret key', () => {
  for (const [shape, line] of Object.entries(lines)) {
    it(`keeps ${shape}`, () => {
      fc.assert(
        fc.property(line, (text) => {
          expect(redactSecrets(text).text).toBe(text);
        }),
        { numRuns: 200, endOnFailure: true },
      );
    });
  }
});
