// Slots of 8 int32s: size and count (plus one, so 0 marks an empty slot), then up to 16 bytes in
// four little-endian words, then padding: one slot is half a cache line.
const slotWords = 8;
const slotBits = 15;
const slotMask = (1 << slotBits) - 1;
// Probes before a lookup gives up (a miss) and an insertion overwrites the last slot probed.
const probes = 8;

/** Bytes of the longest part the memo holds. */
export const longestMemoisedPart = 16;

/**
 * Token counts of short parts of long pieces (`countByCuts`) by their bytes: a run of Thai,
 * Devanagari, Arabic or Cyrillic letters is cut every two to four characters, and the same few
 * thousand parts (syllables, pairs of them) come back over and over. 32,768 slots of 32 bytes
 * (1 MB, allocated on first use); a full neighbourhood overwrites its last slot, so memory stays
 * bounded and old parts age out. A part's count depends on its bytes and the rank table alone: one
 * memo per rank table, shared by its counters.
 */
export class PartCountMemo {
  private slots: Int32Array | undefined;
  // The last looked-up part's words, hash and size: `set` stores under them.
  private word0 = 0;
  private word1 = 0;
  private word2 = 0;
  private word3 = 0;
  private hash = 0;
  private size = 0;

  /** The count of `bytes[from, to)` (at most `longestMemoisedPart` bytes), or -1. */
  get(bytes: Uint8Array, from: number, to: number): number {
    let slots = this.slots;
    if (slots === undefined) {
      slots = new Int32Array((slotMask + 1) * slotWords);
      this.slots = slots;
    }
    let word0 = 0;
    let word1 = 0;
    let word2 = 0;
    let word3 = 0;
    for (let i = from; i < to; i++) {
      const offset = i - from;
      const shifted = bytes[i]! << (8 * (offset & 3));
      if (offset < 4) word0 |= shifted;
      else if (offset < 8) word1 |= shifted;
      else if (offset < 12) word2 |= shifted;
      else word3 |= shifted;
    }
    const size = to - from;
    let hash = Math.imul(word0 ^ size, 0x9e3779b1);
    hash = Math.imul(hash ^ word1, 0x85ebca6b);
    hash = Math.imul(hash ^ word2, 0xc2b2ae35);
    hash = Math.imul(hash ^ word3, 0x27d4eb2f);
    hash = (hash ^ (hash >>> 15)) & slotMask;
    this.word0 = word0;
    this.word1 = word1;
    this.word2 = word2;
    this.word3 = word3;
    this.hash = hash;
    this.size = size;
    for (let probe = 0; probe < probes; probe++) {
      const at = ((hash + probe) & slotMask) * slotWords;
      const head = slots[at]!;
      if (head === 0) return -1;
      if (
        head >>> 8 === size &&
        slots[at + 1] === word0 &&
        slots[at + 2] === word1 &&
        slots[at + 3] === word2 &&
        slots[at + 4] === word3
      )
        return (head & 0xff) - 1;
    }
    return -1;
  }

  /** Stores `count` (below 255) for the part the last `get` missed. */
  set(count: number): void {
    const slots = this.slots!;
    let at = 0;
    for (let probe = 0; probe < probes; probe++) {
      at = ((this.hash + probe) & slotMask) * slotWords;
      if (slots[at] === 0) break;
    }
    slots[at] = (this.size << 8) | (count + 1);
    slots[at + 1] = this.word0;
    slots[at + 2] = this.word1;
    slots[at + 3] = this.word2;
    slots[at + 4] = this.word3;
  }
}
