import { InvalidInputError } from '@baton/tokens';
import { lockDataDir } from './data-dir-lock.js';
import { describeConnectionString } from './database-error.js';
import { openSessionStore, type SessionStoreInternals } from './session-store.js';
import { StoreConnectionError } from './store-connection-error.js';
import type { SessionStore, SessionStoreOptions } from './types.js';

/**
 * Opens a lineage store. No options: PGlite in memory. `{ dataDir }`: PGlite on disk.
 * `{ connectionString }`: a PostgreSQL server through a node-postgres pool. `{ db }`: your drizzle
 * database. Drivers load lazily here, so only the one you use must be installed. Migrations apply on
 * open unless `migrate: false`.
 */
export async function createSessionStore(options: SessionStoreOptions = {}): Promise<SessionStore> {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({ path: 'options', message: 'must be an object' });
  }
  const chosen = (['dataDir', 'connectionString', 'db'] as const).filter(
    (key) => options[key] !== undefined,
  );
  if (chosen.length > 1) {
    throw new InvalidInputError({
      path: 'options',
      message: `give at most one of dataDir, connectionString, db (got ${chosen.join(', ')})`,
    });
  }
  if (options.maxConnections !== undefined) {
    if (!Number.isSafeInteger(options.maxConnections) || options.maxConnections < 1) {
      throw new InvalidInputError({ path: 'maxConnections', message: 'must be an integer >= 1' });
    }
  }
  const tokenCounter = options.tokenCounter;
  if (tokenCounter !== undefined && typeof tokenCounter?.countMessage !== 'function') {
    throw new InvalidInputError({
      path: 'tokenCounter',
      message: 'must have a countMessage method',
    });
  }

  const internals = await connect(options);
  const store = openSessionStore({ ...internals, tokenCounter });
  if (options.migrate !== false) {
    try {
      // Through the store, so a connection failure here is a typed StoreConnectionError too.
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}

async function connect(
  options: SessionStoreOptions,
): Promise<Omit<SessionStoreInternals, 'tokenCounter'>> {
  if (options.db !== undefined) {
    // A node-postgres pool without an 'error' listener kills the process when a server goes away
    // under its idle connections (pg-pool re-emits their errors); the store's calls on it would be
    // what brings the process down. pg-pool discards such a connection itself: the listener only
    // stops the crash. An application that listens already keeps its own handling alone.
    const client = (options.db as { $client?: unknown }).$client as
      | { on?: unknown; listenerCount?: unknown; totalCount?: unknown; idleCount?: unknown }
      | undefined;
    if (
      typeof client === 'object' &&
      client !== null &&
      typeof client.on === 'function' &&
      typeof client.listenerCount === 'function' &&
      'totalCount' in client &&
      'idleCount' in client &&
      client.listenerCount('error') === 0
    ) {
      client.on('error', () => {});
    }
    return {
      db: options.db,
      backend: 'external',
      closeConnection: async () => {},
      target: 'the given database',
    };
  }
  if (options.connectionString !== undefined) {
    if (typeof options.connectionString !== 'string' || options.connectionString === '') {
      throw new InvalidInputError({
        path: 'connectionString',
        message: 'must be a non-empty string',
      });
    }
    const [{ default: pg }, { drizzle }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
    ]);
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
    });
    // A network error is an 'error' event: on the pool for an idle client, on the client itself while
    // it is checked out (pg-pool drops its own listener then). Unhandled, either kills the process.
    // The query in flight rejects on its own (and becomes a StoreConnectionError); the broken client
    // is discarded on release, and the pool opens new ones once the server is back.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    return {
      db: drizzle({ client: pool }),
      backend: 'node-postgres',
      closeConnection: () => pool.end(),
      target: describeConnectionString(options.connectionString),
    };
  }
  if (
    options.dataDir !== undefined &&
    (typeof options.dataDir !== 'string' || options.dataDir === '')
  ) {
    throw new InvalidInputError({ path: 'dataDir', message: 'must be a non-empty string' });
  }
  const [{ PGlite }, { drizzle }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    // Trigram index for recall's verbatim search (migration 0003); part of the PGlite package.
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const target =
    options.dataDir === undefined ? 'PGlite in memory' : `PGlite at ${options.dataDir}`;
  // PGlite does not lock its folder: a second store on it would overwrite the first one's writes.
  const lock =
    options.dataDir === undefined ? undefined : await lockDataDir(options.dataDir, target);
  let client: InstanceType<typeof PGlite>;
  try {
    client = await PGlite.create(lock?.folder ?? options.dataDir, { extensions: { pg_trgm } });
  } catch (error) {
    await lock?.release();
    // PGlite fails here with a bare Emscripten `ErrnoError` or a generic `Error` (a folder holding
    // another version's or a damaged database): the caller gets the store's own typed error.
    const errno = (error as { errno?: unknown } | null)?.errno;
    throw new StoreConnectionError({
      target,
      reason: typeof errno === 'number' ? `errno ${errno}` : undefined,
      detail:
        'PGlite could not start on the data folder (it is not empty and holds no database this PGlite version can open, or a damaged one)',
      cause: error,
    });
  }
  return {
    db: drizzle({ client }),
    backend: 'pglite',
    closeConnection: () => client.close().finally(() => lock?.release()),
    target,
  };
}
