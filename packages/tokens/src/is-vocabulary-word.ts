import {
  vocabularyBitMask,
  vocabularyHashes,
  vocabularyMaximumLetters,
  vocabularyMinimumLetters,
  vocabularyWordBits,
} from './vocabulary-words.js';

export { vocabularyMinimumLetters } from './vocabulary-words.js';

/**
 * Whether a word (or a word's first letters) of `letters` letters can be in the table: no word of
 * it is shorter than the minimum or longer than the longest one. Asked past that length, the filter
 * answered only with its false positives (about 0.1 % a letter): a run of thousands of letters
 * almost surely met one near its end and was priced as one whole-word token plus a short rest
 * (10,000 accented letters estimated at 10 tokens against 9,868; `internationalization` 500 times
 * at 238 against 1,000).
 */
export function isVocabularyLength(letters: number): boolean {
  return letters >= vocabularyMinimumLetters && letters <= vocabularyMaximumLetters;
}

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
