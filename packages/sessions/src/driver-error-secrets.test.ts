import { inspect } from 'node:util';
import { BatonError } from '@baton/tokens';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore, StoreConnectionError, sessions } from './index.js';
import { describePrivatePostgres } from './test/private-postgres.js';

/**
 * A refusal from the server that is neither bad input (SQLSTATE class 22) nor a lost connection: a
 * read-only transaction after a failover, a missing privilege, an application's trigger or
 * constraint, tables not migrated. drizzle wraps the driver's error as `Failed query: <sql> params:
 * <every parameter>`, and the driver's own error carries the parameters too (PGlite) or the row in
 * `detail` ("Failing row contains (...)"). Whatever reaches the caller, its message, what
 * `console.error` prints (util.inspect, `cause` included), JSON and the stack, must hold neither the
 * message contents (a tool output may hold a credential) nor the session id (documented as never in
 * an error), and the error must be a typed BatonError naming the problem.
 */

// Credential-shaped: a prefix the store's SQL never contains, then 24 to 40 letters and digits.
const secrets = fc.noBias(fc.stringMatching(/^[A-Za-z0-9]{24,40}$/)).map((body) => `tok_${body}`);

function everythingPrinted(error: unknown): string {
  let json = '';
  try {
    json = JSON.stringify(error) ?? '';
  } catch {
    // a cycle: nothing to add
  }
  return [
    String((error as Error)?.message),
    String((error as Error)?.stack),
    inspect(error, { depth: Number.POSITIVE_INFINITY }),
    json,
  ].join('\n');
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => ({ resolvedUnexpectedly: value }),
    (error: unknown) => error,
  );
}

function expectTypedAndClean(error: unknown, hidden: string[], label: string): void {
  expect(BatonError.isInstance(error), `${label}: ${String(error)}`).toBe(true);
  const printed = everythingPrinted(error);
  for (const text of hidden) {
    expect(printed.includes(text), `${label}: ${text} appears in\n${printed.slice(0, 2_000)}`).toBe(
      false,
    );
  }
}

/** Every writing call, each carrying the secret in what it writes and in the session ids. */
function writes(store: SessionStore, secret: string, existingId: string) {
  const toolOutput = [
    {
      role: 'tool' as const,
      content: [
        {
          type: 'tool-result' as const,
          toolCallId: 'call-1',
          toolName: 'read_env',
          output: { type: 'text' as const, value: `OPENAI_API_KEY=${secret}` },
        },
      ],
    },
  ];
  return {
    createSession: () => store.createSession({ id: `${secret}-new`, title: secret }),
    appendMessages: () => store.appendMessages(existingId, toolOutput),
    recordCompaction: () =>
      store.recordCompaction(existingId, {
        messages: toolOutput,
        summary: `the key is ${secret}`,
        strategy: 'receipt',
        usedFallback: false,
        tokensBefore: 10,
        tokensAfter: 5,
      }),
    fork: () => store.fork(existingId, { id: `${secret}-fork`, title: secret }),
    endSession: () => store.endSession(existingId, `revoked ${secret}`),
  };
}

describe('server refusals never echo the SQL parameters (PGlite)', () => {
  let client: PGlite;
  let store: SessionStore;
  let bare: SessionStore;

  beforeAll(async () => {
    client = await PGlite.create();
    store = await createSessionStore({ db: drizzle({ client }) });
    // A store over a database whose tables were never migrated.
    bare = await createSessionStore({
      db: drizzle({ client: await PGlite.create() }),
      migrate: false,
    });
  }, 180_000);

  afterAll(async () => {
    await store?.close();
    await bare?.close();
    await client?.close();
  });

  it('control: the raw driver error of such a refusal does hold the parameter', async () => {
    await client.exec(`set default_transaction_read_only = on`);
    try {
      const raw = await caught(
        drizzle({ client })
          .insert(sessions)
          .values({ id: 'control-id', rootId: 'control-id', origin: 'root', title: 'tok_control' }),
      );
      expect(everythingPrinted(raw)).toContain('tok_control');
    } finally {
      await client.exec(`set default_transaction_read_only = off`);
    }
  });

  it('read-only, a trigger, a constraint, no tables: typed errors without the secret or the id (property)', async () => {
    const refusals: Record<string, { on: string; off: string }> = {
      'read-only transaction (25006)': {
        on: `set default_transaction_read_only = on`,
        off: `set default_transaction_read_only = off`,
      },
      'trigger (P0001)': {
        on: `create function baton_test_refuse() returns trigger language plpgsql as
               $$ begin raise exception 'quota exceeded'; end $$;
             create trigger baton_test_refuse before insert or update on baton_messages
               for each row execute function baton_test_refuse();
             create trigger baton_test_refuse before insert or update on baton_sessions
               for each row execute function baton_test_refuse();`,
        off: `drop trigger baton_test_refuse on baton_messages;
              drop trigger baton_test_refuse on baton_sessions;
              drop function baton_test_refuse();`,
      },
      'check constraint (23514)': {
        on: `alter table baton_sessions add constraint baton_test_no_tokens
               check (coalesce(title, '') not like 'tok%' and coalesce(end_reason, '') not like 'revoked%')
               not valid;
             alter table baton_messages add constraint baton_test_no_tokens
               check (coalesce(search_text, '') not like '%tok\\_%') not valid;`,
        off: `alter table baton_sessions drop constraint baton_test_no_tokens;
              alter table baton_messages drop constraint baton_test_no_tokens;`,
      },
    };
    await fc.assert(
      fc.asyncProperty(secrets, async (secret) => {
        // Premise: the secret is credential-shaped and not part of any SQL the store sends.
        expect(secret).toMatch(/^tok_[A-Za-z0-9]{24,40}$/);
        const existing = await store.createSession({ id: `${secret}-id` });
        const hidden = [secret, existing.id];
        for (const [label, { on, off }] of Object.entries(refusals)) {
          await client.exec(on);
          try {
            for (const [method, call] of Object.entries(writes(store, secret, existing.id))) {
              expectTypedAndClean(await caught(call()), hidden, `${label}, ${method}`);
            }
          } finally {
            await client.exec(off);
          }
        }
        for (const [method, call] of Object.entries(writes(bare, secret, existing.id))) {
          expectTypedAndClean(await caught(call()), hidden, `no tables, ${method}`);
        }
        // Nothing was written by the refused calls, and the store works once the refusal is gone.
        expect(await store.getMessages(existing.id)).toEqual([]);
        await store.appendMessages(existing.id, [{ role: 'user', content: 'after' }]);
      }),
      { numRuns: 8 },
    );
  }, 300_000);

  it('names the problem: SQLSTATE and, for a refusal that holds no values, the server message', async () => {
    const existing = await store.createSession();
    await client.exec(`set default_transaction_read_only = on`);
    try {
      const error = (await caught(
        store.appendMessages(existing.id, [{ role: 'user', content: 'x' }]),
      )) as BatonError & { sqlstate?: string };
      expect(error.code).toBe('store_database');
      expect(error.sqlstate).toBe('25006');
      expect(error.message).toContain('25006');
      expect(error.message).toContain('read-only transaction');
      // Named once, in the server's words (this class holds no values), without the SQL.
      expect(error.message).toMatch(
        /^the database refused the call: cannot execute [A-Z ]+ in a read-only transaction \(SQLSTATE 25006\)$/,
      );
    } finally {
      await client.exec(`set default_transaction_read_only = off`);
    }
  });
});

describePrivatePostgres(
  'server refusals and lost connections never echo the SQL parameters (private PostgreSQL)',
  (privateServer) => {
    it('a role without INSERT: StoreDatabaseError 42501 naming the table, no secret', async () => {
      const owner = await createSessionStore({
        connectionString: privateServer().connectionString,
      });
      const admin = new pg.Client({ connectionString: privateServer().connectionString });
      await admin.connect();
      try {
        await admin.query(`create role baton_limited login`);
        await admin.query(
          `grant select, update on baton_sessions, baton_compactions, baton_messages to baton_limited`,
        );
        const url = new URL(privateServer().connectionString);
        url.username = 'baton_limited';
        const limited = await createSessionStore({
          connectionString: url.toString(),
          migrate: false,
        });
        try {
          const secret = `tok_${crypto.randomUUID().replaceAll('-', '')}`;
          const existing = await owner.createSession({ id: `${secret}-id` });
          for (const [method, call] of Object.entries(writes(limited, secret, existing.id))) {
            if (method === 'endSession') continue; // UPDATE is granted
            const error = await caught(call());
            expectTypedAndClean(error, [secret, existing.id], method);
            expect((error as BatonError).code, method).toBe('store_database');
            expect((error as Error).message, method).toContain('permission denied');
          }
        } finally {
          await limited.close();
        }
      } finally {
        await admin.end();
        await owner.close();
      }
    }, 180_000);

    it('a connection terminated under an INSERT: StoreConnectionError without the secret', async () => {
      const store = await createSessionStore({
        connectionString: privateServer().connectionString,
      });
      const admin = new pg.Client({ connectionString: privateServer().connectionString });
      const monitor = new pg.Client({ connectionString: privateServer().connectionString });
      await Promise.all([admin.connect(), monitor.connect()]);
      try {
        const secret = `tok_${crypto.randomUUID().replaceAll('-', '')}`;
        const session = await store.createSession({ id: `${secret}-id` });
        await admin.query('begin');
        // Blocks INSERT (row exclusive) but not the reads before it: the append waits at its insert.
        await admin.query('lock table baton_messages in exclusive mode');
        const pending = caught(
          store.appendMessages(session.id, [{ role: 'user', content: `key ${secret}` }]),
        );
        // Polled from a connection outside the locking transaction: pg_stat_activity is a snapshot
        // taken once per transaction.
        let pid: number | undefined;
        for (let attempt = 0; attempt < 400 && pid === undefined; attempt++) {
          const { rows } = await monitor.query<{ pid: number }>(
            `select pid from pg_stat_activity
             where wait_event_type = 'Lock' and query like 'insert into "baton_messages"%'`,
          );
          pid = rows[0]?.pid;
          if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(pid, 'the append never reached its insert').toBeDefined();
        await admin.query('select pg_terminate_backend($1)', [pid]);
        const error = await pending;
        await admin.query('rollback');
        expect(StoreConnectionError.isInstance(error), String(error)).toBe(true);
        expectTypedAndClean(error, [secret, session.id], 'terminated insert');
        expect(await store.getMessages(session.id)).toEqual([]);
      } finally {
        await Promise.all([admin.end(), monitor.end()]);
        await store.close();
      }
    }, 180_000);
  },
);
