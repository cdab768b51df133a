import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createSessionStore, StoreConnectionError } from './index.js';

// Built at run time: no literal credential in the repository.
const password = ['not', 'a', 'real', 'password'].join('-');

describe('a connection string pg cannot parse', () => {
  it('is a StoreConnectionError (ERR_INVALID_URL), not a raw TypeError, and never shows the password', async () => {
    for (const url of [
      `postgres://someone:${password}@[not-an-ip/db`,
      `postgres://someone:${password}@host:99999999/db`,
    ]) {
      const error = await createSessionStore({ connectionString: url }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(StoreConnectionError.isInstance(error), String(error)).toBe(true);
      expect((error as StoreConnectionError).reason).toBe('ERR_INVALID_URL');
      expect(inspect(error, { depth: Number.POSITIVE_INFINITY })).not.toContain(password);
    }
  });
});
