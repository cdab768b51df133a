import { PairHeap, positionScale } from './pair-heap.js';

// Ranks are below 2^18 (every tiktoken encoding; the rank table refuses more): the buckets and the
// three levels of their bitmap are indexed by rank.
const rankBits = 18;
// Entries a sorted insertion passes over at most before the queue turns into a heap.
const defaultWalkLimit = 48;

function lowestBit(word: number): number {
  return 31 - Math.clz32(word & -word);
}

/**
 * The pairs of a merge by (rank, position), least first, one entry per position: the queue of
 * `PairHeap` kept as buckets, one per rank, each a list of positions in increasing order, with a
 * bitmap of the non-empty buckets (three levels of 32-bit words) for the least rank. Taking the
 * next merge is a few bit scans; moving or removing a pair unlinks and links a list node, where
 * the heap sifted through its levels (about half of a merge step on random letters of Cyrillic,
 * Arabic, Thai or Devanagari). Leftmost-first ties are the lists' order: an insertion walks from
 * the bucket's last entry back to its place. Lists stay short in a merge (the bytes' initial pairs
 * arrive in position order, a merged pair is one of few of its rank), but a walk longer than
 * `walkLimit` would make a merge quadratic, so the queue then moves every entry into a `PairHeap`
 * and is that heap until `reset`.
 */
export class RankQueue {
  // Per rank r: the first and last positions of its bucket at 2r and 2r + 1 (one cache line), -1
  // when empty. Empty again whenever the queue is: filled once.
  private readonly ends = new Int32Array(2 << rankBits).fill(-1);
  private readonly leaves = new Int32Array(1 << (rankBits - 5));
  private readonly middles = new Int32Array(1 << (rankBits - 10));
  private readonly tops = new Int32Array(1 << (rankBits - 15));
  // Per position: its entry's rank (-1 for none) and its neighbours in the bucket (-1 at the ends).
  private readonly rankAt: Int32Array;
  private readonly after: Int32Array;
  private readonly before: Int32Array;
  private readonly heap: PairHeap;
  private readonly walkLimit: number;
  private heaped = false;
  private positions = 0;
  size = 0;

  constructor(capacity: number, walkLimit = defaultWalkLimit) {
    this.rankAt = new Int32Array(capacity);
    this.after = new Int32Array(capacity);
    this.before = new Int32Array(capacity);
    this.heap = new PairHeap(capacity);
    this.walkLimit = walkLimit;
  }

  /** Empties the queue for positions below `positions` (at most the capacity). */
  reset(positions: number): void {
    if (this.size > 0) this.clearBuckets();
    this.size = 0;
    this.heaped = false;
    this.positions = positions;
    this.rankAt.fill(-1, 0, positions);
  }

  /** Whether the queue has turned into a heap (a test's probe). */
  get isHeap(): boolean {
    return this.heaped;
  }

  /** The position of the least entry: the least rank, the leftmost of it (the queue is not empty). */
  top(): number {
    if (this.heaped) return this.heap.top();
    return this.ends[2 * this.leastRank()]!;
  }

  /** Gives `position` the rank `rank` (below 2^18), adding its entry if it has none. */
  set(position: number, rank: number): void {
    if (this.heaped) {
      this.heap.set(position, rank * positionScale + position);
      this.size = this.heap.size;
      return;
    }
    if (this.rankAt[position]! >= 0) this.unlink(position);
    else this.size++;
    if (!this.link(position, rank)) this.becomeHeap(position, rank);
  }

  /** Takes out the entry of `position`, if any. */
  remove(position: number): void {
    if (this.heaped) {
      this.heap.remove(position);
      this.size = this.heap.size;
      return;
    }
    if (this.rankAt[position]! < 0) return;
    this.unlink(position);
    this.rankAt[position] = -1;
    this.size--;
  }

  private leastRank(): number {
    const tops = this.tops;
    let t = 0;
    while (tops[t] === 0) t++;
    const middle = (t << 5) | lowestBit(tops[t]!);
    const leaf = (middle << 5) | lowestBit(this.middles[middle]!);
    return (leaf << 5) | lowestBit(this.leaves[leaf]!);
  }

  /** Inserts `position` into the bucket of `rank` in position order; false if the walk was too long. */
  private link(position: number, rank: number): boolean {
    const { ends, after, before } = this;
    let previous = ends[2 * rank + 1]!;
    if (previous < 0) {
      ends[2 * rank] = position;
      ends[2 * rank + 1] = position;
      after[position] = -1;
      before[position] = -1;
      this.rankAt[position] = rank;
      this.mark(rank);
      return true;
    }
    let steps = 0;
    while (previous > position) {
      if (++steps > this.walkLimit) return false;
      previous = before[previous]!;
      if (previous < 0) break;
    }
    const following = previous < 0 ? ends[2 * rank]! : after[previous]!;
    before[position] = previous;
    after[position] = following;
    if (previous < 0) ends[2 * rank] = position;
    else after[previous] = position;
    if (following < 0) ends[2 * rank + 1] = position;
    else before[following] = position;
    this.rankAt[position] = rank;
    return true;
  }

  private unlink(position: number): void {
    const { ends, after, before } = this;
    const rank = this.rankAt[position]!;
    const previous = before[position]!;
    const following = after[position]!;
    if (previous < 0) ends[2 * rank] = following;
    else after[previous] = following;
    if (following < 0) ends[2 * rank + 1] = previous;
    else before[following] = previous;
    if (previous < 0 && following < 0) this.unmark(rank);
  }

  private mark(rank: number): void {
    const leaf = rank >>> 5;
    const word = this.leaves[leaf]!;
    this.leaves[leaf] = word | (1 << (rank & 31));
    if (word !== 0) return;
    const middle = leaf >>> 5;
    const middleWord = this.middles[middle]!;
    this.middles[middle] = middleWord | (1 << (leaf & 31));
    if (middleWord === 0) this.tops[middle >>> 5] = this.tops[middle >>> 5]! | (1 << (middle & 31));
  }

  private unmark(rank: number): void {
    const leaf = rank >>> 5;
    const word = this.leaves[leaf]! & ~(1 << (rank & 31));
    this.leaves[leaf] = word;
    if (word !== 0) return;
    const middle = leaf >>> 5;
    const middleWord = this.middles[middle]! & ~(1 << (leaf & 31));
    this.middles[middle] = middleWord;
    if (middleWord === 0)
      this.tops[middle >>> 5] = this.tops[middle >>> 5]! & ~(1 << (middle & 31));
  }

  /** Every entry, and `position` at `rank`, into the heap; the buckets emptied. */
  private becomeHeap(position: number, rank: number): void {
    const heap = this.heap;
    heap.reset(this.positions);
    this.forEachEntry((entry, entryRank) => heap.add(entry, entryRank * positionScale + entry));
    this.clearBuckets();
    heap.add(position, rank * positionScale + position);
    heap.heapify();
    this.heaped = true;
    this.size = heap.size;
  }

  private forEachEntry(visit: (position: number, rank: number) => void): void {
    const { ends, after } = this;
    this.forEachRank((rank) => {
      for (let entry = ends[2 * rank]!; entry >= 0; entry = after[entry]!) visit(entry, rank);
    });
  }

  /** Visits the rank of every non-empty bucket. */
  private forEachRank(visit: (rank: number) => void): void {
    const { tops, middles, leaves } = this;
    for (let t = 0; t < tops.length; t++)
      for (let m = tops[t]!; m !== 0; m &= m - 1) {
        const middle = (t << 5) | lowestBit(m);
        for (let l = middles[middle]!; l !== 0; l &= l - 1) {
          const leaf = (middle << 5) | lowestBit(l);
          for (let r = leaves[leaf]!; r !== 0; r &= r - 1) visit((leaf << 5) | lowestBit(r));
        }
      }
  }

  /** Empties every bucket (only after a merge that did not drain the queue, or into the heap). */
  private clearBuckets(): void {
    const ends = this.ends;
    this.forEachRank((rank) => {
      ends[2 * rank] = -1;
      ends[2 * rank + 1] = -1;
    });
    this.leaves.fill(0);
    this.middles.fill(0);
    this.tops.fill(0);
  }
}
