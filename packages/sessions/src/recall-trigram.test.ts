import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore, recallScanLimit, type SessionStore } from './index.js';
import { migrateDatabase, rowsOf } from './migrate-database.js';
import { createTestDatabase, describePostgres } from './test-utils/postgres-database.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const token = () => crypto.randomUUID().replaceAll('-', '').slice(0, 10);

async function hasTrigramIndex(store: SessionStore): Promise<boolean> {
  const [row] = rowsOf(
    await store.db.execute(
      sql`select to_regclass('baton_messages_search_trgm_idx') is not null as present`,
    ),
  );
  return row?.present === true;
}

/** A store on a PGlite opened without the pg_trgm extension: what a server without contrib is. */
async function storeWithoutTrigram() {
  const client = await PGlite.create();
  const store = await createSessionStore({ db: drizzle({ client }) });
  return { store, close: async () => client.close() };
}

/**
 * `count` messages in one session, inserted in SQL (fast), each with text `filler <sequence>`; the
 * needles are written into the given sequences inside a longer word, where full-text search cannot
 * see them, so only the verbatim side of recall finds them.
 */
async function fillSession(store: SessionStore, count: number, needles: Map<number, string>) {
  const session = await store.createSession();
  await store.db.execute(sql`
    insert into baton_messages (session_id, sequence, role, message, search_text)
    select ${session.id}, n, 'user', json_build_object('role', 'user', 'content', 'filler ' || n),
      'filler ' || n
    from generate_series(0, ${count - 1}) as n`);
  for (const [sequence, needle] of needles) {
    const text = `see x${needle}y here`;
    await store.db.execute(sql`
      update baton_messages set message = ${JSON.stringify({ role: 'user', content: text })}::json,
        search_text = ${text}
      where session_id = ${session.id} and sequence = ${sequence}`);
  }
  return session.id;
}

describe('recall verbatim search with the trigram index (default PGlite)', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 60_000);
  afterAll(async () => {
    await store.close();
  });

  it('migration 0003 creates the index', async () => {
    expect(await hasTrigramIndex(store)).toBe(true);
  });

  it('finds a verbatim-only match anywhere in a lineage longer than the scan limit', async () => {
    const oldest = `Q${token()}`;
    const newest = `Q${token()}`;
    const count = recallScanLimit + 500;
    const id = await fillSession(
      store,
      count,
      new Map([
        [0, oldest],
        [count - 1, newest],
      ]),
    );
    for (const [needle, sequence] of [
      [oldest, 0],
      [newest, count - 1],
    ] as const) {
      const result = await store.recall(id, { query: needle });
      expect(result.scanLimited).toBe(false);
      expect(result.matches.map((match) => [match.sequence, match.matchedBy])).toEqual([
        [sequence, 'exact'],
      ]);
      expect(result.matches[0]!.excerpt).toContain(needle);
    }
  }, 60_000);
});

describe('recall without pg_trgm (PGlite opened without the extension)', () => {
  let bare: Awaited<ReturnType<typeof storeWithoutTrigram>>;
  beforeAll(async () => {
    bare = await storeWithoutTrigram();
  }, 60_000);
  afterAll(async () => {
    await bare.close();
  });

  it('migrates without the index and still answers', async () => {
    expect(await hasTrigramIndex(bare.store)).toBe(false);
    const session = await bare.store.createSession();
    const needle = `Q${token()}`;
    await bare.store.appendMessages(session.id, [{ role: 'user', content: `see x${needle}y` }]);
    const result = await bare.store.recall(session.id, { query: needle });
    expect(result.matches.map((match) => match.sequence)).toEqual([0]);
    expect(result.scanLimited).toBe(false);
  }, 60_000);

  it('reads only the newest recallScanLimit messages verbatim, says so, and a range reaches older ones', async () => {
    const oldest = `Q${token()}`;
    const inside = `Q${token()}`;
    const count = recallScanLimit + 500;
    const id = await fillSession(
      bare.store,
      count,
      new Map([
        [0, oldest],
        [count - recallScanLimit, inside],
      ]),
    );
    const missed = await bare.store.recall(id, { query: oldest });
    expect(missed).toMatchObject({ matches: [], scanLimited: true });
    const found = await bare.store.recall(id, { query: inside });
    expect(found.scanLimited).toBe(true);
    expect(found.matches.map((match) => match.sequence)).toEqual([count - recallScanLimit]);
    const ranged = await bare.store.recall(id, { query: oldest, fromSequence: 0, toSequence: 99 });
    expect(ranged.scanLimited).toBe(false);
    expect(ranged.matches.map((match) => match.sequence)).toEqual([0]);
  }, 60_000);

  it('the newest window runs back through the ancestors of a compacted lineage', async () => {
    const store = bare.store;
    const needle = `Q${token()}`;
    const root = await store.createSession();
    await store.appendMessages(root.id, [
      { role: 'user', content: `old x${needle}y` },
      { role: 'assistant', content: 'ok' },
    ]);
    const { child } = await store.recordCompaction(root.id, {
      messages: [{ role: 'user', content: 'summary' }],
      summary: 'summary',
      strategy: 'receipt',
      usedFallback: true,
      tokensBefore: 10,
      tokensAfter: 1,
      event: { removedMessageIndexes: [0, 1] },
    });
    const result = await store.recall(child.id, { query: needle });
    expect(result.matches.map((match) => [match.sessionId, match.sequence])).toEqual([
      [root.id, 0],
    ]);
    expect(result.scanLimited).toBe(false);
  }, 60_000);
});

describe('verbatim search gives the same answer with and without the index', () => {
  let indexed: SessionStore;
  let bare: Awaited<ReturnType<typeof storeWithoutTrigram>>;
  beforeAll(async () => {
    indexed = await createSessionStore();
    bare = await storeWithoutTrigram();
  }, 60_000);
  afterAll(async () => {
    await indexed.close();
    await bare.close();
  });

  it('agrees over random texts and queries (under the scan limit), and marks only verbatim hits exact', async () => {
    // A small alphabet with punctuation, case and a non-ASCII letter: queries hit inside words, across
    // punctuation, and by case-insensitive comparison, where trigram and full scans must agree.
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'B', 'c', '.', '/', '-', ' ', 'é', '1', '%', '_'),
      minLength: 0,
      maxLength: 24,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.nat(24),
        fc.integer({ min: 1, max: 6 }),
        async (texts, pick, start, length) => {
          const source = texts[pick % texts.length]!;
          const query = (source.slice(start, start + length) || source || 'ab').trim() || 'ab';
          const messages = texts.map((content) => ({ role: 'user' as const, content }));
          const expected = texts
            .map((content, sequence) => ({ content, sequence }))
            .filter(({ content }) => content.toLowerCase().includes(query.toLowerCase()))
            .map(({ sequence }) => sequence);
          const answers: unknown[] = [];
          for (const store of [indexed, bare.store]) {
            const session = await store.createSession();
            await store.appendMessages(session.id, messages);
            const result = await store.recall(session.id, { query, limit: 50 });
            expect(result.scanLimited).toBe(false);
            const found = result.matches.map((match) => [match.sequence, match.matchedBy]);
            // What is marked exact holds the query verbatim; a verbatim hit is never missed outright.
            for (const [sequence, matchedBy] of found) {
              if (matchedBy === 'exact') expect(expected).toContain(sequence);
            }
            if (expected.length > 0) expect(found.length).toBeGreaterThan(0);
            answers.push(found);
          }
          expect(answers[1]).toEqual(answers[0]);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe('upgrading a store made before migration 0003 in place', () => {
  it('adds the trigram index over existing messages', async () => {
    const older = mkdtempSync(join(tmpdir(), 'baton-sessions-older-'));
    const store = await createSessionStore({ migrate: false });
    try {
      cpSync(join(packageDir, 'drizzle'), older, { recursive: true });
      const journalPath = join(older, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
        entries: { tag: string }[];
      };
      journal.entries = journal.entries.filter((entry) => entry.tag < '0003');
      writeFileSync(journalPath, JSON.stringify(journal));
      await migrateDatabase(store.db, older);
      expect(await hasTrigramIndex(store)).toBe(false);
      const needle = `Q${token()}`;
      const session = await store.createSession();
      await store.appendMessages(session.id, [{ role: 'user', content: `see x${needle}y` }]);
      await store.migrate();
      await store.migrate(); // idempotent
      expect(await hasTrigramIndex(store)).toBe(true);
      const result = await store.recall(session.id, { query: needle });
      expect(result.matches.map((match) => match.sequence)).toEqual([0]);
    } finally {
      await store.close();
      rmSync(older, { recursive: true, force: true });
    }
  }, 60_000);
});

describePostgres('PostgreSQL: pg_trgm', () => {
  it('a role that may create pg_trgm gets the index', async () => {
    const database = await createTestDatabase('trgm');
    const store = await createSessionStore({ connectionString: database.connectionString });
    try {
      expect(await hasTrigramIndex(store)).toBe(true);
    } finally {
      await store.close();
      await database.drop();
    }
  });

  it('when CREATE EXTENSION fails, the migration still applies without the index, and recall answers', async () => {
    const database = await createTestDatabase('noext');
    const admin = new pg.Client({ connectionString: database.connectionString });
    await admin.connect();
    try {
      // A function pg_trgm would create already exists: CREATE EXTENSION raises, as it does for a role
      // without the privilege or a server without the contrib package.
      await admin.query(
        `create function public.show_trgm(text) returns text[] language sql as 'select null::text[]'`,
      );
      const store = await createSessionStore({ connectionString: database.connectionString });
      try {
        expect(await hasTrigramIndex(store)).toBe(false);
        const needle = `Q${token()}`;
        const session = await store.createSession();
        await store.appendMessages(session.id, [
          { role: 'user', content: 'nothing here' },
          { role: 'user', content: `see x${needle}y` },
        ]);
        const result = await store.recall(session.id, { query: needle });
        expect(result.matches.map((match) => match.sequence)).toEqual([1]);
        expect(result.scanLimited).toBe(false);
      } finally {
        await store.close();
      }
    } finally {
      await admin.end();
      await database.drop();
    }
  }, 60_000);
});
