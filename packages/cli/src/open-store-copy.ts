import { existsSync, statSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createSessionStore,
  dataDirLockName,
  type Session,
  type SessionStore,
} from '@baton/sessions';
import { copyRegularTree } from './copy-regular-tree.js';
import { InputFileError } from './input-file-error.js';
import { StoreReadError } from './store-read-error.js';
import { UsageError } from './usage-error.js';

/**
 * Opens a throw-away copy of a PGlite store folder and passes it to `use`. Opening a PGlite folder
 * writes to it (pg_control, the write-ahead log) even to read, so the store itself is never opened.
 * The copy is migrated: a store made by an older release lacks columns the current schema reads, and
 * migrating the copy leaves the user's store as it was. Throws `InputFileError` for a path that is not
 * a store folder, before anything is created, and `StoreReadError` (one line, no SQL, no parameters)
 * for any other failure to open or read the copy.
 */
export async function withStoreCopy<T>(
  dataDir: string,
  use: (store: SessionStore) => Promise<T>,
): Promise<T> {
  if (!existsSync(dataDir))
    throw new InputFileError({ file: dataDir, message: 'no such directory' });
  if (!statSync(dataDir).isDirectory()) {
    throw new InputFileError({
      file: dataDir,
      message: 'not a directory (expected the data folder of a @baton/sessions PGlite store)',
    });
  }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new InputFileError({ file: dataDir, message: 'not a PGlite data directory' });
  }
  const copy = await mkdtemp(join(tmpdir(), 'baton-store-'));
  try {
    try {
      // Copied from the folder the path resolves to, never through a link: a link in the copy would
      // lead PGlite to open (write to, migrate) the user's store itself.
      const source = await realpath(dataDir);
      // The store's lock names the process that holds it open: a copy that kept it would be refused
      // as a folder in use, though the copy belongs to this command alone.
      const lock = join(source, dataDirLockName);
      // Only folders and regular files, each judged by the handle it is copied from: a link inside
      // (even one swapped in while copying) would also lead PGlite out of the copy, and a FIFO or
      // device would block or fail the copy. PGlite itself writes neither. The lock's draft or a
      // stale copy moved aside (`<lock>.<...>`) are left out with it.
      await copyRegularTree(
        source,
        join(copy, 'store'),
        (path) => path === lock || path.startsWith(`${lock}.`),
      );
    } catch (error) {
      throw new StoreReadError({ dataDir, cause: error });
    }
    let store: SessionStore;
    try {
      store = await createSessionStore({ dataDir: join(copy, 'store') });
    } catch (error) {
      throw new StoreReadError({ dataDir, cause: error });
    }
    try {
      return await use(store);
    } catch (error) {
      // The command's own errors are already one safe line; anything else came from the database.
      if (InputFileError.isInstance(error) || UsageError.isInstance(error)) throw error;
      throw new StoreReadError({ dataDir, cause: error });
    } finally {
      await store.close().catch(() => {});
    }
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/** Every session of the store (or of one lineage), ended ones included, newest first. */
export async function allSessions(store: SessionStore, rootId?: string): Promise<Session[]> {
  const all: Session[] = [];
  const limit = 1_000;
  for (let offset = 0; ; offset += limit) {
    const page = await store.listSessions({
      includeEnded: true,
      limit,
      offset,
      ...(rootId === undefined ? {} : { rootId }),
    });
    all.push(...page);
    if (page.length < limit) return all;
  }
}
