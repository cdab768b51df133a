import { isBase64Character } from './secret-rules.js';

/** A decoded view of a text, each character mapped back to the original characters it came from. */
export interface DecodedView {
  text: string;
  /** Original index of each character of `text`. */
  starts: Int32Array;
  /** Original index just after each character of `text`. */
  ends: Int32Array;
}

// Named HTML character references of the characters a token or a JSON document holds.
const named: Record<string, string> = {
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  sol: '/',
  equals: '=',
  plus: '+',
  colon: ':',
  lowbar: '_',
  hyphen: '-',
  period: '.',
  percnt: '%',
  num: '#',
};

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

// The escape `readEscape` found last: its length and what it reads as ('' for a style sequence).
let escapeLength = 0;
let escapeText = '';

/**
 * Reads the escape starting at `at`, if any: a URL percent escape (`%2B`), an HTML character
 * reference (`&#x3D;`, `&#61;`, `&quot;`) of printable ASCII, or a terminal style sequence
 * (`ESC[01;31m`, `ESC[K`). Sets `escapeLength` and `escapeText`; false where nothing decodes
 * (a UTF-8 byte or a control character decoded alone is no character, and no token holds one).
 */
function readEscape(text: string, at: number): boolean {
  const lead = text.charCodeAt(at);
  let code = -1;
  if (lead === 37) {
    const high = hexValue(text.charCodeAt(at + 1));
    const low = hexValue(text.charCodeAt(at + 2));
    if (high < 0 || low < 0) return false;
    code = high * 16 + low;
    escapeLength = 3;
  } else if (lead === 38) {
    let index = at + 1;
    if (text.charCodeAt(index) === 35) {
      index++;
      const hex = text.charCodeAt(index) === 120 || text.charCodeAt(index) === 88;
      if (hex) index++;
      const digitsFrom = index;
      let value = 0;
      for (; index < text.length && index - digitsFrom < (hex ? 6 : 7); index++) {
        const digit = hex ? hexValue(text.charCodeAt(index)) : text.charCodeAt(index) - 48;
        if (digit < 0 || digit > (hex ? 15 : 9)) break;
        value = value * (hex ? 16 : 10) + digit;
      }
      if (index === digitsFrom || text.charCodeAt(index) !== 59) return false;
      code = value;
    } else {
      const nameFrom = index;
      while (index - nameFrom < 7) {
        const letter = text.charCodeAt(index);
        if (letter < 97 || letter > 122) break;
        index++;
      }
      if (text.charCodeAt(index) !== 59) return false;
      const decoded = named[text.slice(nameFrom, index)];
      if (decoded === undefined) return false;
      escapeLength = index + 1 - at;
      escapeText = decoded;
      return true;
    }
    escapeLength = index + 1 - at;
  } else if (lead === 27) {
    if (text.charCodeAt(at + 1) !== 91) return false;
    let index = at + 2;
    while (index - at - 2 <= 32) {
      const parameter = text.charCodeAt(index);
      if (!((parameter >= 48 && parameter <= 57) || parameter === 59 || parameter === 63)) break;
      index++;
    }
    const final = text.charCodeAt(index);
    if (!((final >= 65 && final <= 90) || (final >= 97 && final <= 122))) return false;
    escapeLength = index + 1 - at;
    escapeText = '';
    return true;
  } else {
    return false;
  }
  if (code < 32 || code >= 127) return false;
  escapeText = String.fromCharCode(code);
  return true;
}

/** Base64's characters and the punctuation vendor formats add (`_-.~:`). */
function isTokenCharacter(code: number): boolean {
  return (
    isBase64Character(code) ||
    code === 95 ||
    code === 45 ||
    code === 46 ||
    code === 126 ||
    code === 58
  );
}

/** True when at least `length` token characters follow `from`. */
function tokenRunFollows(text: string, from: number, length: number): boolean {
  if (from + length > text.length) return false;
  for (let index = from; index < from + length; index++) {
    if (!isTokenCharacter(text.charCodeAt(index))) return false;
  }
  return true;
}

// What decoding a space, `<`, `>`, `&` or `%` cannot do: join a token's pieces or reveal a key
// (`%25` is a second level, read by no view).
const separators = ' <>&%';

/**
 * True when decoding may change what the rules find: an escape of a character a token or a key's
 * quotes hold (`%2B`, `&#x3D;`, `&quot;`, `%70`), or a style sequence (or a run of them) inside a
 * token or right before a long one (`grep --color` marking a match). A URL's `%20`, a page's
 * `&amp;` and a test runner's coloured words would only cost a second scan.
 */
function holdsSplittingEscape(text: string): boolean {
  let styleEnd = -1;
  let styleBefore = Number.NaN;
  for (let at = 0; at < text.length; at++) {
    const lead = text.charCodeAt(at);
    if ((lead !== 37 && lead !== 38 && lead !== 27) || !readEscape(text, at)) continue;
    if (escapeText !== '') {
      if (!separators.includes(escapeText)) return true;
    } else {
      // A run of sequences (`ESC[01;31m ESC[K`) is judged by what stands before its first one.
      if (at !== styleEnd) styleBefore = at > 0 ? text.charCodeAt(at - 1) : Number.NaN;
      styleEnd = at + escapeLength;
      if (
        isTokenCharacter(text.charCodeAt(styleEnd)) &&
        (isTokenCharacter(styleBefore) || tokenRunFollows(text, styleEnd, 16))
      ) {
        return true;
      }
    }
    at += escapeLength - 1;
  }
  return false;
}

/**
 * Reads URL percent escapes (`%2B` as `+`, `%22` as `"`), HTML character references (`&#x3D;`,
 * `&#61;`, `&equals;`, `&quot;`) of printable ASCII and drops terminal style sequences, the ways a
 * token or a JSON document is split once it is a query value, an attribute or coloured output.
 * One level per call: `%252F` reads `%2F`. Undefined when decoding could change no finding (see
 * `holdsSplittingEscape`).
 */
export function decodeTextEscapes(text: string): DecodedView | undefined {
  if (!holdsSplittingEscape(text)) return undefined;
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  const parts: string[] = [];
  let length = 0;
  let cursor = 0;
  for (let at = 0; at < text.length; at++) {
    const lead = text.charCodeAt(at);
    if ((lead !== 37 && lead !== 38 && lead !== 27) || !readEscape(text, at)) {
      starts[length] = at;
      ends[length] = at + 1;
      length++;
      continue;
    }
    parts.push(text.slice(cursor, at));
    if (escapeText !== '') {
      parts.push(escapeText);
      starts[length] = at;
      ends[length] = at + escapeLength;
      length++;
    }
    at += escapeLength - 1;
    cursor = at + 1;
  }
  parts.push(text.slice(cursor));
  return {
    text: parts.join(''),
    starts: starts.subarray(0, length),
    ends: ends.subarray(0, length),
  };
}
