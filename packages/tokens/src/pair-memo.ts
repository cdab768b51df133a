/** What `PairMemo.get` returns for a pair not stored. */
export const unknownPair = -1;
// Grows from 65,536 slots (512 KB) by doubling while half full, up to 2^19 slots (4 MB: two int32s
// a slot); full at that size it starts again empty. o200k has about 200,000 merges. A first pass
// over a couple of MB of text fills tens of thousands of slots: starting small cost five rehashes.
const pairMemoInitialSlots = 1 << 16;
const pairMemoMaximumSlots = 1 << 19;
// A slot packs both ranks (each below 2^18, `pairKeyBits`) and the value (below 2^28: a rank or
// the merge's "no rank", 2^21) into two int32s: the left rank and the right's low 14 bits, then
// the right's top 4 bits and the value plus one (0 marks an empty slot, so a new table needs no
// fill: filling 512 KB was a measurable part of a fresh counter's first pass). Half the bytes of the former slot of four int32s: a cold
// first pass misses cache on most lookups, and on a smaller table less often.
export const pairKeyBits = 18;

/**
 * An open-addressing map from a pair of ranks (each below 2^`pairKeyBits`) to a number below 2^28 - 1
 * (the merge's rank of the joined pair, or its "no rank"), bounded. A slot is both ranks and the
 * value side by side, so a probe reads one cache line (three separate arrays cost three misses a
 * lookup on a table of megabytes).
 */
export class PairMemo {
  private slots: Int32Array;
  private mask: number;
  private size = 0;

  /** `initialSlots`: a power of two (tests start small so that probes meet). */
  constructor(initialSlots = pairMemoInitialSlots) {
    this.slots = new Int32Array(initialSlots * 2);
    this.mask = initialSlots - 1;
  }

  private slot(left: number, right: number): number {
    let hash = Math.imul(left, 0x9e3779b1) ^ Math.imul(right + 0x7f4a7c15, 0x85ebca6b);
    hash ^= hash >>> 15;
    return hash & this.mask;
  }

  /** The memoised rank, or `unknownPair`. */
  get(left: number, right: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const key = left | (right << pairKeyBits);
    const high = right >>> (32 - pairKeyBits);
    for (let slot = this.slot(left, right); ; slot = (slot + 1) & mask) {
      const at = slot << 1;
      const value = slots[at + 1]!;
      if (value === 0) return unknownPair;
      if (slots[at] === key && (value & 15) === high) return (value >>> 4) - 1;
    }
  }

  set(left: number, right: number, rank: number): void {
    if (this.size >= (this.mask + 1) >> 1) this.makeRoom();
    this.insert(left, right, rank);
  }

  private insert(left: number, right: number, rank: number): void {
    const slots = this.slots;
    let slot = this.slot(left, right);
    while (slots[(slot << 1) + 1] !== 0) slot = (slot + 1) & this.mask;
    const at = slot << 1;
    slots[at] = left | (right << pairKeyBits);
    slots[at + 1] = (right >>> (32 - pairKeyBits)) | ((rank + 1) << 4);
    this.size++;
  }

  private makeRoom(): void {
    const count = this.mask + 1;
    if (count >= pairMemoMaximumSlots) {
      this.slots.fill(0);
      this.size = 0;
      return;
    }
    const old = this.slots;
    this.slots = new Int32Array(count * 4);
    this.mask = count * 2 - 1;
    this.size = 0;
    for (let at = 0; at < old.length; at += 2) {
      const value = old[at + 1]!;
      if (value === 0) continue;
      const key = old[at]!;
      const right = ((key >>> pairKeyBits) | ((value & 15) << (32 - pairKeyBits))) >>> 0;
      this.insert(key & ((1 << pairKeyBits) - 1), right, (value >>> 4) - 1);
    }
  }
}
