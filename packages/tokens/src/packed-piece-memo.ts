import { slotsFor } from './piece-memo.js';

/** Pieces of up to this many ASCII characters are their own key: 7 bits each in two int32s. */
export const longestPackedPiece = 8;

// Seeded per process like PieceMemo, and probes are bounded: keys written to collide cost bounded
// work and are then left to the caller's other caches.
const seed = (Math.random() * 0x100000000) | 0;
const maxProbes = 16;
// One slot of two int32s: the first key word, then the second with the count in its top 4 bits
// (a piece of at most 8 bytes is at most 8 tokens). Small slots and a table that grows from a few
// thousand keep the part in use in the processor's cache: the lookup is one memory read a piece.
const stride = 2;
const initialSlots = 1 << 12;

/**
 * The first key word of `units[start:end)` (the length and the first four characters), or -1 when
 * the range is longer than `longestPackedPiece` or holds a code unit of 128 or more.
 */
export function packHead(units: Uint16Array, start: number, end: number): number {
  const length = end - start;
  if (length > longestPackedPiece) return -1;
  let word = length << 28;
  const stop = length < 4 ? end : start + 4;
  for (let index = start, shift = 0; index < stop; index++, shift += 7) {
    const code = units[index]!;
    if (code >= 128) return -1;
    word |= code << shift;
  }
  return word;
}

/** The second key word (characters 5 to 8), or -1 when one of them is not ASCII. */
export function packTail(units: Uint16Array, start: number, end: number): number {
  let word = 0;
  for (let index = start + 4, shift = 0; index < end; index++, shift += 7) {
    const code = units[index]!;
    if (code >= 128) return -1;
    word |= code << shift;
  }
  return word;
}

function slotOf(head: number, tail: number, mask: number): number {
  // A multiply leaves low bits depending on low bits only: mixed again (murmur's finaliser) so the
  // slot depends on every character.
  let hash = Math.imul(head ^ seed, 0x9e3779b1) ^ Math.imul(tail + 0x7f4a7c15, 0x85ebca6b);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash & mask;
}

function find(table: Int32Array, head: number, tail: number): number {
  const mask = (table.length >> 1) - 1;
  let slot = slotOf(head, tail, mask);
  for (let probe = 0; probe < maxProbes; probe++, slot = (slot + 1) & mask) {
    const at = slot * stride;
    const stored = table[at]!;
    if (stored === 0) return -1;
    if (stored === head) {
      const second = table[at + 1]!;
      if ((second & 0xfffffff) === tail) return second >>> 28;
    }
  }
  return -1;
}

/**
 * Stores the key; true when it took a free slot, false when its probe sequence was full and it
 * replaced the key in the first slot of it (as in piece-memo.ts: no refused keys, so the counter
 * has no rarely met branch for them).
 */
function insert(table: Int32Array, head: number, tail: number, count: number): boolean {
  const mask = (table.length >> 1) - 1;
  const home = slotOf(head, tail, mask);
  let slot = home;
  for (let probe = 0; probe < maxProbes; probe++, slot = (slot + 1) & mask) {
    const at = slot * stride;
    if (table[at] === 0) {
      table[at] = head;
      table[at + 1] = tail | (count << 28);
      return true;
    }
  }
  table[home * stride] = head;
  table[home * stride + 1] = tail | (count << 28);
  return false;
}

/**
 * Token counts of short ASCII pieces keyed by the piece itself, packed into two numbers (the key
 * is exact: no string to compare, no pointer to follow). Most pieces of ordinary text are words of
 * a few letters: a lookup here reads one cache line, where a string-keyed table reads its slot,
 * the stored string and its characters. Bounded like `PieceMemo`: a young and an old table of at
 * most `generationSize` pieces each (kept at most half full; the young one grows to that size by
 * doubling); a hit in the old one is copied.
 */
export class PackedPieceMemo {
  #young: Int32Array;
  #old: Int32Array;
  #youngSize = 0;
  readonly #generationSize: number;
  readonly #capacity: number;

  constructor(generationSize: number) {
    this.#generationSize = Math.max(1, Math.floor(generationSize));
    this.#capacity = slotsFor(this.#generationSize);
    this.#young = new Int32Array(Math.min(this.#capacity, initialSlots) * stride);
    this.#old = new Int32Array(stride * 2);
  }

  /**
   * The count stored for the key (`packHead`, `packTail` of a piece); -1 when it is not stored.
   */
  get(head: number, tail: number): number {
    const young = find(this.#young, head, tail);
    if (young >= 0) return young;
    const old = find(this.#old, head, tail);
    if (old >= 0) this.set(head, tail, old);
    return old;
  }

  set(head: number, tail: number, count: number): void {
    const slots = this.#young.length / stride;
    if (this.#youngSize >= slots >> 1 && slots < this.#capacity) this.#grow();
    else if (this.#youngSize >= this.#generationSize) {
      this.#old = this.#young;
      this.#young = new Int32Array(this.#capacity * stride);
      this.#youngSize = 0;
    }
    if (insert(this.#young, head, tail, count)) this.#youngSize++;
  }

  #grow(): void {
    const old = this.#young;
    this.#young = new Int32Array(old.length * 2);
    this.#youngSize = 0;
    for (let at = 0; at < old.length; at += stride) {
      const head = old[at]!;
      if (head === 0) continue;
      const second = old[at + 1]!;
      if (insert(this.#young, head, second & 0xfffffff, second >>> 28)) this.#youngSize++;
    }
  }
}
