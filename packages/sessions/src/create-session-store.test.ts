import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '@baton/tokens';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionStore, messages, sessions } from './index.js';
import { migrationsFolder } from './migrate-database.js';
import { userMessages } from './test/index.js';
import { createTestDatabase, describePostgres } from './test-utils/postgres-database.js';

describe('createSessionStore options', () => {
  it('refuses more than one backend and malformed options before opening anything', async () => {
    const cases: unknown[] = [
      { dataDir: '/tmp/x', connectionString: 'postgres://localhost/x' },
      { connectionString: '' },
      { dataDir: 42 },
      { maxConnections: 0 },
      { tokenCounter: {} },
      null,
    ];
    for (const options of cases) {
      await expect(createSessionStore(options as never)).rejects.toSatisfy(
        InvalidInputError.isInstance,
      );
    }
  });

  describe('PGlite on disk', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'baton-sessions-'));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('skips migrations when asked, migrates on demand, and keeps data across reopening', async () => {
      const first = await createSessionStore({ dataDir, migrate: false });
      expect(first.backend).toBe('pglite');
      await expect(first.createSession()).rejects.toThrow(/baton_sessions/);
      await first.migrate();
      await first.migrate();
      const session = await first.createSession({ title: 'persisted' });
      await first.appendMessages(session.id, userMessages(3));
      await first.close();
      await first.close();

      const second = await createSessionStore({ dataDir });
      try {
        expect(await second.getSession(session.id)).toMatchObject({ title: 'persisted' });
        expect((await second.getMessages(session.id)).map((row) => row.message)).toEqual(
          userMessages(3),
        );
        // The exported tables work with the store's drizzle database directly.
        const [row] = await second.db.select().from(sessions);
        expect(row?.id).toBe(session.id);
        expect(await second.db.$count(messages)).toBe(3);
      } finally {
        await second.close();
      }
    }, 60_000);
  });
});

describePostgres('createSessionStore on PostgreSQL', () => {
  it('migrates once when several processes open a fresh database at the same moment', async () => {
    const database = await createTestDatabase('migrate');
    try {
      const stores = await Promise.all(
        Array.from({ length: 4 }, () =>
          createSessionStore({ connectionString: database.connectionString, maxConnections: 2 }),
        ),
      );
      expect(stores.every((store) => store.backend === 'node-postgres')).toBe(true);
      const session = await stores[0]!.createSession();
      expect((await stores[3]!.getSession(session.id)).id).toBe(session.id);
      const client = new pg.Client({ connectionString: database.connectionString });
      await client.connect();
      const { rows } = await client.query(
        'select count(*)::int as n from drizzle.__baton_sessions_migrations',
      );
      await client.end();
      // Each bundled migration recorded once, however many processes raced to apply it.
      expect(rows[0].n).toBe(readMigrationFiles({ migrationsFolder }).length);
      await Promise.all(stores.map((store) => store.close()));
    } finally {
      await database.drop();
    }
  }, 60_000);

  it('runs on a drizzle database you own and leaves it open on close', async () => {
    const database = await createTestDatabase('external');
    const pool = new pg.Pool({ connectionString: database.connectionString, max: 2 });
    // pool.end() resolves before its clients' sockets close, so the forced drop below can still
    // terminate one: the application's pool handles that error, as any pool must.
    pool.on('error', () => {});
    try {
      const db = drizzle({ client: pool });
      const store = await createSessionStore({ db });
      expect(store.backend).toBe('external');
      const session = await store.createSession();
      await store.appendMessages(session.id, userMessages(2));
      await store.close();
      expect(await db.$count(messages)).toBe(2);
    } finally {
      await pool.end();
      await database.drop();
    }
  }, 60_000);
});
