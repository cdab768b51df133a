import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RankQueue } from './rank-queue.js';

const capacity = 4_096;
const topRank = 2 ** 18 - 1;

/** The least (rank, position) entry of `entries`, as tiktoken picks the next merge. */
function leastOf(entries: ReadonlyMap<number, number>): number {
  let best = -1;
  for (const [position, rank] of entries) {
    const bestRank = entries.get(best);
    if (bestRank === undefined || rank < bestRank || (rank === bestRank && position < best))
      best = position;
  }
  return best;
}

type Operation =
  | { kind: 'set'; position: number; rank: number }
  | { kind: 'remove'; position: number }
  | { kind: 'pop' };

// Ranks from a handful (ties everywhere) or from the whole range (every level of the bitmap);
// positions from a narrow or the whole span (long buckets, or many short ones).
const operations = fc
  .record({
    ranks: fc.oneof(
      fc.uniqueArray(fc.noBias(fc.integer({ min: 0, max: topRank })), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.constant(undefined),
    ),
    span: fc.constantFrom(64, capacity),
    steps: fc.array(
      fc.record({
        kind: fc.constantFrom('set', 'set', 'remove', 'pop'),
        position: fc.noBias(fc.nat()),
        rank: fc.noBias(fc.integer({ min: 0, max: topRank })),
      }),
      { minLength: 1, maxLength: 600 },
    ),
  })
  .map(({ ranks, span, steps }): Operation[] =>
    steps.map(({ kind, position, rank }) =>
      kind === 'pop'
        ? { kind }
        : kind === 'remove'
          ? { kind, position: position % span }
          : { kind, position: position % span, rank: ranks ? ranks[rank % ranks.length]! : rank },
    ),
  );

describe('RankQueue', () => {
  it('takes entries least rank first, leftmost on ties, as a sorted reference does, also once it is a heap (property)', () => {
    // One queue per walk limit, reused across cases: a case may leave entries behind for `reset`.
    const queues = [0, 1, 3, 48].map((limit) => new RankQueue(capacity, limit));
    let heaped = 0;
    let bucketed = 0;
    fc.assert(
      fc.property(fc.nat({ max: queues.length - 1 }), operations, (which, steps) => {
        const queue = queues[which]!;
        queue.reset(capacity);
        const entries = new Map<number, number>();
        for (const step of steps) {
          if (step.kind === 'set') {
            queue.set(step.position, step.rank);
            entries.set(step.position, step.rank);
          } else if (step.kind === 'remove') {
            queue.remove(step.position);
            entries.delete(step.position);
          } else if (entries.size > 0) {
            const least = leastOf(entries);
            expect(queue.top()).toBe(least);
            queue.remove(least);
            entries.delete(least);
          }
          expect(queue.size).toBe(entries.size);
        }
        // Drained in order: every remaining entry, least first.
        while (entries.size > 0) {
          const least = leastOf(entries);
          expect(queue.top()).toBe(least);
          queue.remove(least);
          entries.delete(least);
        }
        expect(queue.size).toBe(0);
        if (queue.isHeap) heaped++;
        else bucketed++;
      }),
      { numRuns: 400 },
    );
    // The premise: both the buckets and the heap they turn into were exercised.
    expect(heaped).toBeGreaterThan(20);
    expect(bucketed).toBeGreaterThan(20);
  });

  it('gives equal ranks in any insertion order back leftmost first (property)', () => {
    const queue = new RankQueue(capacity);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.noBias(fc.nat({ max: capacity - 1 })), { minLength: 2, maxLength: 40 }),
        fc.noBias(fc.integer({ min: 0, max: topRank })),
        (positions, rank) => {
          queue.reset(capacity);
          for (const position of positions) queue.set(position, rank);
          // The premise: not already in order, so that the queue has to place them.
          fc.pre(positions.some((position, i) => i > 0 && position < positions[i - 1]!));
          const taken: number[] = [];
          while (queue.size > 0) {
            const position = queue.top();
            taken.push(position);
            queue.remove(position);
          }
          expect(taken).toEqual([...positions].sort((a, b) => a - b));
          expect(queue.isHeap).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stays buckets when entries arrive in position order, even with no walk allowed (control)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.noBias(fc.integer({ min: 0, max: topRank })), {
          minLength: 1,
          maxLength: 300,
        }),
        (ranks) => {
          const queue = new RankQueue(capacity, 0);
          queue.reset(capacity);
          ranks.forEach((rank, position) => {
            queue.set(position, rank);
          });
          expect(queue.isHeap).toBe(false);
          const entries = new Map(ranks.map((rank, position) => [position, rank]));
          expect(queue.top()).toBe(leastOf(entries));
        },
      ),
      { numRuns: 100 },
    );
  });
});
