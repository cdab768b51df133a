import { letterBigramAlphabet, letterBigramRows } from './letter-bigram-surprisal.js';
import { isAbbreviation } from './secret-heuristics.js';

/**
 * Mean bits of surprisal a symbol above which a run of letters reads as drawn at random. Measured
 * (`reads-as-random-letters.property.test.ts`) on runs of 5-7 letters: uniformly random ones
 * average 6.0-6.2 bits and pass this about half the time (49 % of 5 letters, 59 % of 7); words
 * drawn from the syllables of Spanish, German and Swahili never, Japanese 0.04 %, pinyin and
 * Finnish 0.5 %, Korean 4 % (the language o200k holds fewest words of). At 5.6 random runs pass
 * 64-75 %, but Korean words 11 % and words of code (`memcpy`, `rustfmt`, `vsync`) too. The lowest threshold at
 * which no word of code tried (`memcpy` 5.9, `gofmt` 6.0, `kubectl` 4.3) reads as random: a name
 * taken for a token costs a reader the name, and a drawn body beside it is redacted anyway.
 */
export const randomLetterThreshold = 6;

/**
 * Fewest letters judged. Below five, random runs and words share their letter pairs too often to
 * tell apart (a 4-letter random run scores under the threshold about a third of the time, and
 * `tmp`, `ctx`, `npm` are words of code): shorter runs are read as before.
 */
export const randomLetterMinimum = 5;

let table: Float32Array | undefined;

/**
 * Bits of surprisal of symbol `second` after symbol `first`, indexed first * 27 + second (a-z are
 * 0-25; 26 is the word's start as `first` and its end as `second`). Decoded on first use: most
 * processes redact no parted body.
 */
function letterBigramSurprisal(): Float32Array {
  table ??= Float32Array.from(
    letterBigramRows.join(''),
    (cell) => letterBigramAlphabet.indexOf(cell) / 4,
  );
  return table;
}

/**
 * True when `run` (lower-case letters a-z) reads as letters drawn at random, not as a word of any
 * language written in Latin letters or a word of code: its letter pairs, scored by how often words
 * hold them, are too rare for a word.
 */
export function readsAsRandomLetters(run: string): boolean {
  if (run.length < randomLetterMinimum || !/^[a-z]+$/.test(run) || isAbbreviation(run)) {
    return false;
  }
  const surprisal = letterBigramSurprisal();
  const start = 26;
  let bits = 0;
  let previous = start;
  for (let index = 0; index < run.length; index++) {
    const letter = run.charCodeAt(index) - 97;
    bits += surprisal[previous * 27 + letter]!;
    previous = letter;
  }
  bits += surprisal[previous * 27 + 26]!;
  return bits / (run.length + 1) > randomLetterThreshold;
}
