// Characters on which the ASCII-class pattern could split differently from the Unicode one:
// non-ASCII letters, numbers, marks and whitespace, and astral or lone-surrogate code units (the
// ASCII pattern runs without the `u` flag). Every other character (arrows, box drawing, dashes,
// quotes, BMP symbols) is "neither letter, number nor space" to both patterns alike.
const needsUnicodeSource =
  '[[\\p{L}\\p{N}\\p{M}\\p{White_Space}]--[\\x00-\\x7f]]|[\\u{10000}-\\u{10FFFF}]|\\p{Cs}';
// The class above needs a Unicode-mode scan, several times slower per character than a plain one
// (it was a fifth of a warm count): non-ASCII code units are found by a plain scan, two code units
// at a time, and only those are classified, each code unit once per process (a regular expression
// test per occurrence was most of the scan on text with many arrows or box drawing, which never
// need it; a regular expression for the plain scan cost a call per arrow).
const needsUnicodeAt = new RegExp(needsUnicodeSource, 'v');
// Per BMP code unit: 0 not yet classified, 1 fine for the ASCII-class pattern, 2 needs Unicode.
const unitClasses = new Uint8Array(65_536);

function needsUnicode(code: number): boolean {
  // Surrogates: astral characters, or lone ones (the ASCII pattern runs without the `u` flag).
  if (code >= 0xd800 && code <= 0xdfff) return true;
  let known = unitClasses[code]!;
  if (known === 0) {
    known = needsUnicodeAt.test(String.fromCharCode(code)) ? 2 : 1;
    unitClasses[code] = known;
  }
  return known === 2;
}

/**
 * The next code unit of `units[from, end)` that needs the Unicode pattern: its index, or -1.
 * `words` holds the same units two at a time.
 */
export function nextNeedingUnicode(
  units: Uint16Array,
  words: Int32Array,
  from: number,
  end: number,
): number {
  // Whole words before `last` are skipped while ASCII; a unit of a word that is not, or one
  // outside whole words (an odd start or end), is classified alone. One path for all of them: a
  // cold start's first call runs every branch, so its optimised code is not thrown away on the
  // next call (separate paths for an odd start and end deoptimised it twice, and each time it was
  // compiled again).
  const last = end >> 1;
  let index = from;
  while (index < end) {
    if ((index & 1) === 0) index = nextWideWord(words, index >> 1, last) << 1;
    if (index >= end) break;
    const code = units[index]!;
    if (code >= 128 && needsUnicode(code)) return index;
    index++;
  }
  return -1;
}

/** The first of `words[from, last)` holding a code unit of 128 or more, or `last` (`from` if past it). */
function nextWideWord(words: Int32Array, from: number, last: number): number {
  let word = from;
  // Bits 7 to 15 of either unit: one of them is not ASCII (the mask is the same in either byte order).
  while (word < last && (words[word]! & 0xff80ff80) === 0) word++;
  return word;
}
