import { InvalidInputError } from '@baton/tokens';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore, recallRankLimit, type SessionStore } from './index.js';
import { createTestDatabase, describePostgres } from './test-utils/postgres-database.js';

const token = () => crypto.randomUUID().replaceAll('-', '').slice(0, 10);

interface Case {
  rootHits: number;
  childHits: number;
  rankLimit: number;
  /** Which hit (in writing order, root first) is the needle: it holds the word four times. */
  needle: number;
}

/**
 * A root with `rootHits` messages holding `word`, compacted into a child that gets `childHits` more,
 * among messages without it. Returns the child and each hit's tag in writing order.
 */
async function lineage(store: SessionStore, word: string, test: Case) {
  const tags: string[] = [];
  const hit = (index: number) => {
    const tag = `t${token()}`;
    tags.push(tag);
    const body = index === test.needle ? `${word} ${word} ${word} ${word}` : word;
    return { role: 'user' as const, content: `${body} then ${tag} was logged` };
  };
  const filler = (n: number) =>
    Array.from({ length: n }, (_, index) => ({
      role: 'assistant' as const,
      content: `step ${index} went fine`,
    }));
  const root = await store.createSession();
  const rootMessages = [
    ...filler(2),
    ...Array.from({ length: test.rootHits }, (_, index) => hit(index)),
    ...filler(2),
  ];
  await store.appendMessages(root.id, rootMessages, { startSequence: 0 });
  const { child } = await store.recordCompaction(root.id, {
    messages: [{ role: 'user', content: 'Summary.' }, ...rootMessages.slice(-2)],
    summary: 'Summary.',
    strategy: 'summarize',
    usedFallback: false,
    tokensBefore: 100,
    tokensAfter: 10,
    event: { removedMessageIndexes: rootMessages.slice(0, -2).map((_, index) => index) },
  });
  await store.appendMessages(child.id, [
    ...Array.from({ length: test.childHits }, (_, index) => hit(test.rootHits + index)),
    ...filler(1),
  ]);
  return { childId: child.id, tags };
}

const cases = fc
  .record({
    rootHits: fc.integer({ min: 0, max: 7 }),
    childHits: fc.integer({ min: 0, max: 7 }),
    rankLimit: fc.integer({ min: 1, max: 9 }),
    needle: fc.integer({ min: 0, max: 13 }),
  })
  .filter((test) => test.rootHits + test.childHits > 0);

/**
 * The rank limit over random lineages, on `getStore()`: the flag is set exactly when the hits outnumber
 * the limit, only the newest `rankLimit` hits (the child's last first, then back through the root) can
 * come back, and the best-ranked of those (the needle, when it is among them) comes first.
 */
function describeRankLimit(getStore: () => SessionStore) {
  it('ranks only the newest hits, flags it exactly when it applies, before and after ANALYZE', async () => {
    const store = getStore();
    const word = `zq${token()}`;
    // Another tenant's hits: most of the table, never part of an answer.
    const other = await store.createSession();
    await store.db.execute(sql`
      insert into baton_messages (session_id, sequence, role, message, search_text)
      select ${other.id}, n, 'user', json_build_object('role', 'user', 'content', ${word} || ' other'),
        ${word} || ' other'
      from generate_series(0, 1999) as n`);
    const check = async (test: Case) => {
      const { childId, tags } = await lineage(store, word, test);
      const total = test.rootHits + test.childHits;
      const newest = [...tags].reverse().slice(0, test.rankLimit);
      const result = await store.recall(childId, {
        query: word,
        rankLimit: test.rankLimit,
        limit: 50,
      });
      expect(result.rankLimited).toBe(total > test.rankLimit);
      const found = result.matches.map(
        (match) => tags.find((tag) => match.excerpt.includes(tag)) ?? match.excerpt,
      );
      expect(new Set(found)).toEqual(new Set(newest));
      const needleTag = tags[test.needle];
      if (needleTag !== undefined && newest.includes(needleTag)) expect(found[0]).toBe(needleTag);
      const byDefault = await store.recall(childId, { query: word });
      expect(byDefault.rankLimited).toBe(total > recallRankLimit);
      expect(byDefault.matches.length).toBe(Math.min(5, total));
    };
    // Always run: a few hits in the child and many in the root, so the newest ones span both sessions.
    const examples: [Case][] = [
      [{ rootHits: 7, childHits: 1, rankLimit: 2, needle: 7 }],
      [{ rootHits: 6, childHits: 2, rankLimit: 3, needle: 0 }],
      [{ rootHits: 7, childHits: 0, rankLimit: 1, needle: 6 }],
    ];
    // Unanalysed, the planner has no row estimate: every index hit is read, then filtered; a term in
    // more messages than the first probe is read newest first.
    await fc.assert(fc.asyncProperty(cases, check), { numRuns: 40, examples });
    // Analysed, the lineage is a small part of the table: the index scan is narrowed to it.
    await store.db.execute(sql`analyze baton_messages`);
    await fc.assert(fc.asyncProperty(cases, check), { numRuns: 40, examples });
  }, 120_000);

  it('refuses a rank limit outside 1..100,000 with a typed error', async () => {
    const store = getStore();
    const session = await store.createSession();
    for (const rankLimit of [0, -1, 1.5, 100_001, Number.NaN]) {
      const error = await store.recall(session.id, { query: 'x', rankLimit }).catch((e) => e);
      expect(InvalidInputError.isInstance(error), String(rankLimit)).toBe(true);
    }
  });
}

describe('recall rank limit (PGlite)', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });
  describeRankLimit(() => store);
});

describePostgres('recall rank limit (PostgreSQL)', () => {
  let store: SessionStore;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase('rank');
    drop = database.drop;
    store = await createSessionStore({ connectionString: database.connectionString });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });
  describeRankLimit(() => store);
});
