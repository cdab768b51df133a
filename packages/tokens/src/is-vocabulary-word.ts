import { vocabularyBitMask, vocabularyHashes, vocabularyWordBits } from './vocabulary-words.js';

export { vocabularyMinimumLetters } from './vocabulary-words.js';

/** The first bit of the Bloom filter of o200k's whole-word tokens for a word's FNV-1a hash. */
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
 * Whether the word whose FNV-1a hash (offset 0x811c9dc5, prime 0x01000193, over UTF-16 code units)
 * is `hash` is one o200k token after a space (vocabulary-words.ts: rare false positives, none
 * negative).
 */
export function isVocabularyWord(hash: number): boolean {
  const bits = vocabularyWordBits();
  const first = vocabularyFirstBit(hash);
  // Most words miss at the first bit: the step of the others is computed only past it.
  let bit = first & vocabularyBitMask;
  if ((bits[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
  const step = vocabularyBitStep(first);
  for (let k = 1; k < vocabularyHashes; k++) {
    bit = (first + k * step) & vocabularyBitMask;
    if ((bits[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}
