// Runs of token characters: base64 (`+/=`), base64url (`-_`), and `.`/`~` that join a prefix or
// a token's segments (an ellipsis is three dots). The generic token layer reads runs of these too.
const runCharacters = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=.~') {
  runCharacters[character.charCodeAt(0)] = 1;
}
export const isRunCharacter = (code: number) => code < 128 && runCharacters[code] === 1;
// Far enough for any token; the bound keeps the walk short on a run of image bytes.
const reach = 1000;

/** Where the run of token characters going on from `position` of `text` ends (exclusive). */
export function runEnd(text: string, position: number): number {
  let to = position;
  while (to < text.length && to - position < reach && isRunCharacter(text.charCodeAt(to))) to++;
  return to;
}

/** Whether the run of token characters ending at `to` of `text` ends in an ellipsis. */
function isElidedRun(text: string, to: number): boolean {
  return text.startsWith('...', to - 3) || text.charCodeAt(to) === 0x2026;
}

/**
 * True when the run `text[start, to)` is an excerpt put on show rather than a value in use: it is
 * cut with an ellipsis at its end and it is base64 of readable text (`ops_eyJzaWdu…HM6...`: an
 * encoded document cut short). A random value cut with ellipses is not one, at one end or both:
 * `Bearer <40 random characters>...` is a whole credential followed by punctuation, and
 * `...<36 random>...` a whole value between two.
 */
export function isShownExcerpt(text: string, start: number, to: number): boolean {
  return isElidedRun(text, to) && encodesReadableText(text.slice(start, to));
}

/**
 * Whether the last base64 piece of `run` (after `_`, `-`, `.` or a key's `=`) decodes to printable
 * text.
 */
function encodesReadableText(run: string): boolean {
  let end = run.length;
  while (end > 0 && (run.charCodeAt(end - 1) === 46 || run.charCodeAt(end - 1) === 61)) end--;
  let from = end;
  while (from > 0 && !'_-.='.includes(run[from - 1]!)) from--;
  const length = (end - from) & ~3;
  // Twenty-four characters decode to eighteen bytes: random ones reach 90 % printable about once
  // in 10^5 (sixteen did once in 3,800).
  if (length < 24) return false;
  let decoded: string;
  try {
    decoded = atob(run.slice(from, from + length));
  } catch {
    return false;
  }
  let printable = 0;
  for (let index = 0; index < decoded.length; index++) {
    const code = decoded.charCodeAt(index);
    if ((code >= 32 && code < 127) || code === 9 || code === 10 || code === 13) printable++;
  }
  // Random bytes are printable about 37 % of the time.
  return printable >= decoded.length * 0.9;
}
