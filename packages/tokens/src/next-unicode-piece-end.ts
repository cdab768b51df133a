import { isPatternSpace } from './is-pattern-space.js';
import { contractionEnd } from './next-ascii-piece-end.js';
import { unicodeClassSources } from './split-pattern.js';

// Per BMP code unit, the classes of the o200k and cl100k patterns it belongs to (tiktoken's
// tables: characters assigned since are in none). A unit in none of LETTER, NUMBER and SPACE is
// "neither letter, number nor space" (`[^\s\p{L}\p{N}]`): symbols, and marks, which o200k also
// counts among its upper- and lower-case letters.
const LETTER = 1;
const NUMBER = 2;
const UPPERISH = 4;
const LOWERISH = 8;
const SPACE = 16;
const NEWLINE = 32;
const LETTER_NUMBER_SPACE = LETTER | NUMBER | SPACE;

const table = new Uint8Array(65_536);
// Per block of 256 BMP units: whether `table` holds its classes yet.
const blockKnown = new Uint8Array(256);
let patternsOnce: RegExp[] | undefined;

/**
 * Classifies one block of 256 units with the pattern's own class sources, one global scan of the
 * block per class: a text pays only for the blocks it meets (a table of the whole BMP at once was
 * ~20 ms, a regular expression test per unit tens of ms on random BMP text).
 */
function classifyBlock(block: number): void {
  patternsOnce ??= Object.values(unicodeClassSources()).map(
    (source) => new RegExp(`${source}+`, 'gv'),
  );
  const [letter, number, upperish, lowerish] = patternsOnce as [RegExp, RegExp, RegExp, RegExp];
  const first = block << 8;
  let characters = '';
  for (let code = first; code < first + 256; code++) {
    table[code] = isPatternSpace(code) ? (code === 10 || code === 13 ? SPACE | NEWLINE : SPACE) : 0;
    characters += String.fromCharCode(code);
  }
  const mark = (pattern: RegExp, bit: number) => {
    for (const match of characters.matchAll(pattern)) {
      const end = first + match.index + match[0].length;
      for (let code = first + match.index; code < end; code++) table[code] = table[code]! | bit;
    }
  };
  mark(letter, LETTER);
  mark(number, NUMBER);
  mark(upperish, UPPERISH);
  mark(lowerish, LOWERISH);
  blockKnown[block] = 1;
}

/**
 * Whether the scanners below can split `units[start, end)`: true when it holds no surrogate
 * (astral characters, or lone ones, stay with the pattern), with every unit's classes loaded.
 */
export function scannableStretch(units: Uint16Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = units[i]!;
    if ((code & 0xf800) === 0xd800) return false;
    if (blockKnown[code >>> 8] === 0) classifyBlock(code >>> 8);
  }
  return true;
}

/** The shared tail of both patterns: `\p{N}{1,3}`, a symbol run, else the whitespace alternatives. */
function restEnd(
  units: Uint16Array,
  index: number,
  end: number,
  kind: number,
  slashes: boolean,
): number {
  if ((kind & NUMBER) !== 0) {
    let digit = index + 1;
    while (digit < end && digit < index + 3 && (table[units[digit]!]! & NUMBER) !== 0) digit++;
    return digit;
  }
  // ` ?[^\s\p{L}\p{N}]+[\r\n]*` (and `/` for o200k).
  const symbols =
    (kind & LETTER_NUMBER_SPACE) === 0 ? index : units[index]! === 32 ? index + 1 : -1;
  if (symbols >= 0 && symbols < end && (table[units[symbols]!]! & LETTER_NUMBER_SPACE) === 0) {
    let after = symbols + 1;
    while (after < end && (table[units[after]!]! & LETTER_NUMBER_SPACE) === 0) after++;
    while (after < end) {
      const code = units[after]!;
      if (code !== 10 && code !== 13 && !(slashes && code === 47)) break;
      after++;
    }
    return after;
  }
  // `\s*[\r\n]+` through the run's last line break, else `\s+(?!\S)` (all but the last space
  // before a non-space), else `\s+`.
  let last = -1;
  let run = index;
  while (run < end) {
    const next = table[units[run]!]!;
    if ((next & NEWLINE) !== 0) last = run;
    else if ((next & SPACE) === 0) break;
    run++;
  }
  if (last >= 0) return last + 1;
  if (run === end || run - index === 1) return run;
  return run - 1;
}

/**
 * `[upperish]*[lowerish]+` from `start` as the backtracking pattern matches it: the longest run of
 * upperish units, then the lowerish run from the last unit (at or before the run's end) that is
 * lowerish; -1 when there is none. Marks, `Lm` and `Lo` are both, so `中A` matches only `中`.
 */
function upperThenLowerEnd(units: Uint16Array, start: number, end: number): number {
  let upper = start;
  while (upper < end && (table[units[upper]!]! & UPPERISH) !== 0) upper++;
  let lower = upper;
  while (lower < end && (table[units[lower]!]! & LOWERISH) !== 0) lower++;
  if (lower > upper) return lower;
  for (let back = upper - 1; back >= start; back--)
    if ((table[units[back]!]! & LOWERISH) !== 0) return back + 1;
  return -1;
}

/** `[upperish]+[lowerish]*` from `start`: its end, or -1. */
function upperAndLowerEnd(units: Uint16Array, start: number, end: number): number {
  let upper = start;
  while (upper < end && (table[units[upper]!]! & UPPERISH) !== 0) upper++;
  if (upper === start) return -1;
  while (upper < end && (table[units[upper]!]! & LOWERISH) !== 0) upper++;
  return upper;
}

/**
 * The end of the o200k_base piece that starts at `index`, in a stretch `scannableStretch` accepted: the Unicode pattern's split, without a regular expression or a string per piece.
 * The alternatives are tried in the pattern's order, each with the optional leading unit first.
 */
export function nextO200kUnicodePieceEnd(units: Uint16Array, index: number, end: number): number {
  const kind = table[units[index]!]!;
  // `[^\r\n\p{L}\p{N}]?`: the optional unit before the letters.
  const prefixed = (kind & (LETTER | NUMBER | NEWLINE)) === 0 && index + 1 < end;
  if ((kind & (NUMBER | NEWLINE)) === 0) {
    let letters = prefixed ? upperThenLowerEnd(units, index + 1, end) : -1;
    if (letters < 0) letters = upperThenLowerEnd(units, index, end);
    if (letters < 0 && prefixed) letters = upperAndLowerEnd(units, index + 1, end);
    if (letters < 0) letters = upperAndLowerEnd(units, index, end);
    if (letters >= 0) return contractionEnd(units, letters, end);
  }
  return restEnd(units, index, end, kind, true);
}

/** The same for cl100k_base: contractions alone, `[^\r\n\p{L}\p{N}]?\p{L}+`, no `/` after symbols. */
export function nextCl100kUnicodePieceEnd(units: Uint16Array, index: number, end: number): number {
  const contraction = contractionEnd(units, index, end);
  if (contraction > index) return contraction;
  const kind = table[units[index]!]!;
  const letters =
    (kind & LETTER) !== 0
      ? index
      : (kind & (NUMBER | NEWLINE)) === 0 &&
          index + 1 < end &&
          (table[units[index + 1]!]! & LETTER) !== 0
        ? index + 1
        : -1;
  if (letters >= 0) {
    let after = letters + 1;
    while (after < end && (table[units[after]!]! & LETTER) !== 0) after++;
    return after;
  }
  return restEnd(units, index, end, kind, false);
}
