import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeUnits } from './code-unit-buffer.js';
import { longestPackedPiece, PackedPieceMemo, packHead, packTail } from './packed-piece-memo.js';

const key = (piece: string, start = 0, end = piece.length) => {
  const units = codeUnits(piece);
  const head = packHead(units, start, end);
  return [head, head === -1 ? -1 : packTail(units, start, end)] as const;
};
const asciiPiece = fc.noBias(fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 8 }));

describe('PackedPieceMemo', () => {
  it('packs exactly the ASCII pieces of up to 8 characters, each to its own key (property)', () => {
    fc.assert(
      fc.property(asciiPiece, asciiPiece, fc.string({ maxLength: 4 }), (a, b, padding) => {
        const [headA, tailA] = key(a);
        // The same piece inside other text packs the same.
        const text = `${padding}${a}${padding}`;
        expect(key(text, padding.length, padding.length + a.length)).toEqual([headA, tailA]);
        const [headB, tailB] = key(b);
        expect(headA === headB && tailA === tailB).toBe(a === b);
      }),
      { numRuns: 2000 },
    );
    expect(packHead(codeUnits('x'.repeat(longestPackedPiece + 1)), 0, longestPackedPiece + 1)).toBe(
      -1,
    );
    expect(key('abcdé')[1]).toBe(-1);
    expect(packHead(codeUnits('é'), 0, 1)).toBe(-1);
  });

  it('returns what was stored while it grows and across generations, and nothing else (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(asciiPiece, fc.integer({ min: 0, max: 8 })), { maxLength: 400 }),
        fc.constantFrom(16, 64, 65_536),
        (entries, generation) => {
          const memo = new PackedPieceMemo(generation);
          const stored = new Map<string, number>();
          for (const [piece, count] of entries) {
            const [head, tail] = key(piece);
            if (memo.get(head, tail) >= 0) continue;
            memo.set(head, tail, count);
            stored.set(piece, count);
          }
          for (const [piece] of entries) {
            const found = memo.get(...key(piece));
            if (found >= 0) expect(found).toBe(stored.get(piece));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps every key through growth from 4,096 slots, below one generation', () => {
    const memo = new PackedPieceMemo(65_536);
    const pieces = Array.from({ length: 30_000 }, (_, i) => `w${i.toString(36)}`);
    pieces.forEach((piece, i) => {
      memo.set(...key(piece), i % 9);
    });
    // A key whose probe sequence was full is not kept (-1 or -2 later): a miss, never a wrong count.
    let missing = 0;
    pieces.forEach((piece, i) => {
      const found = memo.get(...key(piece));
      if (found < 0) missing++;
      else expect(found).toBe(i % 9);
    });
    expect(missing).toBeLessThan(30);
  });
});
