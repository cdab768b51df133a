import { BatonError } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { createSessionStore, StoreClosedError, StoreConnectionError } from './index.js';

// Built at run time: no literal credential in the repository.
const password = ['not', 'a', 'real', 'password'].join('-');

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('typed errors instead of driver errors', () => {
  it('refuses every call after close() with StoreClosedError', async () => {
    const store = await createSessionStore();
    const session = await store.createSession();
    await store.close();
    await store.close(); // idempotent
    for (const call of [
      () => store.getSession(session.id),
      () => store.createSession(),
      () => store.appendMessages(session.id, [{ role: 'user', content: 'late' }]),
      () => store.listSessions(),
      () => store.migrate(),
    ]) {
      const error = await caught(call());
      expect(StoreClosedError.isInstance(error), String(error)).toBe(true);
      expect((error as StoreClosedError).code).toBe('store_closed');
    }
  }, 60_000);

  it('wraps unreachable servers in StoreConnectionError without showing the password', async () => {
    const cases = [
      { url: `postgres://someone:${password}@nohost.invalid:5432/db`, reason: 'ENOTFOUND' },
      { url: `postgres://someone:${password}@127.0.0.1:1/db`, reason: 'ECONNREFUSED' },
    ];
    for (const { url, reason } of cases) {
      const error = await caught(createSessionStore({ connectionString: url }));
      expect(StoreConnectionError.isInstance(error), String(error)).toBe(true);
      const typed = error as StoreConnectionError;
      expect(BatonError.isInstance(typed)).toBe(true);
      expect(typed.reason).toBe(reason);
      expect(typed.cause).toBeDefined();
      expect(typed.message).not.toContain(password);
      expect(typed.target).not.toContain(password);
      expect(typed.target).toContain('***');

      // Without migrating on open, the first call is the one that fails, with the same error.
      const lazy = await createSessionStore({ connectionString: url, migrate: false });
      const later = await caught(lazy.listSessions());
      expect(StoreConnectionError.isInstance(later), String(later)).toBe(true);
      expect((later as StoreConnectionError).message).not.toContain(password);
      await lazy.close();
    }
  }, 60_000);
});
