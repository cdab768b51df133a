import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from './decode-base64.js';

const reference = (value: string): string | undefined => {
  try {
    return atob(value);
  } catch {
    return undefined;
  }
};

describe('decodeBase64', () => {
  it('equals atob, or undefined where atob throws (property)', () => {
    // Base64 and base64url characters, padding in any place, ASCII whitespace, and characters
    // atob refuses (`.`, `~`, `-`, `_`, non-ASCII), at any length (length mod 4 decides too).
    const unit = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/==== \t\n\r\f.~-_é\u0000'.split(
        '',
      ),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const value = units.join('');
        expect(decodeBase64(value)).toBe(reference(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it('decodes what btoa encoded (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const binary = String.fromCharCode(...bytes);
        expect(decodeBase64(btoa(binary))).toBe(binary);
      }),
      { numRuns: 1_000 },
    );
  });
});
