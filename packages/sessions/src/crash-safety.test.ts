import { fork } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSessionStore, SessionNotFoundError, type SessionStore } from './index.js';
import { compactResult, userMessages } from './test/index.js';
import {
  createTestDatabase,
  describePostgres,
  type TestDatabase,
} from './test-utils/postgres-database.js';
import { workerExecArgv } from './test-utils/worker-exec-argv.js';

const workerPath = fileURLToPath(new URL('./__fixtures__/crash-worker.ts', import.meta.url));

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * The worker's transaction is made to stop at a chosen step by a lock the test holds on the table the
 * step writes to: `baton_messages` (the child session row is already written) or `baton_compactions`
 * (the child and all its messages are written). The worker is SIGKILLed while it waits there.
 */
describePostgres('SIGKILL in the middle of recordCompaction (PostgreSQL)', () => {
  let database: TestDatabase;
  let store: SessionStore;
  // `admin` holds the blocking lock in a transaction; `monitor` watches from outside it, because
  // pg_stat_activity is a snapshot frozen for the length of a transaction.
  let admin: pg.Client;
  let monitor: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase('crash');
    store = await createSessionStore({ connectionString: database.connectionString });
    admin = new pg.Client({ connectionString: database.connectionString });
    monitor = new pg.Client({ connectionString: database.connectionString });
    await Promise.all([admin.connect(), monitor.connect()]);
  }, 60_000);

  afterAll(async () => {
    await admin?.end();
    await monitor?.end();
    await store?.close();
    await database?.drop();
  });

  for (const blockedTable of ['baton_messages', 'baton_compactions']) {
    it(`leaves no partial lineage when killed while writing to ${blockedTable}`, async () => {
      const parent = await store.createSession();
      const history = userMessages(50);
      await store.appendMessages(parent.id, history);
      const childId = `crash-child-${crypto.randomUUID()}`;
      const applicationName = `baton-crash-${process.pid}-${blockedTable}`;
      const url = new URL(database.connectionString);
      url.searchParams.set('application_name', applicationName);

      await admin.query('begin');
      await admin.query(`lock table ${blockedTable} in share mode`);
      const worker = fork(workerPath, [url.toString(), parent.id, childId, '300'], {
        execArgv: workerExecArgv,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        worker.once('exit', (_code, signal) => resolve(signal)),
      );
      let committed = false;
      worker.on('message', (message: { type: string }) => {
        if (message.type === 'committed') committed = true;
      });
      try {
        // The worker's backend is inside its transaction, waiting for our lock.
        const pidOfBackend = await waitFor('the worker to block on the lock', async () => {
          const { rows } = await monitor.query<{ pid: number }>(
            `select pid from pg_stat_activity
             where application_name = $1 and wait_event_type = 'Lock' and state = 'active'`,
            [applicationName],
          );
          return rows[0]?.pid;
        });
        // Proof that it already wrote part of the compaction: it holds write locks on earlier tables.
        const { rows: held } = await monitor.query<{ relname: string }>(
          `select c.relname from pg_locks l join pg_class c on c.oid = l.relation
           where l.pid = $1 and l.granted and l.mode = 'RowExclusiveLock'`,
          [pidOfBackend],
        );
        expect(held.map((row) => row.relname)).toContain('baton_sessions');
        if (blockedTable === 'baton_compactions') {
          expect(held.map((row) => row.relname)).toContain('baton_messages');
        }
        worker.kill('SIGKILL');
        expect(await exited).toBe('SIGKILL');
      } finally {
        await admin.query('rollback');
      }
      // Once the server notices the dead client, its transaction is rolled back.
      await waitFor('the killed backend to go away', async () => {
        const { rows } = await monitor.query(
          'select 1 from pg_stat_activity where application_name = $1',
          [applicationName],
        );
        return rows.length === 0 ? true : undefined;
      });
      expect(committed).toBe(false);

      const after = await store.getSession(parent.id);
      expect(after.endedAt).toBeNull();
      expect(after.endReason).toBeNull();
      expect(await store.getCompaction(parent.id)).toBeUndefined();
      await expect(store.getSession(childId)).rejects.toSatisfy(SessionNotFoundError.isInstance);
      const { rows: orphans } = await admin.query(
        'select count(*)::int as n from baton_messages where session_id = $1',
        [childId],
      );
      expect(orphans[0].n).toBe(0);
      expect((await store.lineage(parent.id)).map((session) => session.id)).toEqual([parent.id]);
      expect((await store.getMessages(parent.id)).map((row) => row.message)).toEqual(history);

      // The parent is intact and compacts normally afterwards, even reusing the dead attempt's id.
      const { child } = await store.recordCompaction(parent.id, compactResult(history), {
        childId,
      });
      expect((await store.resume(parent.id)).session.id).toBe(child.id);
    }, 60_000);
  }
});
