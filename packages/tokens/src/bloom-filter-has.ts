/** The first bit of the Bloom filters of o200k's whole-word tokens for a word's FNV-1a hash. */
export function vocabularyFirstBit(hash: number): number {
  let mixed = hash ^ (hash >>> 16);
  mixed = Math.imul(mixed, 0x85ebca6b);
  return mixed ^ (mixed >>> 13);
}

/** The distance between the filter's bits for a word (odd, so the bits differ). */
export function vocabularyBitStep(first: number): number {
  return (Math.imul(first, 0xc2b2ae35) >>> 7) | 1;
}

/**
 * Whether the Bloom filter `bits` (bit positions masked by `mask`, `hashes` bits a word, placed as
 * bench/derive-vocabulary-words.ts places them) may hold the word whose FNV-1a hash is `hash`.
 */
export function bloomFilterHas(
  bits: Uint8Array,
  mask: number,
  hashes: number,
  hash: number,
): boolean {
  const first = vocabularyFirstBit(hash);
  // Most words miss at the first bit: the step of the others is computed only past it.
  let bit = first & mask;
  if ((bits[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
  const step = vocabularyBitStep(first);
  for (let k = 1; k < hashes; k++) {
    bit = (first + k * step) & mask;
    if ((bits[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}
