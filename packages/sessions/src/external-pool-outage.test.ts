import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createSessionStore } from './index.js';
import { describePrivatePostgres } from './test/private-postgres.js';

/**
 * A store over an application's node-postgres pool (`{ db }`) whose server stops while the pool holds
 * idle connections the store used. pg-pool re-emits their errors on the pool; with no listener that
 * is an uncaught 'error' event and the process dies (before the fix, here: the test worker). The
 * store now listens when the application does not, so the process lives and the store works once
 * the server is back.
 */
describePrivatePostgres('an application pool passed as { db } outlives a server stop', (server) => {
  it('keeps the process alive and works again after a restart', async () => {
    const pool = new pg.Pool({ connectionString: server().connectionString, max: 4 });
    // Premise: the application added no listener of its own.
    expect(pool.listenerCount('error')).toBe(0);
    const store = await createSessionStore({ db: drizzle({ client: pool }) });
    try {
      const session = await store.createSession();
      await Promise.all([
        store.getSession(session.id),
        store.listSessions(),
        store.appendMessages(session.id, [{ role: 'user', content: 'before' }]),
      ]);
      expect(pool.idleCount).toBeGreaterThan(0);
      await server().stop('immediate');
      // Time for the idle connections to see their sockets close and emit their errors.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(pool.idleCount).toBe(0);
      await server().start();
      await store.appendMessages(session.id, [{ role: 'user', content: 'after' }]);
      expect((await store.getMessages(session.id)).map((row) => row.message.content)).toEqual([
        'before',
        'after',
      ]);
    } finally {
      await store.close();
      await pool.end();
    }
  }, 120_000);

  it('leaves a listening application pool alone', async () => {
    const pool = new pg.Pool({ connectionString: server().connectionString });
    const own = () => {};
    pool.on('error', own);
    const store = await createSessionStore({ db: drizzle({ client: pool }) });
    try {
      expect(pool.listeners('error')).toEqual([own]);
    } finally {
      await store.close();
      await pool.end();
    }
  }, 60_000);
});
