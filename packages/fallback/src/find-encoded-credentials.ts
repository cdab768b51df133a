import { decodeBase64 } from './decode-base64.js';

/** A base64 value that decodes to `user:password`. */
export interface EncodedCredentialSpan {
  kind: 'encoded-credentials';
  start: number;
  end: number;
}

// Standard base64 with its padding, bounded by characters no base64 or base64url value continues
// with (a `=` before one ends a key). Basic auth (`Authorization: Basic …`), Kubernetes Secret
// `data:`, `.dockerconfigjson` `auth` and `.npmrc` `_auth` all hold `user:password` this way,
// whatever key or header names it. Found by a scan of maximal runs: the equivalent regex
// (`(?<![\w+/-])[A-Za-z0-9+/]{6,256}={0,2}(?![\w+/=-])`) tried every word of every text and cost
// a tenth of all redaction time.
const base64Character = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
  base64Character[character.charCodeAt(0)] = 1;
const isBase64 = (code: number) => code < 128 && base64Character[code] === 1;
// `_` and `-`: base64url goes on past them, so a run they touch is part of another token.
const isUrlSafeExtra = (code: number) => code === 95 || code === 45;

/**
 * Where the candidates stand: `[start, end)` of each run of 6–256 base64 characters and its
 * padding; with `minimum` and `multiple`, only those of such a length (padding included).
 */
export function base64Candidates(text: string, minimum = 6, multiple = 1): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const length = text.length;
  let index = 0;
  while (index < length) {
    if (!isBase64(text.charCodeAt(index))) {
      index++;
      continue;
    }
    const start = index;
    while (index < length && isBase64(text.charCodeAt(index))) index++;
    const runEnd = index;
    let end = runEnd;
    while (end < length && text.charCodeAt(end) === 61) end++;
    // The scan goes on at the padding (never a start) and whatever follows it.
    if (start > 0 && isUrlSafeExtra(text.charCodeAt(start - 1))) continue;
    if (runEnd - start < 6 || runEnd - start > 256 || end - runEnd > 2) continue;
    if (end - start < minimum || (end - start) % multiple !== 0) continue;
    if (end < length) {
      const after = text.charCodeAt(end);
      if (isBase64(after) || isUrlSafeExtra(after)) continue;
    }
    found.push([start, end]);
  }
  return found;
}

// What a user name is (`admin`, `deploy@example.com`, `_json_key`), then a password with no space.
// A URL (`https://…` encoded) has `//` after its colon; a time of day has digits before it.
const credentialPair = /^[A-Za-z0-9_.@+-]*[A-Za-z_][A-Za-z0-9_.@+-]*:(?!\/\/)[\x21-\x7e]{3,}$/;

/**
 * Finds base64 values that decode to a `user:password` pair: the encoding is how credentials are
 * stored and sent, and no generated token, prose or image decodes to that shape by chance. The
 * password may be a weak or placeholder-like word: encoded, it is still a credential.
 */
export function findEncodedCredentials(text: string): EncodedCredentialSpan[] {
  const found: EncodedCredentialSpan[] = [];
  // Encoded text is padded to four and, unlike a word, holds a capital, a digit or padding.
  for (const [start, end] of base64Candidates(text, 8, 4)) {
    const value = text.slice(start, end);
    if (!/[^a-z]/.test(value)) continue;
    const decoded = decodeBase64(value);
    if (decoded === undefined || !credentialPair.test(decoded)) continue;
    // Six bytes (`j:ZkGZ` from the word `ajpaa0da`) are what about 12 in a million words of
    // eight letters and digits decode to; a user and a password take more.
    if (decoded.length < 7) continue;
    // An encoded header line (`Content-Type:application/json`) names a header, not a user.
    if (/^[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+:/.test(decoded)) continue;
    found.push({ kind: 'encoded-credentials', start, end });
  }
  return found;
}

// Wrapped lines of one value are all as long as the first; the chain is bounded so that a text of
// many short lines costs linear time.
const minimumWrappedLine = 12;
const maximumWrappedLines = 16;
// A user name and a password encode to a few hundred characters at most.
const maximumWrappedLength = 1024;
// A line break as `lineBreakLength` reads one, ending a first line as the scan below takes one
// (a whole run of 12 to 1,024 base64 characters in groups of four, after a character no base64
// or base64url value continues from, or after an escape's letter), before indentation and a
// base64 character. The break comes first so the engine skips to a newline or backslash; the
// look-behind reads the line only there, at most 1,024 characters back.
const wrappedLineBreak =
  /(?:\r?\n|\\{1,2}(?:r\\{1,2})?n)(?<=(?:^|[^A-Za-z0-9+/_-]|\\[nrt])(?:[A-Za-z0-9+/]{4}){3,256}(?:\r?\n|\\{1,2}(?:r\\{1,2})?n))[ \t]*[A-Za-z0-9+/]/g;

/**
 * Length of the line break at `at` that a wrapped value may be written with, 0 when none: a
 * newline or CR LF, JSON's `\n` or `\r\n`, the same escaped once more (`\\n`), then the next
 * line's indentation.
 */
function lineBreakLength(text: string, at: number): number {
  let index = at;
  if (text.startsWith('\r\n', index)) index += 2;
  else if (text.charCodeAt(index) === 10) index += 1;
  else {
    let slashes = 0;
    while (slashes < 2 && text.charCodeAt(index + slashes) === 92) slashes++;
    if (slashes === 0) return 0;
    const backslashes = '\\'.repeat(slashes);
    if (text.startsWith(`r${backslashes}n`, index + slashes)) index += 2 * slashes + 2;
    else if (text.charCodeAt(index + slashes) === 110) index += slashes + 1;
    else return 0;
  }
  let indent = 0;
  while (indent < 16 && (text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9)) {
    index++;
    indent++;
  }
  return index - at;
}

function runEnd(text: string, start: number): number {
  let index = start;
  while (index < text.length && isBase64(text.charCodeAt(index))) index++;
  return index;
}

/** True when `value` (base64, padding included) decodes to a `user:password` pair. */
function encodesCredentialPair(value: string): boolean {
  if (value.length % 4 !== 0 || !/[^a-z]/.test(value)) return false;
  const decoded = decodeBase64(value);
  return (
    decoded !== undefined &&
    credentialPair.test(decoded) &&
    !/^[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+:/.test(decoded)
  );
}

/**
 * Finds `user:password` pairs encoded and wrapped over lines (`base64` wraps at 76, in a JSON
 * string the breaks read `\n`): the first line alone may decode to the user and part of the
 * password, the tail of which is on the lines below.
 */
export function findWrappedEncodedCredentials(text: string): EncodedCredentialSpan[] {
  const found: EncodedCredentialSpan[] = [];
  // Every chain's first line ends at a break the gate finds: only the runs ending there are read
  // (walking every character of every multi-line text was a tenth of all redaction time).
  let consumed = 0;
  wrappedLineBreak.lastIndex = 0;
  for (
    let match = wrappedLineBreak.exec(text);
    match !== null;
    match = wrappedLineBreak.exec(text)
  ) {
    const firstEnd = match.index;
    let start = firstEnd;
    while (start > consumed && isBase64(text.charCodeAt(start - 1))) start--;
    const before = text.charCodeAt(start - 1);
    const first = text.charCodeAt(start);
    // The letter of an escape (`\n` before the line) is not part of the value.
    if (before === 92 && (first === 110 || first === 114 || first === 116)) start++;
    else if (start > 0 && (isUrlSafeExtra(before) || isBase64(before))) continue;
    // Most runs are words: too short, or not a whole number of groups of four.
    if (firstEnd - start < minimumWrappedLine || (firstEnd - start) % 4 !== 0) continue;
    const lines: Array<[number, number]> = [[start, firstEnd]];
    const width = lines[0]![1] - start;
    let end = lines[0]![1];
    while (
      width >= minimumWrappedLine &&
      width % 4 === 0 &&
      lines.length < maximumWrappedLines &&
      end - start <= maximumWrappedLength &&
      lines.at(-1)![1] - lines.at(-1)![0] === width
    ) {
      const gap = lineBreakLength(text, end);
      if (gap === 0 || !isBase64(text.charCodeAt(end + gap))) break;
      const next = end + gap;
      end = runEnd(text, next);
      lines.push([next, end]);
      if (end - next > width) break;
    }
    // Lines of this chain do not open another.
    consumed = end;
    wrappedLineBreak.lastIndex = Math.max(wrappedLineBreak.lastIndex, end);
    if (lines.length < 2) continue;
    // The first line opens the pair: a user name, maybe `:` and the start of a password.
    const opening = decodeBase64(text.slice(start, start + width));
    if (opening === undefined || !/^[A-Za-z0-9_.@+-]*(?::[\x21-\x7e]*)?$/.test(opening)) continue;
    // The last line may be shorter and padded; a longer one is not part of the value.
    let last = lines.length;
    if (lines[last - 1]![1] - lines[last - 1]![0] > width) last--;
    let padding = 0;
    if (last === lines.length) {
      while (padding < 2 && text.charCodeAt(end + padding) === 61) padding++;
    }
    // The whole chain first, then without its last line (unrelated text after a break).
    for (let count = last; count >= Math.max(2, last - 1); count--) {
      const tail = count === lines.length ? padding : 0;
      const chain = lines.slice(0, count);
      const value = chain.map(([from, to]) => text.slice(from, to)).join('') + '='.repeat(tail);
      if (!encodesCredentialPair(value)) continue;
      found.push({ kind: 'encoded-credentials', start, end: chain.at(-1)![1] + tail });
      break;
    }
  }
  return found;
}
