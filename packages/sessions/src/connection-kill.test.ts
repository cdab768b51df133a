import { BatonError } from '@baton/tokens';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSessionStore, type SessionStore, StoreConnectionError } from './index.js';
import {
  createTestDatabase,
  describePostgres,
  type TestDatabase,
} from './test-utils/postgres-database.js';

// Issue 17 item 4 (found by an independent attack): the server side of the store's connections dies mid-call
// (pg_terminate_backend on the store's own backends: what a failover or an admin kill does, without
// stopping the shared server), and close() races every kind of call. Each call must settle (no
// hang) with success or a BatonError, the process lives, and the store works again afterwards.
const settleWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise.then(
      (value) => ({ kind: 'ok' as const, value }),
      (error: unknown) => ({ kind: 'error' as const, error }),
    ),
    new Promise<{ kind: 'hang' }>((resolve) => setTimeout(() => resolve({ kind: 'hang' }), ms)),
  ]);

const compaction = () => ({
  messages: [{ role: 'user' as const, content: 'summary' }],
  strategy: 'summarize' as const,
  summary: 'summary',
  usedFallback: false,
  tokensBefore: 10,
  tokensAfter: 5,
});

describePostgres('connections killed mid-call and close() races (PostgreSQL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('attack1');
  });
  afterAll(async () => {
    await database?.drop();
  });

  /**
   * Rounds of every kind of call on one session, with the store's backends terminated while they run.
   * Returns the calls that never settled and the errors that were not BatonErrors.
   */
  async function killMidCall(store: SessionStore, application: string) {
    const admin = new pg.Client({ connectionString: database.connectionString });
    await admin.connect();
    const outcomes: Array<Awaited<ReturnType<typeof settleWithin>>> = [];
    const hung: string[] = [];
    try {
      for (let round = 0; round < 12; round++) {
        const created = await settleWithin(store.createSession(), 20_000);
        if (created.kind !== 'ok') {
          hung.push(`round ${round}: createSession ${created.kind}`);
          break;
        }
        const session = created.value;
        await settleWithin(
          store.appendMessages(session.id, [{ role: 'user', content: `hello ${round}` }]),
          20_000,
        );
        const named: Array<[string, Promise<unknown>]> = [
          [
            'append',
            store.appendMessages(session.id, [{ role: 'assistant', content: 'x'.repeat(50_000) }]),
          ],
          ['recordCompaction', store.recordCompaction(session.id, compaction())],
          ['fork', store.fork(session.id, { endSource: 'branched' })],
          ['list', store.listSessions({ limit: 100 })],
          ['resume', store.resume(session.id)],
          ['lineage', store.lineage(session.id)],
          ['child', store.createSession({ parentId: session.id })],
        ];
        const calls = named.map(([name, call]) =>
          settleWithin(call, 20_000).then((outcome) => {
            if (outcome.kind === 'hang') hung.push(`round ${round}: ${name}`);
            return outcome;
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, round % 5));
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
          [application],
        );
        outcomes.push(...(await Promise.all(calls)));
      }
    } finally {
      await admin.end();
    }
    const untyped = outcomes.flatMap((outcome) =>
      outcome.kind === 'error' && !BatonError.isInstance(outcome.error)
        ? [String((outcome.error as Error)?.message ?? outcome.error).slice(0, 200)]
        : [],
    );
    return { hung, untyped };
  }

  const applicationName = () => `killed_${Math.random().toString(36).slice(2, 8)}`;

  /**
   * A store of four pooled connections, and `restart()`: fill the pool with idle connections, then
   * terminate every backend of the store at once, as a server restart leaves them.
   */
  async function openRestartableStore() {
    const application = applicationName();
    const url = new URL(database.connectionString);
    url.searchParams.set('application_name', application);
    const store = await createSessionStore({ connectionString: url.toString(), maxConnections: 4 });
    const admin = new pg.Client({ connectionString: database.connectionString });
    await admin.connect();
    return {
      store,
      async restart() {
        await Promise.all(Array.from({ length: 4 }, () => store.listSessions({ limit: 1 })));
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
          [application],
        );
      },
      async close() {
        await admin.end();
        await store.close();
      },
    };
  }

  it('killed backends: every call settles with success or a BatonError, and the store recovers', async () => {
    const application = applicationName();
    const url = new URL(database.connectionString);
    url.searchParams.set('application_name', application);
    const store = await createSessionStore({ connectionString: url.toString() });
    const unhandled: unknown[] = [];
    const onUnhandled = (error: unknown) => unhandled.push(error);
    process.on('uncaughtException', onUnhandled);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { hung, untyped } = await killMidCall(store, application);
      expect(hung).toEqual([]);
      expect(untyped).toEqual([]);
      expect(unhandled.map(String)).toEqual([]);
      // Works again: more calls than the pool has connections, then close() settles.
      const later = await Promise.all(
        Array.from({ length: 20 }, () => settleWithin(store.listSessions({ limit: 1 }), 20_000)),
      );
      expect(later.filter((outcome) => outcome.kind === 'hang').length).toBe(0);
      expect((await settleWithin(store.close(), 20_000)).kind).toBe('ok');
    } finally {
      process.off('uncaughtException', onUnhandled);
      process.off('unhandledRejection', onUnhandled);
    }
  }, 200_000);

  it('idle connections killed (a server restart): the next calls succeed on fresh connections', async () => {
    // An idle pooled client whose backend is gone is handed out before its error event is read;
    // the call's `BEGIN` fails on it with nothing run, and must go on on a fresh connection.
    const { store, restart, close } = await openRestartableStore();
    try {
      for (let round = 0; round < 8; round++) {
        await restart();
        const created = await Promise.all(
          Array.from({ length: 4 }, () => settleWithin(store.createSession(), 20_000)),
        );
        expect(
          created.map((outcome) => outcome.kind),
          `round ${round}`,
        ).toEqual(['ok', 'ok', 'ok', 'ok']);
      }
    } finally {
      await close();
    }
  }, 200_000);

  it('idle connections killed (a server restart): the next reads succeed on fresh connections', async () => {
    // Reads outside a transaction go straight to a pooled client; one handed out dead must not
    // fail the read, which ran nothing and can run again.
    const { store, restart, close } = await openRestartableStore();
    try {
      const session = await store.createSession();
      await store.appendMessages(session.id, [{ role: 'user', content: 'needle in the history' }]);
      const reads: Array<[string, () => Promise<unknown>]> = [
        ['listSessions', () => store.listSessions({ limit: 1 })],
        ['getSession', () => store.getSession(session.id)],
        ['getCompaction', () => store.getCompaction(session.id)],
        ['lineage', () => store.lineage(session.id)],
        ['recall', () => store.recall(session.id, { query: 'needle' })],
      ];
      for (let round = 0; round < 10; round++) {
        const [name, read] = reads[round % reads.length]!;
        await restart();
        const outcomes = await Promise.all(
          Array.from({ length: 4 }, () => settleWithin(read(), 20_000)),
        );
        expect(
          outcomes.map((outcome) => outcome.kind),
          `round ${round}: ${name}`,
        ).toEqual(['ok', 'ok', 'ok', 'ok']);
      }
    } finally {
      await close();
    }
  }, 200_000);

  it('killed backends under a drizzle database you pass in (`db`): every pooled client comes back', async () => {
    const application = applicationName();
    const pool = new pg.Pool({
      connectionString: database.connectionString,
      application_name: application,
      max: 4,
    });
    // The application's own pool: its idle clients' errors are the application's to handle.
    pool.on('error', () => {});
    const store = await createSessionStore({ db: drizzle({ client: pool }) });
    try {
      const { hung, untyped } = await killMidCall(store, application);
      expect(hung).toEqual([]);
      expect(untyped).toEqual([]);
      // No client is left checked out: the pool holds only idle ones and nobody waits.
      expect(pool.totalCount - pool.idleCount).toBe(0);
      expect(pool.waitingCount).toBe(0);
      const batch = () =>
        Promise.all(
          Array.from({ length: 12 }, () =>
            settleWithin(
              store.createSession().then((session) => store.endSession(session.id, 'done')),
              20_000,
            ),
          ),
        );
      // The first batch may still meet an idle connection whose kill it sees first: that call fails
      // typed and its client is discarded. 12 calls on 4 connections use every idle one, so the
      // second batch runs on live connections only.
      const first = await batch();
      expect(first.filter((outcome) => outcome.kind === 'hang')).toEqual([]);
      for (const outcome of first) {
        if (outcome.kind === 'error') {
          expect(StoreConnectionError.isInstance(outcome.error), String(outcome.error)).toBe(true);
        }
      }
      const second = await batch();
      expect(second.map((outcome) => outcome.kind)).toEqual(second.map(() => 'ok'));
      await store.close();
    } finally {
      expect((await settleWithin(pool.end(), 20_000)).kind).toBe('ok');
    }
  }, 200_000);

  it('a connection killed inside a transaction (ROLLBACK fails too): the call rejects typed, the client is discarded, the store goes on', async () => {
    const application = applicationName();
    const pool = new pg.Pool({
      connectionString: database.connectionString,
      application_name: application,
      max: 1,
    });
    pool.on('error', () => {});
    const store = await createSessionStore({ db: drizzle({ client: pool }) });
    const admin = new pg.Client({ connectionString: database.connectionString });
    await admin.connect();
    try {
      const session = await store.createSession();
      // Hold the session's row lock, so the append waits inside its transaction, after BEGIN.
      await admin.query('begin');
      await admin.query('select 1 from baton_sessions where id = $1 for update', [session.id]);
      // Settled at once: it rejects while the test still awaits the kill, and must not count as unhandled.
      const append = settleWithin(
        store.appendMessages(session.id, [{ role: 'user', content: 'hi' }]),
        20_000,
      );
      let waiting = 0;
      for (let attempt = 0; attempt < 200 && waiting === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        const { rows } = await admin.query(
          `select count(*)::int as n from pg_stat_activity
           where application_name = $1 and wait_event_type = 'Lock'`,
          [application],
        );
        waiting = rows[0].n;
      }
      expect(waiting).toBe(1);
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [application],
      );
      const outcome = await append;
      expect(outcome.kind).toBe('error');
      expect(
        StoreConnectionError.isInstance((outcome as { error?: unknown }).error),
        String((outcome as { error?: unknown }).error),
      ).toBe(true);
      await admin.query('rollback');
      expect(pool.totalCount - pool.idleCount).toBe(0);
      // One connection in the pool: the next call gets a fresh one, and nothing of the append was kept.
      expect(await store.getMessages(session.id)).toEqual([]);
      await store.appendMessages(session.id, [{ role: 'user', content: 'again' }]);
      expect((await store.getMessages(session.id)).map((row) => row.message.content)).toEqual([
        'again',
      ]);
      await store.close();
    } finally {
      await admin.end();
      expect((await settleWithin(pool.end(), 20_000)).kind).toBe('ok');
    }
  }, 60_000);

  it('close() racing each kind of call: every call settles, with success or a BatonError', async () => {
    const outcomes: Array<{ name: string; outcome: Awaited<ReturnType<typeof settleWithin>> }> = [];
    for (let round = 0; round < 12; round++) {
      const store: SessionStore = await createSessionStore({
        connectionString: database.connectionString,
      });
      const session = await store.createSession();
      await store.appendMessages(session.id, [{ role: 'user', content: 'hello' }]);
      const started: Array<[string, Promise<unknown>]> = [
        ['append', store.appendMessages(session.id, [{ role: 'assistant', content: 'a' }])],
        ['recordCompaction', store.recordCompaction(session.id, compaction())],
        ['fork', store.fork(session.id)],
        ['list', store.listSessions()],
        ['resume', store.resume(session.id)],
        ['lineage', store.lineage(session.id)],
        ['getCompaction', store.getCompaction(session.id)],
        ['endSession', store.endSession(session.id, 'done')],
        ['migrate', store.migrate()],
      ];
      const calls = started.map(([name, call]) => [name, settleWithin(call, 10_000)] as const);
      for (let tick = 0; tick < round; tick++) await Promise.resolve();
      if (round % 3 === 2) await new Promise((resolve) => setTimeout(resolve, round));
      const closing = store.close();
      for (const [name, call] of calls) {
        outcomes.push({ name, outcome: await call });
      }
      expect((await settleWithin(closing, 10_000)).kind).toBe('ok');
    }
    expect(
      outcomes.filter(({ outcome }) => outcome.kind === 'hang').map(({ name }) => name),
    ).toEqual([]);
    const untyped = outcomes.flatMap(({ name, outcome }) =>
      outcome.kind === 'error' && !BatonError.isInstance(outcome.error)
        ? [`${name}: ${String((outcome.error as Error)?.message).slice(0, 160)}`]
        : [],
    );
    expect(untyped).toEqual([]);
  }, 240_000);
});
