import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StoreConnectionError } from './store-connection-error.js';

/** The lock file a store keeps in its PGlite `dataDir` while open. */
export const dataDirLockName = 'baton-sessions.lock';

/** A lock file longer than this is not one of ours: it is judged damaged without being read whole. */
const maxLockBytes = 4096;

interface LockOwner {
  pid: number;
  host: string;
  /** The owner's start time (`/proc/<pid>/stat` field 22), to tell a reused pid from the owner. */
  started: string | null;
  token: string;
}

/** Tokens of the locks this process holds, shared by every copy of the package loaded in it. */
const registry = globalThis as Record<symbol, Set<string> | undefined>;
const registryKey = Symbol.for('baton.sessions.dataDirLocks');
registry[registryKey] ??= new Set<string>();
const heldTokens: Set<string> = registry[registryKey];

export interface DataDirLock {
  /**
   * The folder with every symlink resolved, for PGlite to open (it cannot start on a path whose
   * last component is a symlink); undefined for folders given with a scheme such as `memory://`.
   */
  readonly folder: string | undefined;
  /** Removes the lock file if it is still this store's, and frees the folder. Idempotent. */
  release(): Promise<void>;
}

/**
 * Takes the folder of an on-disk PGlite for one store. PGlite has no lock of its own: two stores on
 * one folder (two processes, or two `createSessionStore` calls in one) each run a database over the
 * same files, and whichever writes last overwrites the other's pages, so committed sessions vanish
 * on the next open.
 *
 * Two locks, taken in order:
 * - On Linux, a listening socket in the abstract namespace named after the folder's identity (device
 *   and inode, so every spelling of the path is the same folder). The kernel lets one socket bind a
 *   name and frees it when its process ends however it ends (SIGKILL included), and it has no file
 *   anyone could replace, truncate or delete: a live holder is never mistaken for a dead one, and of
 *   openers racing, threads of one process included, exactly one binds it.
 * - The lock file `baton-sessions.lock`, naming the holder (pid, host, start time) for the refusal
 *   message and for platforms without the socket. It appears whole or not at all (written to a
 *   private file, then hard-linked into place, which fails if one exists). A lock left by a process
 *   that is gone is taken over: its pid no longer runs, or now runs another program (a different
 *   start time). A lock written on another host is never judged stale (its process cannot be checked
 *   from here). A damaged lock file (not JSON, not a regular file) is taken over only when the
 *   socket proves no store of this host holds the folder; a directory in its place is never removed.
 *
 * Folders given with a scheme (`memory://`, `idb://`, ...) are not files: nothing is locked.
 */
export async function lockDataDir(dataDir: string, target: string): Promise<DataDirLock> {
  const folder = fileFolder(dataDir);
  if (folder === undefined) return { folder: undefined, async release() {} };
  let identity: string;
  let real: string;
  try {
    mkdirSync(folder, { recursive: true });
    // Everything after this reads the resolved folder: a symlink swapped while the store is open
    // must not move its lock file (close would then leave the opened folder locked).
    real = realpathSync(folder);
    const stats = statSync(real);
    if (!stats.isDirectory())
      throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    identity = `${stats.dev}:${stats.ino}`;
  } catch (error) {
    // A path through a file, a read-only place: say so as the store's own error, not the raw one.
    throw new StoreConnectionError({
      target,
      reason: (error as NodeJS.ErrnoException).code ?? 'EIO',
      detail: 'the data folder could not be created',
    });
  }
  const path = join(real, dataDirLockName);
  const host = hostname();
  const refuse = (owner: LockOwner | undefined, detail?: string): never => {
    throw new StoreConnectionError({
      target,
      reason: 'EBUSY',
      detail:
        detail ??
        (owner !== undefined && owner.pid === process.pid && owner.host === host
          ? `the folder is already open in another store of this process (a PGlite dataDir belongs to one store at a time: close the other store first, or share one store)`
          : `the folder is in use by ${owner === undefined ? 'another process' : `process ${owner.pid} on ${shownHost(owner.host)}`} (a PGlite dataDir belongs to one process at a time: use PostgreSQL to share sessions between processes${owner === undefined ? '' : `; if that process is gone, delete ${path}`})`),
    });
  };

  const exclusive = await bindFolderSocket(identity);
  if (exclusive === 'busy') refuse(readLock(path).owner);
  const server = exclusive === 'busy' ? undefined : exclusive;
  try {
    const lock = takeFileLock(path, host, server !== undefined, refuse, target);
    return {
      folder: real,
      async release() {
        lock.release();
        await closeServer(server);
      },
    };
  } catch (error) {
    await closeServer(server);
    throw error;
  }
}

function takeFileLock(
  path: string,
  host: string,
  exclusive: boolean,
  refuse: (owner: LockOwner | undefined, detail?: string) => never,
  target: string,
): { release(): void } {
  const me: LockOwner = { pid: process.pid, host, started: ownStartTime(), token: randomUUID() };
  const text = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < 20; attempt++) {
    let created: boolean;
    try {
      created = createWhole(path, text, me.token);
    } catch (error) {
      throw new StoreConnectionError({
        target,
        reason: (error as NodeJS.ErrnoException).code ?? 'EIO',
        detail: `the lock file ${dataDirLockName} could not be written in the data folder`,
      });
    }
    if (created) {
      heldTokens.add(me.token);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldTokens.delete(me.token);
          // Only a regular file with this store's token is removed: never what replaced it.
          if (readLock(path).owner?.token === me.token) unlinkQuietly(path);
        },
      };
    }
    const seen = readLock(path);
    if (seen.kind === 'missing') continue; // removed meanwhile: try again
    if (seen.kind === 'directory') {
      refuse(
        undefined,
        `${dataDirLockName} in the data folder is a directory, not a lock file: remove it if no process uses the folder`,
      );
    }
    if (seen.owner === undefined) {
      // Not ours to read: a symlink, a device, a file that is not a lock. No store of this package
      // leaves one (a lock file appears whole), so it is damage or tampering: taken over only when
      // the socket proves no store of this host holds the folder.
      if (!exclusive) {
        refuse(
          undefined,
          `the lock file ${dataDirLockName} in the data folder is damaged and its holder cannot be checked: remove it if no process uses the folder`,
        );
      }
    } else if (!(exclusive && seen.owner.pid === process.pid) && isAlive(seen.owner, host)) {
      // With the socket held, a lock of this process is no live store's (each holds the socket):
      // a worker thread terminated with its store open left it. Other pids are still checked, for
      // stores of an earlier release (which took no socket).
      refuse(seen.owner);
    }
    takeOver(path, seen);
  }
  return refuse(undefined, `could not take the lock ${path}: other stores keep opening the folder`);
}

/**
 * Creates the lock file with its whole text, or returns false when one exists. The text goes to a
 * private file first and is linked into place, so no reader ever sees a lock created but not yet
 * written (where `link` is unsupported, an exclusive create and write instead).
 */
function createWhole(path: string, text: string, token: string): boolean {
  const draft = `${path}.${token}.tmp`;
  try {
    const fd = openSync(draft, 'wx', 0o600);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(draft, path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') {
        throw error;
      }
    }
  } finally {
    unlinkQuietly(draft);
  }
  try {
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

interface SeenLock {
  kind: 'missing' | 'directory' | 'file' | 'other';
  /** The lock's identity and text when it is a regular file, to check nothing replaced it since. */
  signature?: string;
  owner?: LockOwner;
}

/**
 * What is at the lock's path, read without following a symlink, without blocking on a FIFO and
 * without reading more than `maxLockBytes`.
 */
function readLock(path: string): SeenLock {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'EISDIR') return { kind: 'directory' };
    try {
      const stats = lstatSync(path);
      return { kind: stats.isDirectory() ? 'directory' : 'other', signature: signatureOf(stats) };
    } catch {
      return { kind: 'missing' };
    }
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { kind: 'directory' };
    if (!stats.isFile() || stats.size > maxLockBytes) {
      return { kind: 'other', signature: signatureOf(stats) };
    }
    const buffer = Buffer.alloc(maxLockBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0 || length + read >= buffer.length) {
        length += read;
        break;
      }
      length += read;
    }
    const text = buffer.subarray(0, length).toString('utf8');
    return {
      kind: 'file',
      signature: `${signatureOf(stats)}:${text}`,
      owner: length > maxLockBytes ? undefined : parseOwner(text),
    };
  } catch {
    return { kind: 'other' };
  } finally {
    closeSync(fd);
  }
}

function signatureOf(stats: { dev: number; ino: number }): string {
  return `${stats.dev}:${stats.ino}`;
}

/** Moves a stale lock aside, making sure it is the one judged stale and not a fresh one since. */
function takeOver(path: string, stale: SeenLock): void {
  const aside = `${path}.stale-${randomUUID()}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already: another opener took it over
  }
  const moved = readLock(aside);
  if (moved.kind === 'directory' || moved.signature !== stale.signature) {
    // A fresh lock written after the stale one was read: put it back (unless yet another exists).
    try {
      renameOrLinkBack(aside, path);
    } catch {
      // another lock is in place: the next attempt sees it
    }
    return;
  }
  unlinkQuietly(aside);
}

function renameOrLinkBack(aside: string, path: string): void {
  try {
    linkSync(aside, path);
    unlinkQuietly(aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      unlinkQuietly(aside);
      return;
    }
    // Not linkable (a directory): rename back only while nothing took its place.
    if (readLock(path).kind === 'missing') renameSync(aside, path);
  }
}

/**
 * Binds the folder's name in Linux's abstract socket namespace: the socket, or 'busy' when another
 * store (any process, any thread) holds it, or undefined where that namespace is unavailable.
 */
async function bindFolderSocket(identity: string): Promise<Server | 'busy' | undefined> {
  if (process.platform !== 'linux') return undefined;
  const name = `\0baton-sessions/${createHash('sha256').update(identity).digest('hex')}`;
  const server = createServer((socket) => socket.destroy());
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      server.close(() => {});
      resolve(error.code === 'EADDRINUSE' ? 'busy' : undefined);
    });
    server.listen({ path: name, exclusive: true }, () => {
      // Holding the name must not keep the process alive, nor a stray connection error crash it.
      server.unref();
      server.removeAllListeners('error');
      server.on('error', () => {});
      resolve(server);
    });
  });
}

function closeServer(server: Server | undefined): Promise<void> {
  if (server === undefined) return Promise.resolve();
  return new Promise((resolve) => server.close(() => resolve()));
}

function isAlive(owner: LockOwner, host: string): boolean {
  if (owner.host !== host) return true;
  if (owner.pid === process.pid) {
    if (heldTokens.has(owner.token)) return true;
    // Not a store of this thread's: another worker thread of this process (each thread has its own
    // registry) when the lock carries this process's start time, else an earlier process that had
    // the same pid (a container restarted). Without start times the two cannot be told apart.
    const mine = ownStartTime();
    return owner.started !== null && mine !== null && owner.started === mine;
  }
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  // The pid runs: the owner, unless it is a later process that reuses the pid.
  const now = startTime(owner.pid);
  return owner.started === null || now === null || now === owner.started;
}

/** A host name as written in a lock file, shown only when it looks like one (the file may be forged). */
function shownHost(host: string): string {
  // Another host's name comes from a file anyone could have written, and a secret can read as a
  // host name (`sk-live-…`): only this host's own name is shown.
  return host === hostname() ? host : 'another host';
}

function fileFolder(dataDir: string): string | undefined {
  if (dataDir.startsWith('file://')) return dataDir.slice('file://'.length);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(dataDir)) return undefined;
  return dataDir;
}

/** This process's start time: constant for its life, so read once (per thread) and kept. */
let ownStart: { value: string | null } | undefined;
function ownStartTime(): string | null {
  ownStart ??= { value: startTime(process.pid) };
  return ownStart.value;
}

/** A process's start time in clock ticks since boot (Linux), or null where /proc is unavailable. */
function startTime(pid: number): string | null {
  try {
    const fd = openSync(`/proc/${pid}/stat`, constants.O_RDONLY);
    let stat: string;
    try {
      const buffer = Buffer.alloc(4096);
      stat = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, null)).toString('utf8');
    } finally {
      closeSync(fd);
    }
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (
      typeof value === 'object' &&
      value !== null &&
      Number.isSafeInteger(value.pid) &&
      (value.pid as number) > 0 &&
      typeof value.host === 'string' &&
      typeof value.token === 'string' &&
      (value.started === null || typeof value.started === 'string')
    ) {
      return value as LockOwner;
    }
  } catch {
    // not JSON: unwritten or damaged
  }
  return undefined;
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
