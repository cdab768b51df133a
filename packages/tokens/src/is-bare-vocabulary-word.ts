import {
  bareVocabularyBitMask,
  bareVocabularyHashes,
  bareVocabularyMaximumLetters,
  bareVocabularyWordBits,
} from './bare-vocabulary-words.js';
import { bloomFilterHas } from './bloom-filter-has.js';

/**
 * Whether the word whose FNV-1a hash is `hash` (as isVocabularyWord hashes it), of `letters`
 * letters, is one o200k token with no space before it (bare-vocabulary-words.ts: rare false
 * positives, none negative). A word piece that opens a text or a line, follows a digit or is a
 * camelCase hump is merged from its bare bytes, and o200k holds far fewer words so: 12,496 of its
 * 21,888 bare words of 5+ letters are not among its 52,381 space-led ones, and most space-led words
 * are two or three tokens bare (`buenos` 1 token after a space, 3 bare).
 */
export function isBareVocabularyWord(hash: number, letters: number): boolean {
  if (letters > bareVocabularyMaximumLetters) return false;
  return bloomFilterHas(
    bareVocabularyWordBits(),
    bareVocabularyBitMask,
    bareVocabularyHashes,
    hash,
  );
}
