interface Table {
  /** Per slot: the key's hash, then its count (side by side: a probe reads one cache line). */
  readonly entries: Int32Array;
  readonly keys: (string | undefined)[];
  size: number;
}

function createTable(slots: number): Table {
  return {
    entries: new Int32Array(slots * 2),
    keys: new Array<string | undefined>(slots).fill(undefined),
    size: 0,
  };
}

// Tables start at this many slots and double while half full, up to the generation's capacity: a
// first pass over ordinary text stores a few thousand such pieces, and a table sized for 65,536
// (megabytes over three arrays) cost a cache miss in each array on every lookup.
const initialSlots = 1 << 10;

// Seeded per process, so text written to collide in one process does not collide in another; and
// probes stop after `maxProbes` slots, so even colliding pieces cost bounded work each (a piece
// whose probe sequence is full takes the first slot of it, see `insert`).
const seed = (Math.random() * 0x100000000) | 0;

/** Slots of an open-addressed table that holds `entries` at most half full: a power of two. */
export function slotsFor(entries: number): number {
  let slots = 2;
  while (slots < entries * 2) slots *= 2;
  return slots;
}
const maxProbes = 16;

/** A hash of `units` from `start` to `end` (FNV-1a over UTF-16 code units, from a per-process seed). */
export function hashRange(units: Uint16Array, start: number, end: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ units[index]!, 0x01000193);
  return hash;
}

function sameRange(key: string, text: string, start: number, end: number): boolean {
  return key.length === end - start && text.startsWith(key, start);
}

function find(table: Table, text: string, start: number, end: number, hash: number): number {
  const mask = table.keys.length - 1;
  let slot = hash & mask;
  for (let probe = 0; probe < maxProbes; probe++, slot = (slot + 1) & mask) {
    const key = table.keys[slot];
    if (key === undefined) return -1;
    if (table.entries[slot * 2] === hash && sameRange(key, text, start, end))
      return table.entries[slot * 2 + 1]!;
  }
  return -1;
}

/**
 * Stores the piece in the first free slot of its probe sequence, or, when all `maxProbes` are
 * taken, in place of the piece in its first slot (a miss later for that one, never a wrong count).
 * Before, such a piece was refused and the caller asked a string-keyed cache: a branch met a few
 * times in 100,000 pieces, first met after the counter's loop was optimised, which then threw that
 * code away (a cold start's largest compile, done again).
 */
function insert(table: Table, key: string, hash: number, count: number): void {
  const mask = table.keys.length - 1;
  let slot = hash & mask;
  let probe = 0;
  while (table.keys[slot] !== undefined && probe < maxProbes) {
    probe++;
    slot = (slot + 1) & mask;
  }
  if (probe === maxProbes) slot = hash & mask;
  else table.size++;
  table.keys[slot] = key;
  table.entries[slot * 2] = hash;
  table.entries[slot * 2 + 1] = count;
}

/**
 * Token counts of pre-tokenisation pieces, looked up by a range of the text they occur in, so a hit
 * (nearly every piece of ordinary text) allocates nothing: no substring, no string hash. Bounded
 * like `GenerationalCache`: a young and an old open-addressed table of at most `generationSize`
 * pieces each (kept at most half full); a hit in the old one is copied to the young one, and a full
 * young table becomes the old one. A piece whose probe sequence is full is not stored.
 */
export class PieceMemo {
  #young: Table;
  #old: Table;
  readonly #generationSize: number;
  readonly #capacity: number;

  constructor(generationSize: number) {
    this.#generationSize = Math.max(1, Math.floor(generationSize));
    this.#capacity = slotsFor(this.#generationSize);
    this.#young = createTable(Math.min(this.#capacity, initialSlots));
    this.#old = createTable(2);
  }

  /**
   * The count stored for `text[start:end]` (whose code units' `hashRange` is `hash`); -1 when it is not stored.
   */
  get(text: string, start: number, end: number, hash: number): number {
    const young = find(this.#young, text, start, end, hash);
    if (young >= 0) return young;
    const old = find(this.#old, text, start, end, hash);
    if (old >= 0) this.set(text.slice(start, end), hash, old);
    return old;
  }

  set(piece: string, hash: number, count: number): void {
    const young = this.#young;
    if (young.size >= this.#generationSize) {
      this.#old = young;
      this.#young = createTable(Math.min(this.#capacity, initialSlots));
    } else if (young.size >= young.keys.length >> 1 && young.keys.length < this.#capacity) {
      const grown = createTable(young.keys.length * 2);
      for (let slot = 0; slot < young.keys.length; slot++) {
        const key = young.keys[slot];
        if (key !== undefined)
          insert(grown, key, young.entries[slot * 2]!, young.entries[slot * 2 + 1]!);
      }
      this.#young = grown;
    }
    insert(this.#young, piece, hash, count);
  }
}
