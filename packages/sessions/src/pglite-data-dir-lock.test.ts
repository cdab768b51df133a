import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore, StoreConnectionError } from './index.js';
import { workerExecArgv } from './test-utils/worker-exec-argv.js';

const workerPath = fileURLToPath(new URL('./__fixtures__/pglite-hold-worker.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'baton-sessions-dir-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Reply {
  type: string;
  sessionId?: string;
  code?: string;
  reason?: string;
}

function next(worker: ChildProcess, types: string[]): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${types.join('/')} from the worker`)),
      150_000,
    );
    const onMessage = (reply: Reply) => {
      if (!types.includes(reply.type)) return;
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(reply);
    };
    worker.on('message', onMessage);
    worker.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited (${code}, ${signal}) before ${types.join('/')}`));
    });
  });
}

function startWorker(dataDir: string, title: string): ChildProcess {
  return fork(workerPath, [dataDir, title], {
    execArgv: workerExecArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => ({ resolvedUnexpectedly: value }),
    (error: unknown) => error,
  );
}

/** Every session of the folder with its message count, read by a fresh store. */
async function contents(dataDir: string): Promise<Map<string, number>> {
  const store = await createSessionStore({ dataDir });
  try {
    const found = new Map<string, number>();
    for (const session of await store.listSessions({ includeEnded: true })) {
      found.set(session.title ?? '', (await store.getMessages(session.id)).length);
    }
    return found;
  } finally {
    await store.close();
  }
}

/**
 * PGlite has no lock on its folder. Before the fix a second store on the same `dataDir` opened, each
 * ran its own database over the same files, and on the next open one store's committed sessions
 * were gone (the second store's checkpoint overwrote them). Whatever happens on the second open, no
 * committed session may be lost; with the lock the second open is refused with a typed error.
 */
describe('one store per PGlite dataDir', () => {
  it('in one process: a second store on the folder is refused and nothing committed is lost', async () => {
    const dataDir = join(root, 'one-process');
    const first = await createSessionStore({ dataDir });
    let second: SessionStore | undefined;
    try {
      const session = await first.createSession({ title: 'first' });
      const outcome = await caught(createSessionStore({ dataDir }));
      if (!StoreConnectionError.isInstance(outcome)) {
        // The old behaviour: both open. Write through both, as two parts of an app would.
        second = (outcome as { resolvedUnexpectedly: SessionStore }).resolvedUnexpectedly;
        const other = await second.createSession({ title: 'second' });
        await second.appendMessages(other.id, [{ role: 'user', content: 'b' }]);
      }
      await first.appendMessages(session.id, [{ role: 'user', content: 'a' }]);
      await first.close();
      await second?.close();
      // Premise of the check below: the first store's writes were committed.
      const found = await contents(dataDir);
      expect(found.get('first'), `sessions after reopening: ${[...found.keys()]}`).toBe(1);
      expect(StoreConnectionError.isInstance(outcome), String(outcome)).toBe(true);
      const refused = outcome as StoreConnectionError;
      expect(refused.reason).toBe('EBUSY');
      expect(refused.message).toContain('another store of this process');
      // Once the first store is closed, the folder opens again.
      const reopened = await createSessionStore({ dataDir });
      await reopened.close();
    } finally {
      await first.close();
      await second?.close();
    }
  }, 180_000);

  it('across processes: refused while another process holds it, open again once it closes', async () => {
    const dataDir = join(root, 'two-processes');
    const holder = startWorker(dataDir, 'held');
    try {
      expect((await next(holder, ['ready', 'refused'])).type).toBe('ready');
      const refused = await caught(createSessionStore({ dataDir }));
      expect(StoreConnectionError.isInstance(refused), String(refused)).toBe(true);
      expect((refused as StoreConnectionError).message).toContain(`process ${holder.pid}`);
      // A second process is refused too, and exits without writing anything.
      const rival = startWorker(dataDir, 'rival');
      const reply = await next(rival, ['ready', 'refused']);
      expect(reply).toMatchObject({ type: 'refused', code: 'store_connection', reason: 'EBUSY' });
      holder.send({ type: 'close' });
      await next(holder, ['closed']);
    } finally {
      if (holder.exitCode === null) holder.kill('SIGKILL');
    }
    expect(await contents(dataDir)).toEqual(new Map([['held', 1]]));
  }, 240_000);

  it('refuses a worker thread of the same process while the main thread holds the folder', async () => {
    // Threads share the pid; each has its own registry of held locks. A lock of this process's
    // start time that this thread does not hold is another thread's, not an earlier process's.
    const dataDir = join(root, 'threads');
    const store = await createSessionStore({ dataDir });
    try {
      await store.createSession({ title: 'from the main thread' });
      const worker = new Worker(
        fileURLToPath(new URL('./__fixtures__/pglite-thread-worker.ts', import.meta.url)),
        { execArgv: workerExecArgv, workerData: { dataDir } },
      );
      const [reply] = (await once(worker, 'message')) as [Reply];
      await worker.terminate();
      expect(reply).toMatchObject({ type: 'refused', code: 'store_connection', reason: 'EBUSY' });
    } finally {
      await store.close();
    }
    expect(await contents(dataDir)).toEqual(new Map([['from the main thread', 0]]));
  }, 240_000);

  it("names an unusable data folder as the store's own error", async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a folder');
    const refused = await caught(createSessionStore({ dataDir: join(file, 'store') }));
    expect(StoreConnectionError.isInstance(refused), String(refused)).toBe(true);
  });

  it('takes over the lock of a killed process, with its committed session intact', async () => {
    const dataDir = join(root, 'killed');
    const holder = startWorker(dataDir, 'killed holder');
    expect((await next(holder, ['ready', 'refused'])).type).toBe('ready');
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    expect(await contents(dataDir)).toEqual(new Map([['killed holder', 1]]));
  }, 240_000);

  it('takes over a lock file left empty or damaged, and a lock of this pid no store holds', async () => {
    const dataDir = join(root, 'damaged');
    const store = await createSessionStore({ dataDir });
    await store.close();
    for (const left of [
      '',
      '{"pid":',
      // This process's pid, but written by an earlier process with that pid (a restarted container).
      `${JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), started: null, token: 'earlier' })}\n`,
    ]) {
      writeFileSync(join(dataDir, 'baton-sessions.lock'), left);
      const reopened = await createSessionStore({ dataDir });
      await reopened.close();
    }
  }, 180_000);

  it('locks nothing for an in-memory store, and several in-memory stores coexist', async () => {
    const stores = await Promise.all([createSessionStore(), createSessionStore()]);
    await Promise.all(stores.map((store) => store.close()));
  }, 180_000);
});
