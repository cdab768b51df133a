import { clearOfPeriodicRuns } from './clear-of-periodic-runs.js';

/**
 * Numeric character references of HTML and XML (`&#39;`, `&#x27;`, `&#x41F;`). o200k's split pattern
 * cuts one into `&#` (joined to the `;` of a reference before it, or to punctuation before it), the
 * pieces of its number (digit runs of up to three; a hex letter run, with the `x` when the letters
 * are lower case: `&#xe9;` is `&#`, `xe`, `9`, `;`), and `;`. Priced one token a piece (two for a run
 * of three or more capitals or four or more lower-case letters), between other references: exact for
 * every decimal reference up to U+10FFF, mean absolute error 0.02-0.08 tokens for the hex forms. The
 * features priced them as punctuation, words and numbers: hex references came out 8-11 % high.
 */

const isDigit = (code: number) => code >= 48 && code <= 57;
const isLower = (code: number) => code >= 97 && code <= 122;
const isUpper = (code: number) => code >= 65 && code <= 90;
const isHex = (code: number) => isDigit(code) || ((code | 32) >= 97 && (code | 32) <= 102);

/** End (after `;`) of a whole numeric reference at `at`, or -1. */
function referenceEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== 38 || text.charCodeAt(at + 1) !== 35) return -1;
  let i = at + 2;
  const hex = (text.charCodeAt(i) | 32) === 120;
  if (hex) i++;
  const from = i;
  // Eight digits reach past U+10FFFF: a longer number is not a reference.
  while (i - from <= 8 && (hex ? isHex(text.charCodeAt(i)) : isDigit(text.charCodeAt(i)))) i++;
  return i > from && i - from <= 8 && text.charCodeAt(i) === 59 ? i + 1 : -1;
}

/** Tokens of the pieces of `text` from `from` to `to` (a reference's `x` and number). */
export function referenceBodyTokens(text: string, from: number, to: number): number {
  let tokens = 0;
  let i = from;
  while (i < to) {
    const code = text.charCodeAt(i);
    const start = i;
    if (isDigit(code)) {
      while (i < to && isDigit(text.charCodeAt(i))) i++;
      tokens += Math.ceil((i - start) / 3);
    } else if (isUpper(code)) {
      // A piece of capitals takes the lower-case letters after it (`Xb`); lower-case ones end at a
      // capital (`x`, `AF`).
      while (i < to && isUpper(text.charCodeAt(i))) i++;
      while (i < to && isLower(text.charCodeAt(i))) i++;
      tokens += i - start < 3 ? 1 : 2;
    } else {
      while (i < to && isLower(text.charCodeAt(i))) i++;
      tokens += i - start < 4 ? 1 : 2;
    }
  }
  return tokens;
}

/**
 * The stretches of `text` made of numeric references one after another, flat as start, end, tokens
 * triples, outside the periodic runs (flat start, end, period triples in text order, priced on their
 * own); null when there are none.
 */
export function characterReferenceRuns(
  text: string,
  periodic: readonly number[] | null,
): number[] | null {
  let runs: number[] | null = null;
  const clear = clearOfPeriodicRuns(periodic);
  let at = text.indexOf('&#');
  while (at !== -1) {
    let end = at;
    let tokens = 0;
    for (let after = referenceEnd(text, end); after !== -1; after = referenceEnd(text, end)) {
      tokens += 1 + referenceBodyTokens(text, end + 2, after - 1);
      end = after;
    }
    if (end > at) {
      // `&` or `#` right before joins the first `&#` into another piece (`;&&#` is `;`, `&&`,
      // `#`): the `&#` token is not there, two tokens are.
      const before = at > 0 ? text.charCodeAt(at - 1) : 0;
      if (before === 38 || before === 35) tokens++;
      if (clear(at, end)) {
        // The last `;` is a piece, or joins punctuation after it (`;</`, one token) that the
        // text between runs may not pay for when the next run takes its own `&#` (`&#60;/&#60;/`:
        // `;/`, `&#`), so it always costs one: at worst a token high, never low. The first `&#`
        // costs its token even after punctuation: `>&#` is cut `>&`, `#`.
        tokens++;
        runs ??= [];
        runs.push(at, end, tokens);
      }
      at = text.indexOf('&#', end);
    } else at = text.indexOf('&#', at + 1);
  }
  return runs;
}
