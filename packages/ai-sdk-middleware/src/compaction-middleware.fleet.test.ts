import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSessionStore, type Session, type SessionStore } from '@baton/sessions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A fleet: several OS processes serve the same conversations through the middleware on one PostgreSQL,
 * either each driving every conversation through every step at its own pace (duplicated traffic), or
 * as behind a load balancer (consecutive steps of a conversation go to different processes).
 * Afterwards the database must hold, per conversation, one linear lineage with exactly one open head,
 * no forks, the whole history reachable from the head, and every call must have succeeded.
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

function startWorker(
  connectionString: string,
  index: number,
  mode: 'drive' | 'serve',
  prefix: string,
): ChildProcess {
  return fork(
    workerPath,
    [connectionString, String(index), String(conversations), String(steps), mode, prefix],
    {
      execArgv: [
        ...(process.features.typescript ? [] : ['--experimental-strip-types']),
        '--import',
        resolveHook,
      ],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
}

interface Report {
  calls: number;
  compactions: number;
  failures: string[];
}

function closedReport(worker: ChildProcess): Promise<Report> {
  return new Promise((resolve, reject) => {
    worker.on('message', (message: { type: string } & Report) => {
      if (message.type === 'closed') resolve(message);
    });
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`worker exited with ${code}`));
    });
  });
}

async function expectIntactLineages(store: SessionStore, prefix: string): Promise<void> {
  const finalLength = 4 * (steps - 1) + 1;
  for (let conversation = 0; conversation < conversations; conversation++) {
    const rootId = `${prefix}${conversation}`;
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

    it('duplicated traffic: every call succeeds; one linear lineage and one open head per conversation, no forks', async () => {
      const workers = Array.from({ length: processes }, (_, index) =>
        startWorker(connectionString, index, 'drive', 'fleet-'),
      );
      const reports = await Promise.all(workers.map(closedReport));
      console.info('fleet, duplicated traffic', {
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
      await expectIntactLineages(store, 'fleet-');
    }, 300_000);

    it('behind a load balancer: consecutive steps go to different processes; same guarantees', async () => {
      const workers = Array.from({ length: processes }, (_, index) =>
        startWorker(connectionString, index, 'serve', 'balanced-'),
      );
      const reports = workers.map(closedReport);
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) =>
              worker.on('message', (message: { type: string }) => {
                if (message.type === 'ready') resolve();
              }),
            ),
        ),
      );
      const serve = (worker: ChildProcess, conversation: number, step: number) =>
        new Promise<{ ok: boolean; error?: string }>((resolve) => {
          const onMessage = (message: {
            type: string;
            conversation: number;
            step: number;
            ok: boolean;
            error?: string;
          }) => {
            if (message.type !== 'done' || message.conversation !== conversation) return;
            if (message.step !== step) return;
            worker.off('message', onMessage);
            resolve(message);
          };
          worker.on('message', onMessage);
          worker.send({ type: 'step', conversation, step });
        });
      const failures: string[] = [];
      await Promise.all(
        Array.from({ length: conversations }, async (_, conversation) => {
          for (let step = 0; step < steps; step++) {
            // Round robin, shifted per conversation: every process serves every conversation.
            const worker = workers[(step + conversation) % processes] as ChildProcess;
            const reply = await serve(worker, conversation, step);
            if (!reply.ok) failures.push(reply.error ?? 'failed');
          }
        }),
      );
      for (const worker of workers) worker.send({ type: 'close' });
      const done = await Promise.all(reports);
      console.info('fleet, load balanced', {
        processes,
        conversations,
        steps,
        calls: done.map((report) => report.calls),
        compactions: done.map((report) => report.compactions),
      });
      expect(failures).toEqual([]);
      expect(done.reduce((sum, report) => sum + report.calls, 0)).toBe(conversations * steps);
      expect(done.reduce((sum, report) => sum + report.compactions, 0)).toBeGreaterThan(
        conversations,
      );
      await expectIntactLineages(store, 'balanced-');
    }, 300_000);
  },
);
