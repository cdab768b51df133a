import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { hmacSha256Hex } from './hmac-sha256.js';

it('matches node:crypto HMAC-SHA-256 for any key and message (block edges included)', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 150 }),
      fc.uint8Array({ maxLength: 300 }),
      (key, message) => {
        expect(hmacSha256Hex(key, message)).toBe(
          createHmac('sha256', key).update(message).digest('hex'),
        );
      },
    ),
    { numRuns: 500 },
  );
});
