// Character classes of the split patterns restricted to text with no non-ASCII letter, number,
// mark or space: every code unit of 128 and above there is "neither letter, number nor space".
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const NEWLINE = 4; // \r \n
const SPACE = 5; // \t \v \f and ' '
const OTHER = 6;

const classes = new Uint8Array(128).fill(OTHER);
for (let code = 65; code <= 90; code++) classes[code] = UPPER;
for (let code = 97; code <= 122; code++) classes[code] = LOWER;
for (let code = 48; code <= 57; code++) classes[code] = DIGIT;
classes[10] = NEWLINE;
classes[13] = NEWLINE;
for (const code of [9, 11, 12, 32]) classes[code] = SPACE;

function classAt(units: Uint16Array, index: number): number {
  const code = units[index]!;
  return code < 128 ? classes[code]! : OTHER;
}

/**
 * The end of an English contraction (`'s 't 're 've 'm 'll 'd`, any case) at `index`, or `index`.
 * Case-insensitive as in Rust's regex: `ſ` folds to `s` (only the Unicode scanner meets it).
 */
export function contractionEnd(units: Uint16Array, index: number, end: number): number {
  if (index + 1 >= end || units[index]! !== 39) return index;
  const code = units[index + 1]!;
  const first = code | 32;
  if (first === 115 || first === 116 || first === 109 || first === 100 || code === 0x17f)
    return index + 2; // s t m d ſ
  if (index + 2 >= end) return index;
  const second = units[index + 2]! | 32;
  if ((first === 114 || first === 118) && second === 101) return index + 3; // re ve
  if (first === 108 && second === 108) return index + 3; // ll
  return index;
}

/** The end of the whitespace piece starting at `index` (the last three alternatives of both patterns). */
function whitespaceEnd(units: Uint16Array, index: number, end: number): number {
  let last = -1;
  let run = index;
  while (run < end) {
    const kind = classAt(units, run);
    if (kind === NEWLINE) last = run;
    else if (kind !== SPACE) break;
    run++;
  }
  // `\s*[\r\n]+`: through the last line break of the run.
  if (last >= 0) return last + 1;
  // `\s+(?!\S)`: all but the last space when a non-space follows; `\s+` for a single one.
  if (run === end || run - index === 1) return run;
  return run - 1;
}

/**
 * The alternatives both patterns share after their letter alternatives: digits in runs of up to
 * three, a symbol run (after an optional space) with the line breaks that follow it (and `/` for
 * o200k), else whitespace.
 */
function restEnd(
  units: Uint16Array,
  index: number,
  end: number,
  kind: number,
  slashes: boolean,
): number {
  if (kind === DIGIT) {
    let digit = index + 1;
    while (digit < end && digit < index + 3 && classAt(units, digit) === DIGIT) digit++;
    return digit;
  }
  const symbols = kind === OTHER ? index : units[index]! === 32 ? index + 1 : -1;
  if (symbols >= 0 && symbols < end && classAt(units, symbols) === OTHER) {
    let after = symbols + 1;
    while (after < end && classAt(units, after) === OTHER) after++;
    while (after < end) {
      const code = units[after]!;
      if (code !== 10 && code !== 13 && !(slashes && code === 47)) break;
      after++;
    }
    return after;
  }
  return whitespaceEnd(units, index, end);
}

/**
 * The end of the o200k_base pre-tokenisation piece that starts at `index`, for text in which every
 * code unit is ASCII or "neither letter, number nor space" (what the ASCII-class pattern sees):
 * the same split as the pattern, without a regular expression or a string per piece.
 */
export function nextO200kPieceEnd(units: Uint16Array, index: number, end: number): number {
  const kind = classAt(units, index);
  // `[^\r\n\p{L}\p{N}]?[upper]*[lower]+(?:contraction)?` and `…?[upper]+[lower]*(?:contraction)?`
  const letters = kind === OTHER || kind === SPACE ? index + 1 : index;
  if (kind !== DIGIT && kind !== NEWLINE && letters < end) {
    // Range checks instead of the class table: these two loops are most of the scan.
    let upper = letters;
    while (upper < end) {
      const code = units[upper]!;
      if (code < 65 || code > 90) break;
      upper++;
    }
    let lower = upper;
    while (lower < end) {
      const code = units[lower]!;
      if (code < 97 || code > 122) break;
      lower++;
    }
    if (lower > letters) return contractionEnd(units, lower, end);
  }
  // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, then the whitespace alternatives.
  return restEnd(units, index, end, kind, true);
}

/** The same for cl100k_base, whose pattern differs in contractions, letters and `/`. */
export function nextCl100kPieceEnd(units: Uint16Array, index: number, end: number): number {
  const kind = classAt(units, index);
  // `'(?:s|t|re|ve|m|ll|d)` (any case) stands alone.
  if (units[index]! === 39) {
    const contraction = contractionEnd(units, index, end);
    if (contraction > index) return contraction;
  }
  // `[^\r\n\p{L}\p{N}]?\p{L}+`
  const letters = kind === OTHER || kind === SPACE ? index + 1 : index;
  if (kind !== DIGIT && kind !== NEWLINE) {
    let after = letters;
    while (after < end) {
      const next = classAt(units, after);
      if (next !== UPPER && next !== LOWER) break;
      after++;
    }
    if (after > letters) return after;
  }
  // ` ?[^\s\p{L}\p{N}]+[\r\n]*`, then the whitespace alternatives.
  return restEnd(units, index, end, kind, false);
}
