import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprintMessages } from './fingerprint-messages.js';
import { storedFingerprint, storedFingerprintMatches } from './stored-fingerprint.js';

const newKey = (): Uint8Array => crypto.getRandomValues(new Uint8Array(32));
const ask = (secret: string) => [{ role: 'user', content: `my password is ${secret}` }];

describe('storedFingerprint and storedFingerprintMatches', () => {
  it('seal under a key, match only under it, and still take the bare legacy form (property)', () => {
    const key = newKey();
    const other = newKey();
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (secret, guess) => {
        const bare = fingerprintMessages(ask(secret));
        const sealed = storedFingerprint(bare, key);
        // What a reader of the store gets: not the bare hash, nor one a guess reproduces.
        expect(sealed).not.toContain(bare);
        expect(sealed).not.toBe(storedFingerprint(bare, other));
        expect(storedFingerprintMatches(sealed, bare, key)).toBe(true);
        expect(storedFingerprintMatches(sealed, bare, other)).toBe(false);
        expect(storedFingerprintMatches(sealed, bare, undefined)).toBe(false);
        // Rows written before the seal, or without a key: bare, still matched (key or not).
        expect(storedFingerprint(bare, undefined)).toBe(bare);
        expect(storedFingerprintMatches(bare, bare, key)).toBe(true);
        expect(storedFingerprintMatches(bare, bare, undefined)).toBe(true);
        if (guess !== secret) {
          const wrong = fingerprintMessages(ask(guess));
          expect(storedFingerprintMatches(sealed, wrong, key)).toBe(false);
          expect(storedFingerprintMatches(bare, wrong, key)).toBe(false);
        }
      }),
    );
  });
});
