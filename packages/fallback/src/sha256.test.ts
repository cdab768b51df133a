import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { sha256 } from './index.js';

it('matches node:crypto SHA-256 for any message (block edges included)', () => {
  fc.assert(
    fc.property(fc.noBias(fc.uint8Array({ maxLength: 300 })), (message) => {
      expect(Buffer.from(sha256(message)).toString('hex')).toBe(
        createHash('sha256').update(message).digest('hex'),
      );
    }),
    { numRuns: 500 },
  );
});
