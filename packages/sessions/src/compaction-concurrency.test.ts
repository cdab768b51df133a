import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from './index.js';
import { userMessages } from './test/index.js';
import { type CompactionOutcome, startCompactionWorker } from './test-utils/compaction-worker.js';
import {
  createTestDatabase,
  describePostgres,
  type TestDatabase,
} from './test-utils/postgres-database.js';

const rounds = 50;

describePostgres('two processes compacting the same parent (PostgreSQL)', () => {
  let database: TestDatabase;
  let store: SessionStore;
  let workers: ReturnType<typeof startCompactionWorker>[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('race');
    store = await createSessionStore({ connectionString: database.connectionString });
    workers = [
      startCompactionWorker(database.connectionString),
      startCompactionWorker(database.connectionString),
    ];
    await Promise.all(workers.map((worker) => worker.ready));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await store?.close();
    await database?.drop();
  });

  it(`produces exactly one child, the loser naming it, ${rounds} times out of ${rounds}`, async () => {
    let overlapping = 0;
    for (let round = 0; round < rounds; round++) {
      const parent = await store.createSession({ title: `race ${round}` });
      await store.appendMessages(parent.id, userMessages(20));
      // Both commands leave in the same tick; each worker already holds an open pool.
      const outcomes = await Promise.all(workers.map((worker) => worker.compact(round, parent.id)));
      const winners = outcomes.filter((outcome) => outcome.ok);
      const losers = outcomes.filter((outcome) => !outcome.ok);
      expect(winners, JSON.stringify(outcomes)).toHaveLength(1);
      expect(losers[0]).toMatchObject({
        code: 'compaction_conflict',
        childSessionId: winners[0]!.childId,
      });

      const family = await store.listSessions({ rootId: parent.id, includeEnded: true });
      const children = family.filter((session) => session.parentId === parent.id);
      expect(children.map((session) => session.id)).toEqual([winners[0]!.childId]);
      expect((await store.getCompaction(parent.id))?.childSessionId).toBe(winners[0]!.childId);
      expect((await store.resume(parent.id)).session.id).toBe(winners[0]!.childId);
      const [first, second] = outcomes as [CompactionOutcome, CompactionOutcome];
      if (first.startedAt < second.endedAt && second.startedAt < first.endedAt) overlapping++;
    }
    console.info(`[sessions] ${overlapping}/${rounds} compaction races overlapped in time`);
    // A round counts only when each process started its recordCompaction before the other one's
    // returned, i.e. the loser was already in flight while the winner's transaction ran: a true race,
    // not a late call finding the parent ended. Scheduling on a loaded 2-core machine may separate a
    // few rounds; 50/50 is typical here, so 90% is the floor.
    expect(overlapping, `only ${overlapping}/${rounds} rounds overlapped`).toBeGreaterThanOrEqual(
      Math.ceil(rounds * 0.9),
    );
  }, 120_000);
});
