import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeUnits } from './code-unit-buffer.js';
import { hashRange, PieceMemo } from './piece-memo.js';

describe('PieceMemo', () => {
  it('returns what was stored for a range equal to the piece, and nothing for any other (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.nat(50)), {
          maxLength: 300,
        }),
        fc.string({ maxLength: 8 }),
        (entries, padding) => {
          const memo = new PieceMemo(64);
          const stored = new Map<string, number>();
          for (const [piece, count] of entries) {
            if (memo.get(piece, 0, piece.length, hashRange(codeUnits(piece), 0, piece.length)) >= 0)
              continue;
            memo.set(piece, hashRange(codeUnits(piece), 0, piece.length), count);
            stored.set(piece, count);
          }
          for (const [piece] of entries) {
            // Looked up inside a longer text, as the counter does.
            const text = `${padding}${piece}${padding}`;
            const start = padding.length;
            const end = start + piece.length;
            const found = memo.get(text, start, end, hashRange(codeUnits(text), start, end));
            // Evicted (generations of 64) or never stored: not found; found: the stored count.
            if (found >= 0) expect(found).toBe(stored.get(piece));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays correct and bounded when every piece has the same hash (a flooding attempt)', () => {
    const memo = new PieceMemo(65_536);
    const pieces = Array.from({ length: 20_000 }, (_, i) => `p${i}`);
    for (const [i, piece] of pieces.entries()) {
      expect(memo.get(piece, 0, piece.length, 0)).toBe(-1);
      memo.set(piece, 0, i);
      // The newest piece is always held: a full probe sequence gives up its first slot to it.
      expect(memo.get(piece, 0, piece.length, 0)).toBe(i);
    }
    let held = 0;
    for (const [i, piece] of pieces.entries()) {
      const found = memo.get(piece, 0, piece.length, 0);
      expect(found === -1 || found === i).toBe(true);
      if (found === i) held++;
    }
    // One probe sequence (16 slots) holds them all: every lookup gives up after a bounded number of
    // slots instead of walking a chain as long as the table (quadratic over the input).
    expect(held).toBe(16);
  });
});
