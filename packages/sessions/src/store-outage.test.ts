import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PrivatePostgres,
  privatePostgresUnavailableReason,
  startPrivatePostgres,
} from './test/private-postgres.js';
import { workerExecArgv } from './test-utils/worker-exec-argv.js';

const workerPath = fileURLToPath(new URL('./__fixtures__/outage-worker.ts', import.meta.url));
const unavailable = privatePostgresUnavailableReason();
const describeOutage = unavailable === undefined ? describe : describe.skip;

interface Reply {
  type: string;
  ok?: boolean;
  code?: string;
  name?: string;
  message?: string;
  contents?: string[];
  sessionId?: string;
}

const stderr: string[] = [];

function nextReply(worker: ChildProcess, type: string, timeoutMs = 30_000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} from the worker`)), timeoutMs);
    const onMessage = (reply: Reply) => {
      if (reply.type !== type) return;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      resolve(reply);
    };
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the worker died (exit ${code}, signal ${signal}) before ${type}: ${stderr.join('')}`,
        ),
      );
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
  });
}

describeOutage(
  `PostgreSQL stops with a write in flight (private server)${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let server: PrivatePostgres;

    beforeAll(async () => {
      server = await startPrivatePostgres();
    }, 120_000);

    afterAll(async () => {
      await server?.destroy();
    });

    it('rejects the in-flight call with StoreConnectionError, keeps the process alive and works again once the server is back', async () => {
      const worker = fork(workerPath, [server.connectionString], {
        execArgv: workerExecArgv,
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      worker.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
      try {
        await nextReply(worker, 'ready', 60_000);
        // The append waits on this lock, so the server is stopped while it is surely in flight.
        const admin = new pg.Client({ connectionString: server.connectionString });
        const monitor = new pg.Client({ connectionString: server.connectionString });
        for (const client of [admin, monitor]) client.on('error', () => {});
        await Promise.all([admin.connect(), monitor.connect()]);
        await admin.query('begin');
        await admin.query('lock table baton_sessions in exclusive mode');

        const result = nextReply(worker, 'append-result');
        result.catch(() => {}); // awaited below; a death before then must not go unhandled meanwhile
        worker.send({ type: 'append' });
        await nextReply(worker, 'appending');
        const deadline = Date.now() + 20_000;
        for (;;) {
          const { rows } = await monitor.query(
            `select count(*)::int as waiting from pg_stat_activity
             where wait_event_type = 'Lock' and pid <> $1`,
            [(admin as unknown as { processID: number }).processID],
          );
          if (rows[0].waiting > 0) break;
          if (Date.now() > deadline) throw new Error('the append never reached the lock');
          await sleep(20);
        }
        await server.stop('immediate');
        await Promise.all([admin.end().catch(() => {}), monitor.end().catch(() => {})]);

        const failed = await result;
        expect(failed.ok).toBe(false);
        expect(failed, JSON.stringify(failed)).toMatchObject({
          code: 'store_connection',
          name: 'StoreConnectionError',
        });
        // Idle pool clients break too; their errors arrive after the call's. Give them time.
        await sleep(1_000);
        expect(worker.exitCode, stderr.join('')).toBeNull();
        expect(worker.signalCode).toBeNull();

        await server.start();
        worker.send({ type: 'retry' });
        const retried = await nextReply(worker, 'retry-result');
        expect(retried, JSON.stringify(retried)).toMatchObject({ ok: true });
        // Nothing of the failed call was written; the later append landed after the warm-up rows.
        expect(retried.contents).toEqual([
          'warm 0',
          'warm 1',
          'warm 2',
          'after the server came back',
        ]);

        worker.send({ type: 'close' });
        const [code] = await once(worker, 'exit');
        expect(code, stderr.join('')).toBe(0);
        expect(stderr.join('')).not.toMatch(/Unhandled|uncaught/i);
      } finally {
        if (worker.exitCode === null) worker.kill('SIGKILL');
      }
    }, 120_000);
  },
);
