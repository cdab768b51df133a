import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PairMemo, pairKeyBits, unknownPair } from './pair-memo.js';

const rankLimit = 2 ** pairKeyBits;
const rank = fc.integer({ min: 0, max: rankLimit - 1 });
// Stored values: ranks, and the merge's "no rank" (2^21), the largest it stores.
// Rank 0 too: with a right rank below 2^14 its slot would read as empty without the offset.
const value = fc.oneof(fc.integer({ min: 0, max: 2 ** 21 }), fc.constant(2 ** 21), fc.constant(0));
const key = (left: number, right: number) => left * rankLimit + right;

describe('PairMemo', () => {
  it('returns each stored value for its pair and nothing for others, across growth (property)', () => {
    fc.assert(
      fc.property(
        fc.noBias(
          fc.uniqueArray(fc.tuple(rank, rank, value), {
            minLength: 1,
            maxLength: 300,
            selector: ([left, right]) => key(left, right),
          }),
        ),
        fc.noBias(fc.tuple(rank, rank)),
        fc.noBias(fc.integer({ min: 0, max: 80_000 })),
        (entries, [absentLeft, absentRight], filler) => {
          const memo = new PairMemo();
          const stored = new Map(entries.map(([left, right, v]) => [key(left, right), v]));
          // Pairs that share the generated ones' low bits or high bits, and enough of them (up to
          // past the first doublings) that the table grows while holding the generated ones.
          const fillers: Array<[number, number]> = [];
          for (let i = 0; i < filler; i++) {
            const [left, right] = entries[i % entries.length]!;
            const pair: [number, number] = [
              (left + ((i + 1) << 9)) % rankLimit,
              (right ^ ((i * 0x9e37) % rankLimit)) % rankLimit,
            ];
            if (!stored.has(key(...pair))) fillers.push(pair);
          }
          const half = fillers.length >> 1;
          for (const [left, right] of fillers.slice(0, half)) memo.set(left, right, 7);
          for (const [left, right, v] of entries) memo.set(left, right, v);
          for (const [left, right] of fillers.slice(half)) memo.set(left, right, 7);
          for (const [left, right, v] of entries) expect(memo.get(left, right)).toBe(v);
          const absent = key(absentLeft, absentRight);
          const fillerKeys = new Set(fillers.map(([left, right]) => key(left, right)));
          if (!stored.has(absent) && !fillerKeys.has(absent))
            expect(memo.get(absentLeft, absentRight)).toBe(unknownPair);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('tells apart pairs whose right ranks differ only in the bits kept beside the value (property)', () => {
    // Such pairs share the slot's first word; in a table of 4 slots their probes meet.
    const low = fc.integer({ min: 0, max: 2 ** 14 - 1 });
    const high = fc.integer({ min: 0, max: 15 });
    fc.assert(
      fc.property(
        fc.noBias(fc.tuple(rank, low, fc.uniqueArray(high, { minLength: 2, maxLength: 2 }))),
        ([left, lowBits, highs]) => {
          const memo = new PairMemo(4);
          const rights = highs.map((h) => lowBits | (h << 14));
          rights.forEach((right, i) => {
            memo.set(left, right, 100 + i);
          });
          rights.forEach((right, i) => {
            expect(memo.get(left, right)).toBe(100 + i);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the extreme ranks and values apart', () => {
    const memo = new PairMemo();
    const top = rankLimit - 1;
    const pairs: Array<[number, number, number]> = [
      [0, 0, 0],
      [top, top, 2 ** 21],
      [0, top, 1],
      [top, 0, 2],
      [1, 2 ** 14, 3],
      [1, 2 ** 14 - 1, 4],
      [2 ** 14, 1, 5],
      // Rights that differ only in the bits kept beside the value.
      [7, 3, 6],
      [7, 3 + 2 ** 14, 7],
      [7, 3 + 2 ** 17, 8],
    ];
    for (const [left, right, v] of pairs) memo.set(left, right, v);
    for (const [left, right, v] of pairs) expect(memo.get(left, right)).toBe(v);
    expect(memo.get(top, top - 1)).toBe(unknownPair);
    expect(memo.get(1, 0)).toBe(unknownPair);
  });

  it('empties itself at its largest size and never answers wrongly', () => {
    const memo = new PairMemo();
    // Past 2^18 entries the table (2^19 slots, half full) starts again empty.
    const count = 2 ** 18 + 1_000;
    // Distinct pairs: the left rank wraps once, the right one tells the laps apart.
    const pair = (i: number): [number, number] => [i % rankLimit, 5 + Math.floor(i / rankLimit)];
    for (let i = 0; i < count; i++) memo.set(...pair(i), i % 1000);
    let found = 0;
    for (let i = 0; i < count; i++) {
      const got = memo.get(...pair(i));
      if (got === unknownPair) continue;
      expect(got).toBe(i % 1000);
      found++;
    }
    // Only what came after the reset is still held.
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(count / 2);
  });
});
