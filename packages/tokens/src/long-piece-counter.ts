import { createRequire } from 'node:module';
import type { TiktokenEncoding } from './types.js';

/** Token count of one pre-tokenisation piece, exact, in O(n log n) of its UTF-8 length. */
export type LongPieceCounter = (piece: string) => number;

const require = createRequire(import.meta.url);

// `@dqbd/tiktoken` ships each encoding's mergeable ranks as lines "! <first rank> <base64 token>
// ...", tokens in rank order. r50k and p50k share GPT-2's vocabulary file names.
const rankFiles: Record<TiktokenEncoding, string> = {
  o200k_base: '@dqbd/tiktoken/encoders/o200k_base.json',
  cl100k_base: '@dqbd/tiktoken/encoders/cl100k_base.json',
  p50k_base: '@dqbd/tiktoken/encoders/p50k_base.json',
  r50k_base: '@dqbd/tiktoken/encoders/r50k_base.json',
};

interface Ranks {
  /** Token bytes (as a latin1 string, one char per byte) to rank. */
  byBytes: Map<string, number>;
  /** Rank of each two-byte token by `first << 8 | second`, `noRank` if none: the first pass. */
  pairs: Int32Array;
}

function loadRanks(encoding: TiktokenEncoding): Ranks {
  const { bpe_ranks: compressed } = require(rankFiles[encoding]) as { bpe_ranks: string };
  const byBytes = new Map<string, number>();
  const pairs = new Int32Array(65_536).fill(noRank);
  for (const line of compressed.split('\n')) {
    if (line.length === 0) continue;
    const fields = line.split(' ');
    const first = Number.parseInt(fields[1]!, 10);
    for (let i = 2; i < fields.length; i++) {
      // atob yields a binary string, one char per byte: the key form used below.
      const bytes = atob(fields[i]!);
      byBytes.set(bytes, first + i - 2);
      if (bytes.length === 2)
        pairs[(bytes.charCodeAt(0) << 8) | bytes.charCodeAt(1)] = first + i - 2;
    }
  }
  return { byBytes, pairs };
}

const noRank = 2 ** 21;
// A heap key packs (rank, byte position): ranks stay below 2^21 and positions below 2^32, so the
// key is an exact double and orders by rank, then leftmost position, as tiktoken does.
const positionScale = 2 ** 32;

/**
 * tiktoken's byte-pair merge, re-implemented with a heap. tiktoken merges, at every step, the
 * adjacent pair of parts whose joined bytes have the lowest rank (the leftmost on ties) and finds
 * it by a linear scan, which is quadratic on a long piece (a 100 KB run of one letter took 12–19 s,
 * and over ~1 MB its WASM build traps). The same choice taken from a priority queue keyed by
 * (rank, position) gives the same merges in the same order, hence the same tokens, in
 * O(n log n). Stale heap entries are skipped by checking them against the current pair ranks.
 */
export function createLongPieceCounter(encoding: TiktokenEncoding): LongPieceCounter {
  return (piece) => {
    const bytes = Buffer.from(piece, 'utf8').toString('latin1');
    return countBytePairTokens(bytes, sharedRanks(encoding));
  };
}

// The rank tables take ~0.1–0.25 s and tens of MB to build: one per encoding per process, shared
// by every encoder and counter.
const loadedRanks = new Map<TiktokenEncoding, Ranks>();

function sharedRanks(encoding: TiktokenEncoding): Ranks {
  let ranks = loadedRanks.get(encoding);
  if (!ranks) {
    ranks = loadRanks(encoding);
    loadedRanks.set(encoding, ranks);
  }
  return ranks;
}

/** Tokens of `bytes` (one char per byte) under `ranks`, merged exactly as tiktoken merges. */
function countBytePairTokens(bytes: string, { byBytes: ranks, pairs }: Ranks): number {
  const length = bytes.length;
  if (length <= 1) return length;
  // tiktoken takes a piece that is itself a token whole, before any merging.
  if (ranks.has(bytes)) return 1;
  // Parts form a doubly linked list of their start positions.
  const next = new Int32Array(length + 1);
  const previous = new Int32Array(length + 1);
  const pairRank = new Int32Array(length).fill(noRank);
  for (let i = 0; i <= length; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
  }
  const rankAt = (start: number): number => {
    const middle = next[start]!;
    if (middle >= length) return noRank;
    return ranks.get(bytes.slice(start, next[middle]!)) ?? noRank;
  };
  const heap = new MinHeap(length);
  for (let i = 0; i < length - 1; i++) {
    const rank = pairs[(bytes.charCodeAt(i) << 8) | bytes.charCodeAt(i + 1)]!;
    if (rank !== noRank) {
      pairRank[i] = rank;
      heap.push(rank * positionScale + i);
    }
  }
  let parts = length;
  while (heap.size > 0) {
    const key = heap.pop();
    const rank = Math.floor(key / positionScale);
    const start = key - rank * positionScale;
    // A part that was absorbed into its left neighbour is no longer a start (its rank is reset).
    if (pairRank[start] !== rank) continue;
    // Merge the part at `start` with the next one.
    const absorbed = next[start]!;
    const after = next[absorbed]!;
    next[start] = after;
    if (after <= length) previous[after] = start;
    pairRank[absorbed] = noRank;
    parts--;
    const own = rankAt(start);
    pairRank[start] = own;
    if (own !== noRank) heap.push(own * positionScale + start);
    const before = previous[start]!;
    if (before >= 0) {
      const left = rankAt(before);
      pairRank[before] = left;
      if (left !== noRank) heap.push(left * positionScale + before);
    }
  }
  return parts;
}

/** A binary min-heap of doubles, growable. */
class MinHeap {
  private items: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.items = new Float64Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.size === this.items.length) {
      const grown = new Float64Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    const items = this.items;
    let index = this.size++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent]!;
      if (above <= value) break;
      items[index] = above;
      index = parent;
    }
    items[index] = value;
  }

  pop(): number {
    const items = this.items;
    const top = items[0]!;
    const last = items[--this.size]!;
    const size = this.size;
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      if (child + 1 < size && items[child + 1]! < items[child]!) child++;
      if (items[child]! >= last) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = last;
    return top;
  }
}
