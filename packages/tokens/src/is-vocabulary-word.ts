import { bloomFilterHas } from './bloom-filter-has.js';
import {
  vocabularyBitMask,
  vocabularyHashes,
  vocabularyMaximumLetters,
  vocabularyMinimumLetters,
  vocabularyWordBits,
} from './vocabulary-words.js';

export { vocabularyBitStep, vocabularyFirstBit } from './bloom-filter-has.js';
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

/**
 * Whether the word whose FNV-1a hash (offset 0x811c9dc5, prime 0x01000193, over UTF-16 code units)
 * is `hash` is one o200k token after a space (vocabulary-words.ts: rare false positives, none
 * negative).
 */
export function isVocabularyWord(hash: number): boolean {
  return bloomFilterHas(vocabularyWordBits(), vocabularyBitMask, vocabularyHashes, hash);
}
