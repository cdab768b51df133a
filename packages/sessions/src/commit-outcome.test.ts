import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CompactionConflictError,
  createSessionStore,
  type SessionStore,
  StoreConnectionError,
} from './index.js';
import { type CuttingProxy, startCuttingProxy } from './test/cutting-proxy.js';
import { describePrivatePostgres } from './test/private-postgres.js';

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => ({ resolvedUnexpectedly: value }),
    (error: unknown) => error,
  );
}

const compaction = {
  messages: [{ role: 'user' as const, content: 'summary of a' }],
  summary: 'a',
  strategy: 'receipt',
  usedFallback: false,
  tokensBefore: 2,
  tokensAfter: 1,
};

/**
 * The documented contract of StoreConnectionError was "nothing of the call is written". A
 * connection that breaks after the server committed (the reply to COMMIT lost) breaks it: before the
 * fix the call rejected exactly like a failure before COMMIT, though its rows were stored, so a caller
 * trusting the error would append again (a duplicate without `startSequence`) or treat its own
 * compaction as another process's. The error now says which of the two it is: `outcomeUnknown`.
 */
describePrivatePostgres(
  'a connection cut during COMMIT (private PostgreSQL behind a proxy)',
  (server) => {
    let proxy: CuttingProxy;
    let store: SessionStore;

    beforeAll(async () => {
      proxy = await startCuttingProxy(server().port);
      store = await createSessionStore({
        connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`,
      });
    }, 120_000);

    afterAll(async () => {
      await store?.close();
      await proxy?.close();
    });

    it('control: cut before COMMIT, nothing is written and the error says so', async () => {
      const session = await store.createSession();
      for (const [label, call] of [
        ['append', () => store.appendMessages(session.id, [{ role: 'user', content: 'a' }])],
        ['compaction', () => store.recordCompaction(session.id, compaction)],
      ] as const) {
        proxy.cut = 'insert';
        const error = await caught(call());
        proxy.cut = undefined;
        expect(StoreConnectionError.isInstance(error), `${label}: ${String(error)}`).toBe(true);
        expect((error as StoreConnectionError).outcomeUnknown, label).toBe(false);
      }
      expect(await store.getMessages(session.id)).toEqual([]);
      expect(await store.getCompaction(session.id)).toBeUndefined();
    }, 60_000);

    it('cut after the server committed: outcomeUnknown, and the documented retries resolve it', async () => {
      const session = await store.createSession();
      const before = proxy.cuts;

      proxy.cut = 'commit';
      const appendError = await caught(
        store.appendMessages(session.id, [{ role: 'user', content: 'a' }], { startSequence: 0 }),
      );
      proxy.cut = undefined;
      // Premise: the cut happened at COMMIT and the server did commit.
      expect(proxy.cuts).toBe(before + 1);
      expect((await store.getMessages(session.id)).map((row) => row.message)).toEqual([
        { role: 'user', content: 'a' },
      ]);
      expect(StoreConnectionError.isInstance(appendError), String(appendError)).toBe(true);
      expect((appendError as StoreConnectionError).outcomeUnknown).toBe(true);
      expect((appendError as Error).message).toContain('may have been written');
      // The retry with startSequence writes nothing twice.
      expect(
        await store.appendMessages(session.id, [{ role: 'user', content: 'a' }], {
          startSequence: 0,
        }),
      ).toEqual({ appended: 0, skipped: 1, nextSequence: 1 });

      const childId = crypto.randomUUID();
      proxy.cut = 'commit';
      const compactionError = await caught(
        store.recordCompaction(session.id, compaction, { childId, expectedMessageCount: 1 }),
      );
      proxy.cut = undefined;
      expect(StoreConnectionError.isInstance(compactionError), String(compactionError)).toBe(true);
      expect((compactionError as StoreConnectionError).outcomeUnknown).toBe(true);
      expect((await store.getCompaction(session.id))?.childSessionId).toBe(childId);
      // Retried with the same childId: the conflict names this call's own child.
      const retry = await caught(
        store.recordCompaction(session.id, compaction, { childId, expectedMessageCount: 1 }),
      );
      expect(CompactionConflictError.isInstance(retry), String(retry)).toBe(true);
      expect((retry as CompactionConflictError).childSessionId).toBe(childId);
    }, 60_000);
  },
);
