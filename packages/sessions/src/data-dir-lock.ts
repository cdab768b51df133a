import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StoreConnectionError } from './store-connection-error.js';

/** The lock file a store keeps in its PGlite `dataDir` while open. */
export const dataDirLockName = 'baton-sessions.lock';

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
  /** Removes the lock file if it is still this store's. Idempotent. */
  release(): void;
}

/**
 * Takes the folder of an on-disk PGlite for one store. PGlite has no lock of its own: two stores on
 * one folder (two processes, or two `createSessionStore` calls in one) each run a database over the
 * same files, and whichever writes last overwrites the other's pages, so committed sessions vanish
 * on the next open. The lock file is created with `O_EXCL`, so of two stores opening at once one wins;
 * a lock left by a process that is gone (killed, crashed) is taken over: its pid no longer runs, or
 * now runs another program (a different start time). A lock written on another host is never
 * judged stale (its process cannot be checked from here).
 *
 * Folders given with a scheme (`memory://`, `idb://`, ...) are not files: nothing is locked.
 */
export function lockDataDir(dataDir: string, target: string): DataDirLock {
  const folder = fileFolder(dataDir);
  if (folder === undefined) return { release() {} };
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    // A path through a file, a read-only place: say so as the store's own error, not the raw one.
    throw new StoreConnectionError({
      target,
      reason: (error as NodeJS.ErrnoException).code ?? 'EIO',
      detail: 'the data folder could not be created',
    });
  }
  const path = join(folder, dataDirLockName);
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    started: startTime(process.pid),
    token: randomUUID(),
  };
  const text = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
      heldTokens.add(me.token);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldTokens.delete(me.token);
          if (readOwner(path)?.token === me.token) unlinkQuietly(path);
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new StoreConnectionError({
          target,
          reason: code ?? 'EIO',
          detail: `the lock file ${dataDirLockName} could not be written in the data folder`,
        });
      }
    }
    const seen = readText(path);
    if (seen === undefined) continue; // removed meanwhile: try again
    const owner = parseOwner(seen);
    if (owner === undefined) {
      // Created but not written yet by an opener racing this one, or left empty by a crash between
      // the two: give a writer time, then treat it as stale.
      if (attempt < 5) {
        sleepSync(20);
        continue;
      }
    } else if (isAlive(owner)) {
      throw new StoreConnectionError({
        target,
        reason: 'EBUSY',
        detail:
          owner.pid === process.pid && owner.host === me.host
            ? `the folder is already open in another store of this process (a PGlite dataDir belongs to one store at a time: close the other store first, or share one store)`
            : `the folder is in use by process ${owner.pid} on ${owner.host} (a PGlite dataDir belongs to one process at a time: use PostgreSQL to share sessions between processes; if that process is gone, delete ${path})`,
      });
    }
    takeOver(path, seen);
  }
  throw new StoreConnectionError({
    target,
    reason: 'EBUSY',
    detail: `could not take the lock ${path}: other stores keep opening the folder`,
  });
}

/** Moves a stale lock aside, making sure it is the one judged stale and not a fresh one since. */
function takeOver(path: string, stale: string): void {
  const aside = `${path}.stale-${randomUUID()}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already: another opener took it over
  }
  if (readText(aside) !== stale) {
    // A fresh lock written after the stale one was read: put it back (unless yet another exists).
    try {
      linkSync(aside, path);
    } catch {
      // another lock is in place: the next attempt sees it
    }
  }
  unlinkQuietly(aside);
}

function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) {
    if (heldTokens.has(owner.token)) return true;
    // Not a store of this thread's: another worker thread of this process (each thread has its own
    // registry) when the lock carries this process's start time, else an earlier process that had
    // the same pid (a container restarted). Without start times the two cannot be told apart.
    const mine = startTime(process.pid);
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

function fileFolder(dataDir: string): string | undefined {
  if (dataDir.startsWith('file://')) return dataDir.slice('file://'.length);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(dataDir)) return undefined;
  return dataDir;
}

/** A process's start time in clock ticks since boot (Linux), or null where /proc is unavailable. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readOwner(path: string): LockOwner | undefined {
  const text = readText(path);
  return text === undefined ? undefined : parseOwner(text);
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (
      Number.isSafeInteger(value.pid) &&
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

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
