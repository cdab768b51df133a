import { clearOfPeriodicRuns } from './clear-of-periodic-runs.js';

/**
 * Bytes written as percent escapes (`%D0%BF`, URLs and form bodies) or `\xNN` escapes (`b'\xd0\xbf'`,
 * C and Python byte strings). o200k's split pattern cuts every escape at its prefix (a letter piece
 * takes at most one punctuation character before it, and a digit ends one), so a stretch costs the
 * sum of its escapes, and each escape costs its pieces:
 * - `%` with the hex letters that open it (`%D`; `%BF` is two tokens, `%`, `BF`: o200k holds few
 *   `%` + two-letter tokens, and not `%F`, `%f`, `%a`), else `%` alone;
 * - `\x` with the lower-case hex letters that open it (`\xbf` two tokens, `\xa` one); a capital is
 *   not joined to the lower-case `x`, so `\xBF` is `\x`, `BF`;
 * - then a digit run (one token up to three digits) and a letter after a digit (one more piece).
 * Checked with the exact counter on all 256 bytes in both cases, between other escapes: the rule is
 * exact for every escape but a few of mixed case (`%aB`). The features priced
 * these stretches by the bytes' letters and digits as if they were words and numbers: escaped
 * Cyrillic, Arabic, Devanagari or Han came out 20-45 % high and Greek 13 % low, depending only on
 * which lead bytes the script's UTF-8 uses.
 */

/** Whether `code` is an ASCII hex digit. */
function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 102);
}

/** Length of the prefix (`%` 1, `\x` 2) of a whole escape at `at`, 0 when there is none. */
function escapePrefixAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  const prefix = code === 37 ? 1 : code === 92 && text.charCodeAt(at + 1) === 120 ? 2 : 0;
  return prefix !== 0 &&
    isHex(text.charCodeAt(at + prefix)) &&
    isHex(text.charCodeAt(at + prefix + 1))
    ? prefix
    : 0;
}

/** Tokens of the escape at `at` whose prefix is `prefix` characters long (see the file comment). */
export function byteEscapeTokens(text: string, at: number, prefix: number): number {
  const first = text.charCodeAt(at + prefix);
  const second = text.charCodeAt(at + prefix + 1);
  const firstDigit = first <= 57;
  const secondDigit = second <= 57;
  if (firstDigit) return secondDigit ? 2 : 3;
  // The prefix joins the opening letters: always after `%`, after `\x` only lower-case ones.
  const joined = prefix === 1 || first >= 97;
  // o200k holds `%A`-`%E` and `%b`-`%e` whole, not `%F`, `%f` or `%a`.
  if (secondDigit)
    return joined ? (prefix === 1 && (first === 70 || first === 102 || first === 97) ? 3 : 2) : 3;
  return 2;
}

/**
 * The stretches of `text` made of at least two escapes of one kind one after another, flat as start,
 * end, tokens triples, outside the periodic runs (flat start, end, period triples in text order,
 * priced on their own); null when there are none. A lone escape (`50%25`, `'\x1b['`) is left to the
 * features, which the fit has seen in real text.
 */
export function byteEscapeRuns(text: string, periodic: readonly number[] | null): number[] | null {
  let runs: number[] | null = null;
  const clear = clearOfPeriodicRuns(periodic);
  // The next `%` and `\x` from where the scan is, found natively: most text has few or none.
  let percent = text.indexOf('%');
  let backslash = text.indexOf('\\x');
  while (percent !== -1 || backslash !== -1) {
    const at = backslash === -1 || (percent !== -1 && percent < backslash) ? percent : backslash;
    const code = text.charCodeAt(at);
    const prefix = escapePrefixAt(text, at);
    let end = at;
    let tokens = 0;
    let escapes = 0;
    while (prefix !== 0 && text.charCodeAt(end) === code && escapePrefixAt(text, end) === prefix) {
      tokens += byteEscapeTokens(text, end, prefix);
      end += prefix + 2;
      escapes++;
    }
    if (escapes >= 2 && clear(at, end)) {
      const firstLetter = text.charCodeAt(at + prefix) > 57;
      // A space before the stretch joins its `%` or `\`, and the letters or `x` after it become a
      // piece of their own (` %`, `D`; ` \`, `x`, `20`), except lower-case letters after `\x`.
      if (at > 0 && text.charCodeAt(at - 1) === 32) {
        if (prefix === 1 ? firstLetter : !(firstLetter && text.charCodeAt(at + 2) >= 97)) tokens++;
      }
      runs ??= [];
      runs.push(at, end, tokens);
    }
    const from = Math.max(end, at + 1);
    if (percent !== -1 && percent < from) percent = text.indexOf('%', from);
    if (backslash !== -1 && backslash < from) backslash = text.indexOf('\\x', from);
  }
  return runs;
}
