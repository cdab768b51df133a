import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionStore } from './index.js';
import { workerExecArgv } from './test-utils/worker-exec-argv.js';

const workerPath = fileURLToPath(
  new URL('./__fixtures__/pglite-compaction-worker.ts', import.meta.url),
);
const commitsBeforeStop = 2;
const compactedMessages = 300;

/**
 * The worker commits two compactions, then stops inside the third one's transaction just before the
 * given statement (a synchronous hook in drizzle's query logger blocks the process there), and is
 * SIGKILLed while blocked. Every earlier statement of that transaction has run: before the
 * compaction insert (the last write), the parent is ended and the child session and its 300 messages
 * are written; the parent update is the first write (the parent ends before its child opens, so the
 * lineage never has two open heads). Only the commit is missing.
 */
describe('SIGKILL inside a compaction transaction on an on-disk PGlite', () => {
  const root = mkdtempSync(join(tmpdir(), 'baton-sessions-crash-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  for (const stopAt of ['insert into "baton_compactions"', 'update "baton_sessions"']) {
    it(`reopens with the committed compactions whole and nothing of the one killed before: ${stopAt}`, async () => {
      const dataDir = join(root, stopAt.replace(/\W+/g, '-'));
      const markerFile = `${dataDir}.stopped`;
      const worker = fork(
        workerPath,
        [dataDir, String(compactedMessages), String(commitsBeforeStop), stopAt, markerFile],
        { execArgv: workerExecArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
      );
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
        (resolve) => worker.once('exit', (code, signal) => resolve({ code, signal })),
      );
      const deadline = Date.now() + 60_000;
      while (!existsSync(markerFile) && worker.exitCode === null && Date.now() < deadline) {
        await sleep(20);
      }
      expect(
        existsSync(markerFile),
        'the worker should reach the hook inside the transaction',
      ).toBe(true);
      expect(readFileSync(markerFile, 'utf8').startsWith(stopAt)).toBe(true);
      worker.kill('SIGKILL');
      expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });

      const store = await createSessionStore({ dataDir });
      try {
        const all = await store.listSessions({ includeEnded: true, limit: 10_000 });
        const children = all.filter((session) => session.origin === 'compaction');
        // Exactly the two committed compactions survive, each whole; the third left no trace.
        expect(children).toHaveLength(commitsBeforeStop);
        expect(all).toHaveLength(commitsBeforeStop + 1);
        for (const child of children) {
          expect((await store.getCompaction(child.parentId!))?.childSessionId).toBe(child.id);
          expect(await store.getMessages(child.id)).toHaveLength(compactedMessages);
        }
        const open = all.filter((session) => session.endedAt === null);
        expect(open).toHaveLength(1);
        expect(await store.getCompaction(open[0]!.id)).toBeUndefined();
        const lineage = await store.lineage(open[0]!.id);
        expect(lineage).toHaveLength(commitsBeforeStop + 1);
        expect(lineage.slice(0, -1).every((session) => session.endReason === 'compaction')).toBe(
          true,
        );
        // The open leaf is the last committed child, and it takes new work.
        await store.appendMessages(open[0]!.id, [{ role: 'user', content: 'after the crash' }]);
      } finally {
        await store.close();
      }
    }, 120_000);
  }
});
