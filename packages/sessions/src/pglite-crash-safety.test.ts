import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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

describe('SIGKILL during compactions on an on-disk PGlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-sessions-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('reopens with every committed compaction whole and no partial one', async () => {
    const worker = fork(workerPath, [dataDir, '300'], {
      execArgv: workerExecArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const committed: string[] = [];
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      worker.once('exit', (_code, signal) => resolve(signal)),
    );
    worker.on('message', (message: { type: string; childId: string }) => {
      if (message.type === 'committed') committed.push(message.childId);
    });
    const deadline = Date.now() + 60_000;
    while (committed.length < 3 && Date.now() < deadline && worker.exitCode === null)
      await sleep(10);
    expect(
      committed.length,
      'the worker should commit compactions before being killed',
    ).toBeGreaterThanOrEqual(3);
    // Land the kill somewhere inside the next compaction's transaction.
    await sleep(Math.floor(Math.random() * 40));
    worker.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const store = await createSessionStore({ dataDir });
    try {
      const all = await store.listSessions({ includeEnded: true, limit: 10_000 });
      const children = all.filter((session) => session.origin === 'compaction');
      // Everything the worker saw committed survived (the OS keeps written pages across a kill).
      for (const id of committed) expect(children.map((child) => child.id)).toContain(id);
      for (const child of children) {
        const compaction = await store.getCompaction(child.parentId!);
        expect(compaction?.childSessionId).toBe(child.id);
        expect(await store.getMessages(child.id)).toHaveLength(
          Number(child.metadata?.expectedMessages),
        );
      }
      for (const session of all) {
        if (session.endReason === 'compaction') {
          expect((await store.getCompaction(session.id))?.childSessionId).toBeDefined();
        } else {
          expect(session.endedAt).toBeNull();
          expect(await store.getCompaction(session.id)).toBeUndefined();
        }
      }
      // One unbroken chain from the root to a single open leaf, which accepts new work.
      const open = all.filter((session) => session.endedAt === null);
      expect(open).toHaveLength(1);
      const lineage = await store.lineage(open[0]!.id);
      expect(lineage).toHaveLength(children.length + 1);
      await store.appendMessages(open[0]!.id, [{ role: 'user', content: 'after the crash' }]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
