import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionStore, dataDirLockName, StoreConnectionError } from './index.js';
import { workerExecArgv } from './test-utils/worker-exec-argv.js';

const workerPath = fileURLToPath(new URL('./__fixtures__/pglite-lock-worker.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'baton-sessions-lock-attack-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Reply {
  type: string;
  startedAt?: number;
  sessionId?: string;
  code?: string;
  reason?: string;
  name?: string;
  message?: string;
  round?: number;
}

/** A long-lived worker process and a way to send it a command and wait for one of its replies. */
function startWorker() {
  const child = fork(workerPath, [], {
    execArgv: workerExecArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies: Reply[] = [];
  const waiters: Array<() => void> = [];
  child.on('message', (reply: Reply) => {
    replies.push(reply);
    for (const wake of waiters.splice(0)) wake();
  });
  child.once('exit', () => {
    for (const wake of waiters.splice(0)) wake();
  });
  const next = async (types: string[]): Promise<Reply> => {
    const deadline = Date.now() + 150_000;
    for (;;) {
      const index = replies.findIndex((reply) => types.includes(reply.type));
      if (index >= 0) return replies.splice(index, 1)[0]!;
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the worker exited before ${types.join('/')}`);
      }
      if (Date.now() > deadline) throw new Error(`no ${types.join('/')} from the worker`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 1_000);
      });
    }
  };
  return {
    child: child as ChildProcess,
    replies,
    next,
    async request(command: object, types: string[]): Promise<Reply> {
      child.send(command);
      const reply = await next([...types, 'failed']);
      if (reply.type === 'failed') throw new Error(`worker failed: ${reply.message}`);
      return reply;
    },
    async exit(): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.send({ type: 'exit' });
      await exited;
    },
  };
}

/** Every session of the folder by title with its messages' contents, read by a fresh store. */
async function contents(dataDir: string): Promise<Map<string, string[]>> {
  const store = await createSessionStore({ dataDir });
  try {
    const found = new Map<string, string[]>();
    for (const session of await store.listSessions({ includeEnded: true })) {
      const messages = await store.getMessages(session.id);
      found.set(
        session.title ?? '',
        messages.map((message) => String(message.message.content)),
      );
    }
    return found;
  } finally {
    await store.close();
  }
}

/** Files the lock leaves in a folder: the lock itself, drafts, stale copies moved aside. */
function lockLeftovers(dataDir: string): string[] {
  return readdirSync(dataDir).filter((name) => name.startsWith(dataDirLockName));
}

async function settle(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => ({ resolvedUnexpectedly: value }),
    (error: unknown) => error,
  );
}

describe('two processes opening one PGlite folder at the same instant', () => {
  // Rounds whose two calls left within 5 ms of each other; a loaded machine delays some, so more
  // rounds are run until that many are simultaneous (every round is checked all the same).
  const simultaneousRounds = 9;
  const maxRounds = 40;
  it(`exactly one opens, the other gets a typed refusal, no session lost: ${simultaneousRounds} simultaneous rounds`, async () => {
    const dataDir = join(root, 'race');
    const workers = [startWorker(), startWorker()];
    try {
      await Promise.all(workers.map((worker) => worker.next(['ready'])));
      let simultaneous = 0;
      const winners: string[] = [];
      let round = 0;
      for (; round < maxRounds && simultaneous < simultaneousRounds; round++) {
        const at = Date.now() + 400;
        const replies = await Promise.all(
          workers.map((worker, index) =>
            worker.request({ type: 'open', dataDir, at, title: `round ${round} by ${index}` }, [
              'opened',
              'refused',
            ]),
          ),
        );
        const opened = replies.filter((reply) => reply.type === 'opened');
        const refused = replies.filter((reply) => reply.type === 'refused');
        expect(opened, JSON.stringify(replies)).toHaveLength(1);
        expect(refused[0]).toMatchObject({ code: 'store_connection', reason: 'EBUSY' });
        if (Math.abs(replies[0]!.startedAt! - replies[1]!.startedAt!) <= 5) simultaneous++;
        const winner = replies.indexOf(opened[0]!);
        winners.push(`round ${round} by ${winner}`);
        await workers[winner]!.request({ type: 'close' }, ['closed']);
        expect(lockLeftovers(dataDir)).toEqual([]);
      }
      // Premise: enough rounds whose two calls did leave at the same moment.
      expect(simultaneous, `${simultaneous}/${round} simultaneous`).toBe(simultaneousRounds);
      const found = await contents(dataDir);
      expect([...found.keys()].sort()).toEqual([...winners].sort());
      for (const title of winners) expect(found.get(title)).toEqual([title]);
    } finally {
      await Promise.all(workers.map((worker) => worker.exit()));
    }
  }, 600_000);
});

describe('a holder killed with SIGKILL in the middle of its writes', () => {
  it('reopens with every committed batch whole, nothing half-written, the lock taken over', async () => {
    const batch = 25;
    for (const [index, killAfter] of [1, 4, 9].entries()) {
      const dataDir = join(root, `killed-${index}`);
      const worker = startWorker();
      await worker.next(['ready']);
      await worker.request({ type: 'open', dataDir, at: 0, title: 'opened' }, ['opened']);
      await worker.request({ type: 'write', batch }, ['writing']);
      let reported = -1;
      while (reported < killAfter) reported = (await worker.next(['wrote'])).round!;
      // Kill at a time that is not a batch boundary: somewhere inside the next writes.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));
      const exited = once(worker.child, 'exit');
      worker.child.kill('SIGKILL');
      await exited;
      for (const reply of worker.replies) if (reply.type === 'wrote') reported = reply.round!;
      // Premise: the lock of the dead holder is still there, to be taken over.
      expect(lockLeftovers(dataDir)).toContain(dataDirLockName);

      const found = await contents(dataDir);
      expect(found.get('opened')).toEqual(['opened']);
      for (const [title, messages] of found) {
        if (title === 'opened') continue;
        const round = Number(title.slice('batch '.length));
        // Each append is one transaction: 0, one or two whole batches, in order.
        expect([0, batch, 2 * batch], title).toContain(messages.length);
        messages.forEach((content, at) => {
          expect(content).toBe(`message ${at % batch} of batch ${round} ${'x'.repeat(200)}`);
        });
        if (round <= reported) expect(messages, title).toHaveLength(2 * batch);
      }
      for (let round = 0; round <= reported; round++)
        expect(found.has(`batch ${round}`)).toBe(true);
      expect(lockLeftovers(dataDir)).toEqual([]);
    }
  }, 600_000);
});

type Attack =
  | { kind: 'truncate'; keep: number }
  | { kind: 'replace'; text: string }
  | { kind: 'forged'; pid: number; sameHost: boolean; plainHost: boolean }
  | { kind: 'delete' }
  | { kind: 'directory' }
  | { kind: 'symlink'; dangling: boolean }
  | { kind: 'fifo' }
  | { kind: 'huge' };

const secret = `sk-live-${'S3cr3t'.repeat(4)}`;

const attacks: fc.Arbitrary<Attack> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat({ max: 120 }) }),
  fc.record({
    kind: fc.constant('replace' as const),
    text: fc.string({ unit: 'binary', maxLength: 200 }).map((text) => `${text}${secret}\u001b[2J`),
  }),
  fc.record({
    kind: fc.constant('forged' as const),
    pid: fc.oneof(fc.constantFrom(0, -1, 2 ** 22 + 1), fc.integer({ min: 1, max: 4_000_000 })),
    sameHost: fc.boolean(),
    // A forged host may read as a host name and still be a secret (`sk-live-…`).
    plainHost: fc.boolean(),
  }),
  fc.constant({ kind: 'delete' as const }),
  fc.constant({ kind: 'directory' as const }),
  fc.record({ kind: fc.constant('symlink' as const), dangling: fc.boolean() }),
  fc.constant({ kind: 'fifo' as const }),
  fc.constant({ kind: 'huge' as const }),
);

function attack(dataDir: string, how: Attack, bait: string): void {
  const lock = join(dataDir, dataDirLockName);
  switch (how.kind) {
    case 'truncate':
      truncateSync(lock, Math.min(how.keep, readFileSync(lock).length));
      return;
    case 'replace':
      unlinkSync(lock);
      writeFileSync(lock, how.text);
      return;
    case 'forged':
      unlinkSync(lock);
      writeFileSync(
        lock,
        `${JSON.stringify({ pid: how.pid, host: how.sameHost ? hostname() : how.plainHost ? secret : `${secret}\u001b[31m`, started: '1', token: secret })}\n`,
      );
      return;
    case 'delete':
      unlinkSync(lock);
      return;
    case 'directory':
      unlinkSync(lock);
      mkdirSync(lock);
      return;
    case 'symlink':
      unlinkSync(lock);
      symlinkSync(how.dangling ? join(dataDir, 'nowhere', 'x') : bait, lock);
      return;
    case 'fifo':
      unlinkSync(lock);
      execFileSync('mkfifo', [lock]);
      return;
    case 'huge':
      unlinkSync(lock);
      writeFileSync(lock, Buffer.alloc(8 * 1024 * 1024, 'x'));
      return;
  }
}

describe('a hostile actor replacing the lock file of a live holder', () => {
  it('never lets a second store in, never crashes, never echoes the file, never follows a link', async () => {
    const dataDir = join(root, 'hostile');
    const bait = join(root, 'bait.txt');
    const baitText = `not a lock ${secret}`;
    writeFileSync(bait, baitText);
    const holder = startWorker();
    await holder.next(['ready']);
    const titles: string[] = [];
    let round = 0;
    const seen = new Set<string>();
    try {
      await fc.assert(
        fc.asyncProperty(fc.noBias(attacks), async (how) => {
          seen.add(how.kind);
          const title = `hostile ${round++}`;
          await holder.request({ type: 'open', dataDir, at: 0, title }, ['opened']);
          titles.push(title);
          // Premise: the holder's lock is in place before the attack.
          expect(lockLeftovers(dataDir)).toEqual([dataDirLockName]);
          attack(dataDir, how, bait);
          const outcome = await settle(createSessionStore({ dataDir }));
          expect(
            StoreConnectionError.isInstance(outcome),
            `${JSON.stringify(how)}: ${String(outcome)}`,
          ).toBe(true);
          const message = (outcome as Error).message;
          expect(message).not.toContain(secret);
          expect(message).not.toMatch(/[\u0000-\u001f\u007f]/);
          // The holder goes on writing and closes normally.
          await holder.request({ type: 'close' }, ['closed']);
          expect(readFileSync(bait, 'utf8')).toBe(baitText);
          // After the holder is gone: the folder opens, or is refused typed (a directory in the way).
          const after = await settle(createSessionStore({ dataDir }));
          // Refused only for a directory in the way or a well-formed lock naming another host (never
          // judged stale); any other leftover is taken over, no store of this host holding the folder.
          const refusedAfter =
            how.kind === 'directory' || (how.kind === 'forged' && !how.sameHost && how.pid > 0);
          expect(
            StoreConnectionError.isInstance(after),
            `${JSON.stringify(how)}: ${String(after)}`,
          ).toBe(refusedAfter);
          if (!refusedAfter) {
            await (
              after as { resolvedUnexpectedly: { close(): Promise<void> } }
            ).resolvedUnexpectedly.close();
          }
          rmSync(join(dataDir, dataDirLockName), { recursive: true, force: true });
          for (const name of lockLeftovers(dataDir))
            rmSync(join(dataDir, name), { recursive: true, force: true });
          expect(readFileSync(bait, 'utf8')).toBe(baitText);
        }),
        { numRuns: 10, endOnFailure: true },
      );
    } finally {
      await holder.exit();
    }
    console.info(`[sessions] hostile lock kinds tried: ${[...seen].sort().join(', ')}`);
    const found = await contents(dataDir);
    for (const title of titles) expect(found.get(title), title).toEqual([title]);
  }, 600_000);

  it('after the holder closes, a damaged lock of nobody is taken over (control: a live one never is)', async () => {
    const dataDir = join(root, 'damaged-after');
    const store = await createSessionStore({ dataDir });
    await store.close();
    for (const left of ['', '{"pid":', 'garbage', '\u0000\u0000']) {
      writeFileSync(join(dataDir, dataDirLockName), left);
      const reopened = await createSessionStore({ dataDir });
      await reopened.close();
      expect(existsSync(join(dataDir, dataDirLockName))).toBe(false);
    }
  }, 180_000);
});

describe('open and close in one process', () => {
  it('a worker thread terminated with its store open leaves no lock that shuts the process out', async () => {
    const dataDir = join(root, 'terminated-thread');
    const worker = new Worker(
      fileURLToPath(new URL('./__fixtures__/pglite-thread-worker.ts', import.meta.url)),
      { execArgv: workerExecArgv, workerData: { dataDir, hold: true } },
    );
    const [reply] = (await once(worker, 'message')) as [{ type: string }];
    expect(reply.type).toBe('opened');
    await worker.terminate();
    // Premise: the thread's lock file is still there, naming this process.
    expect(JSON.parse(readFileSync(join(dataDir, dataDirLockName), 'utf8')).pid).toBe(process.pid);
    const found = await contents(dataDir);
    expect([...found.keys()]).toEqual(['from a worker thread']);
  }, 180_000);

  it('close() then reopen, many cycles: no lock, draft or handle left behind, every session kept', async () => {
    const dataDir = join(root, 'cycles');
    const cycles = 20;
    const warm = await createSessionStore({ dataDir });
    await warm.close();
    const handlesBefore = process.getActiveResourcesInfo().length;
    for (let cycle = 0; cycle < cycles; cycle++) {
      // Two opens at once in the same process: exactly one wins.
      const [a, b] = await Promise.all([
        settle(createSessionStore({ dataDir })),
        settle(createSessionStore({ dataDir })),
      ]);
      const opened = [a, b].filter((outcome) => !StoreConnectionError.isInstance(outcome));
      expect(opened, `cycle ${cycle}: ${String(a)} / ${String(b)}`).toHaveLength(1);
      const store = (
        opened[0] as { resolvedUnexpectedly: Awaited<ReturnType<typeof createSessionStore>> }
      ).resolvedUnexpectedly;
      const session = await store.createSession({ title: `cycle ${cycle}` });
      await store.appendMessages(session.id, [{ role: 'user', content: `cycle ${cycle}` }]);
      await store.close();
      await store.close(); // idempotent
      expect(lockLeftovers(dataDir)).toEqual([]);
    }
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(handlesBefore);
    const found = await contents(dataDir);
    for (let cycle = 0; cycle < cycles; cycle++) {
      expect(found.get(`cycle ${cycle}`)).toEqual([`cycle ${cycle}`]);
    }
  }, 600_000);
});
