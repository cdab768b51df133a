import { PairMemo } from './pair-memo.js';

/**
 * What the edge check reads of one independent merge: the rank of each merge in order and, after
 * each merge k (index 0 is the start), the token and extent of the first and last parts. Extents
 * are byte positions, relative to `offset` given beside the history. A history held by the memo
 * has its `memoIndex` in the memo's `generation`; -1 for any other.
 */
export interface EdgeHistory {
  ranks: Int32Array;
  firstTokens: Int32Array;
  firstEnds: Int32Array;
  lastTokens: Int32Array;
  lastStarts: Int32Array;
  steps: number;
  parts: number;
  /** The merge after which the last part's token never changes again (its index in `lastTokens`). */
  lastSettled: number;
  /** The merge after which the first part's token never changes again. */
  firstSettled: number;
  memoGeneration: number;
  memoIndex: number;
}

// A long piece of a few distinct characters (CJK, kana, box drawing, emoji) has a few hundred
// distinct units and joined units (units pay only there); this bound keeps a stream of distinct
// units from holding memory (a few hundred bytes an entry, about 2 MB full): when full, the memo
// starts again empty (a new generation). Below 2^18, the pair memo's key size, which keys edges by
// the indices of their two units.
const maximumEntries = 1 << 12;

/**
 * Merge histories of small units of a piece (a character, or a few joined) by their bytes, and
 * whether the edge between two of them is crossed: a unit's independent merge depends on its bytes
 * alone, and an edge's check on its two units' bytes alone, so the same bytes anywhere give the
 * same answers. One per piece counter and encoder, like the pair memo.
 */
export class UnitHistoryMemo {
  private entries = new Map<number | string, EdgeHistory>();
  private edges: PairMemo | undefined;
  private readonly capacity: number;
  generation = 0;

  /** `capacity`: entries before the memo starts again (tests make it small, to start often). */
  constructor(capacity = maximumEntries) {
    this.capacity = Math.min(capacity, maximumEntries);
  }

  get(key: number | string): EdgeHistory | undefined {
    return this.entries.get(key);
  }

  set(key: number | string, history: EdgeHistory): void {
    if (this.entries.size >= this.capacity) {
      this.entries = new Map();
      this.edges = undefined;
      this.generation++;
    }
    history.memoGeneration = this.generation;
    history.memoIndex = this.entries.size;
    this.entries.set(key, history);
  }

  /** 1 when the edge between `left` and `right` is known crossed, 0 known not, -1 unknown. */
  crossing(left: EdgeHistory, right: EdgeHistory): number {
    if (!this.holds(left, right) || this.edges === undefined) return -1;
    return this.edges.get(left.memoIndex, right.memoIndex);
  }

  setCrossing(left: EdgeHistory, right: EdgeHistory, crossed: boolean): void {
    if (!this.holds(left, right)) return;
    // Small at first (it grows): a fresh counter's first long piece should not clear half a MB.
    this.edges ??= new PairMemo(1 << 10);
    this.edges.set(left.memoIndex, right.memoIndex, crossed ? 1 : 0);
  }

  private holds(left: EdgeHistory, right: EdgeHistory): boolean {
    return left.memoGeneration === this.generation && right.memoGeneration === this.generation;
  }
}

/**
 * A key of `bytes[from, to)` unique to those bytes: up to 6 bytes a number (the size, then the
 * bytes, base 256: below 2^51, exact; sizes occupy disjoint ranges), longer a string of one code
 * unit per byte.
 */
export function unitKey(bytes: Uint8Array, from: number, to: number): number | string {
  const size = to - from;
  if (size <= 6) {
    let key = size;
    for (let i = from; i < to; i++) key = key * 256 + bytes[i]!;
    return key;
  }
  return String.fromCharCode(...bytes.subarray(from, to));
}
