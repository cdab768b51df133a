import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from './index.js';
import { userMessages } from './test/index.js';
import { describePrivatePostgres } from './test/private-postgres.js';
import { startCompactionWorker } from './test-utils/compaction-worker.js';

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Two processes compact the same parent while the server dies (an immediate stop: no checkpoint,
 * crash recovery on restart) or one of their connections is dropped, with both transactions open.
 * The compaction of the first is held at its last insert by a lock this test takes, the second
 * waits on the parent's row lock: both are inside their transactions when the fault strikes.
 * Whatever each call answers, after the restart the parent has at most one child, its raw history
 * is whole, and compacting again from both processes ends with exactly one child.
 */
describePrivatePostgres(
  'server killed or connection dropped while two processes compact one parent',
  (server) => {
    let workers: ReturnType<typeof startCompactionWorker>[] = [];
    let store: SessionStore;

    beforeAll(async () => {
      const setup = await createSessionStore({ connectionString: server().connectionString });
      await setup.close();
      store = await createSessionStore({ connectionString: server().connectionString });
      workers = [0, 1].map((index) => {
        const url = new URL(server().connectionString);
        url.searchParams.set('application_name', `baton-kill-race-${index}`);
        return startCompactionWorker(url.toString());
      });
      await Promise.all(workers.map((worker) => worker.ready));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.close()));
      await store?.close();
    });

    const faults = [
      'server killed',
      'first connection dropped',
      'second connection dropped',
    ] as const;
    const rounds = 6;
    it(`one child per parent after each fault, ${rounds} rounds`, async () => {
      for (let round = 0; round < rounds; round++) {
        const fault = faults[round % faults.length]!;
        const parent = await store.createSession({ title: `race ${round}` });
        const history = userMessages(30);
        await store.appendMessages(parent.id, history);

        const admin = new pg.Client({ connectionString: server().connectionString });
        const monitor = new pg.Client({ connectionString: server().connectionString });
        await Promise.all([admin.connect(), monitor.connect()]);
        admin.on('error', () => {});
        monitor.on('error', () => {});
        await admin.query('begin');
        await admin.query('lock table baton_compactions in share mode');
        const outcomes = Promise.all(workers.map((worker) => worker.compact(round, parent.id)));
        // Premise: both backends are inside their transactions, waiting on a lock.
        const blocked = await waitFor('both compactions to block', async () => {
          const { rows } = await monitor.query<{ pid: number; application_name: string }>(
            `select pid, application_name from pg_stat_activity
           where application_name like 'baton-kill-race-%' and wait_event_type = 'Lock'
             and state = 'active' and xact_start is not null`,
          );
          return rows.length === 2 ? rows : undefined;
        });
        if (fault === 'server killed') {
          await server().stop('immediate');
          await admin.end().catch(() => {});
          await monitor.end().catch(() => {});
        } else {
          // The backend that went first holds the parent's row and waits on our table lock; the other
          // waits on the parent's row (a transaction id lock).
          const { rows } = await monitor.query<{ pid: number; locktype: string }>(
            `select pid, locktype from pg_locks where not granted and pid = any($1)`,
            [blocked.map((row) => row.pid)],
          );
          const first = rows.find((row) => row.locktype === 'relation')?.pid;
          const second = rows.find((row) => row.locktype !== 'relation')?.pid;
          expect(
            [first, second].every((pid) => pid !== undefined),
            JSON.stringify(rows),
          ).toBe(true);
          const victim = fault === 'first connection dropped' ? first : second;
          await monitor.query('select pg_terminate_backend($1)', [victim]);
          await sleep(100);
          await admin.query('rollback');
          await admin.end();
          await monitor.end();
        }
        const results = await outcomes;
        if (fault === 'server killed') await server().start();

        // Every call answered: a child, a conflict naming the child, or a typed connection failure.
        for (const outcome of results) {
          if (!outcome.ok) {
            expect(['store_connection', 'compaction_conflict'], JSON.stringify(outcome)).toContain(
              outcome.code,
            );
          }
        }
        const check = async () => {
          const family = await store.listSessions({ rootId: parent.id, includeEnded: true });
          const children = family.filter((session) => session.parentId === parent.id);
          expect(children.length, JSON.stringify(results)).toBeLessThanOrEqual(1);
          const compaction = await store.getCompaction(parent.id);
          expect(compaction?.childSessionId).toBe(children[0]?.id);
          for (const outcome of results)
            if (outcome.ok) expect(outcome.childId).toBe(children[0]?.id);
          expect((await store.getMessages(parent.id)).map((row) => row.message)).toEqual(history);
          return children;
        };
        const before = await waitFor('the store to answer after the fault', async () =>
          check().catch((error: unknown) => {
            if ((error as { code?: string }).code === 'store_connection') return undefined;
            throw error;
          }),
        );
        if (fault === 'server killed') expect(before).toEqual([]);
        else expect(results.filter((outcome) => outcome.ok)).toHaveLength(1);

        // Both compact again: exactly one child in the end, the other call naming it.
        const again = await Promise.all(
          workers.map((worker) => worker.compact(round + 1000, parent.id)),
        );
        const [child] = await check();
        expect(child, JSON.stringify(again)).toBeDefined();
        for (const outcome of again) {
          if (outcome.ok) expect(outcome.childId).toBe(child!.id);
          else
            expect(outcome).toMatchObject({
              code: 'compaction_conflict',
              childSessionId: child!.id,
            });
        }
      }
    }, 600_000);
  },
);
