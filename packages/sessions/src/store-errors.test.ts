import { BatonError } from '@baton/tokens';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createSessionStore,
  type SessionStore,
  StoreClosedError,
  StoreConnectionError,
} from './index.js';
import {
  createTestDatabase,
  describePostgres,
  type TestDatabase,
} from './test-utils/postgres-database.js';

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

/**
 * close() while calls are in flight, more of them than the store has connections: every call settles
 * (none pends forever), each one either completed (and its rows are stored) or rejected with
 * StoreClosedError (and wrote nothing).
 */
async function closeRacingAppends(
  open: () => Promise<SessionStore>,
  reopen: () => Promise<SessionStore>,
): Promise<void> {
  const store = await open();
  const sessions = await Promise.all(Array.from({ length: 12 }, () => store.createSession()));
  const appends = sessions.map((session, index) =>
    store.appendMessages(session.id, [{ role: 'user', content: `racing ${index}` }]),
  );
  const closing = store.close();
  const timeout = new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 15_000));
  const outcomes = await Promise.race([Promise.allSettled(appends), timeout]);
  expect(outcomes, 'an append racing close() never settled').not.toBe('pending');
  await closing;
  const settled = outcomes as PromiseSettledResult<unknown>[];
  const rejected = settled.filter((outcome) => outcome.status === 'rejected');
  for (const outcome of rejected) {
    expect(StoreClosedError.isInstance(outcome.reason), String(outcome.reason)).toBe(true);
  }
  const check = await reopen();
  try {
    for (const [index, session] of sessions.entries()) {
      const stored = await check.getMessages(session.id);
      expect(stored.length).toBe(settled[index]!.status === 'fulfilled' ? 1 : 0);
    }
  } finally {
    await check.close();
  }
}

describe('close() racing calls (PGlite)', () => {
  it('settles every racing append: done and stored, or StoreClosedError and nothing written', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = mkdtempSync(join(tmpdir(), 'baton-close-race-'));
    try {
      await closeRacingAppends(
        () => createSessionStore({ dataDir }),
        () => createSessionStore({ dataDir }),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describePostgres('close() racing calls (PostgreSQL)', () => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });

  it('settles every racing append: done and stored, or StoreClosedError and nothing written', async () => {
    database = await createTestDatabase('close_race');
    const { connectionString } = database;
    // Fewer connections than calls: some wait for a connection when close() ends the pool.
    await closeRacingAppends(
      () => createSessionStore({ connectionString, maxConnections: 2 }),
      () => createSessionStore({ connectionString }),
    );
  }, 60_000);
});
