import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createSessionStore, type Session, type SessionStore } from '@baton/sessions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A fleet: several OS processes serve the same conversations through the middleware on one PostgreSQL
 * (each process drives every conversation through every step, at its own pace, as duplicated or
 * load-balanced traffic would). Afterwards the database must hold, per conversation, one linear
 * lineage with exactly one open head, no forks, and every call must have succeeded.
 */
const postgresUrl = process.env.BATON_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const workerPath = fileURLToPath(new URL('./test-utils/fleet-worker.ts', import.meta.url));
const resolveHook = fileURLToPath(new URL('./test-utils/typescript-resolve.mjs', import.meta.url));
const processes = 3;
const conversations = 10;
const steps = 24;

async function unavailableReason(): Promise<string | undefined> {
  try {
    const probe = await createSessionStore({ connectionString: postgresUrl, migrate: false });
    try {
      await probe.listSessions({ limit: 1 }).catch((error: { code?: string }) => {
        // An empty database has no tables yet; only a connection failure makes the suite skip.
        if (error.code === 'store_connection') throw error;
      });
    } finally {
      await probe.close();
    }
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${postgresUrl} does not answer (${(error as Error).message})`;
  }
}

const unavailable = await unavailableReason();
const required = process.env.BATON_REQUIRE_POSTGRES === '1';
const describeFleet = unavailable === undefined || required ? describe : describe.skip;

describeFleet(
  `compactionMiddleware in a fleet of ${processes} processes on PostgreSQL${unavailable && !required ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    const name = `baton_fleet_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    let admin: SessionStore;
    let store: SessionStore;
    let connectionString: string;

    beforeAll(async () => {
      if (unavailable !== undefined) throw new Error(unavailable);
      admin = await createSessionStore({ connectionString: postgresUrl, migrate: false });
      await admin.db.execute(`create database "${name}"`);
      const url = new URL(postgresUrl);
      url.pathname = `/${name}`;
      connectionString = url.toString();
      store = await createSessionStore({ connectionString });
    }, 60_000);

    afterAll(async () => {
      await store?.close();
      await admin?.db.execute(`drop database if exists "${name}" with (force)`);
      await admin?.close();
    });

    it('every call succeeds; each conversation ends with one linear lineage and one open head, no forks', async () => {
      const workers = Array.from({ length: processes }, (_, index) =>
        fork(workerPath, [connectionString, String(index), String(conversations), String(steps)], {
          execArgv: [
            ...(process.features.typescript ? [] : ['--experimental-strip-types']),
            '--import',
            resolveHook,
          ],
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        }),
      );
      const reports = await Promise.all(
        workers.map(async (worker) => {
          const [[report], [code]] = await Promise.all([
            once(worker, 'message') as Promise<
              [{ calls: number; compactions: number; failures: string[] }]
            >,
            once(worker, 'exit'),
          ]);
          expect(code).toBe(0);
          return report;
        }),
      );
      console.info('fleet', {
        processes,
        conversations,
        steps,
        calls: reports.map((report) => report.calls),
        compactions: reports.map((report) => report.compactions),
      });
      expect(reports.flatMap((report) => report.failures)).toEqual([]);
      expect(reports.every((report) => report.calls === conversations * steps)).toBe(true);
      // The conversations are long enough to compact several times.
      expect(reports.reduce((sum, report) => sum + report.compactions, 0)).toBeGreaterThan(
        conversations,
      );

      const finalLength = 4 * (steps - 1) + 1;
      for (let conversation = 0; conversation < conversations; conversation++) {
        const rootId = `fleet-${conversation}`;
        const all = await store.listSessions({ rootId, includeEnded: true, limit: 1_000 });
        const open = all.filter((session) => session.endedAt === null);
        expect(open, `${rootId}: open heads`).toHaveLength(1);
        const head = open[0] as Session;
        // No forks: every session is the root or a compaction child, in one chain.
        expect(
          all.filter((session) => session.origin !== 'root' && session.origin !== 'compaction'),
        ).toEqual([]);
        const chain = await store.lineage(head.id);
        expect(chain.map((session) => session.id).sort()).toEqual(
          all.map((session) => session.id).sort(),
        );
        for (const session of chain.slice(0, -1)) {
          expect(session.endReason).toBe('compaction');
          expect((await store.getCompaction(session.id))?.childSessionId).toBeDefined();
        }
        // The head holds the whole conversation: its compacted prefix covers the start, raw after it.
        const baton = (head.metadata?.baton ?? {}) as {
          coveredRawCount?: number;
          compactedMessageCount?: number;
        };
        const headMessages = await store.getMessages(head.id);
        const rawCount =
          (baton.coveredRawCount ?? 0) + headMessages.length - (baton.compactedMessageCount ?? 0);
        expect(rawCount, `${rootId}: raw messages reachable from the head`).toBe(finalLength);
      }
    }, 300_000);
  },
);
