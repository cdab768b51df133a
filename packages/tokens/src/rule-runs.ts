import { clearOfPeriodicRuns } from './clear-of-periodic-runs.js';
import { ruleRunTokens } from './rule-run-tokens.js';
import { repeatFreeUnits } from './tokens-of-repeat-run.js';

/**
 * The runs of one character longer than `repeatFreeUnits` units whose exact o200k count the rule
 * table holds (rule-run-tokens.ts), outside the periodic runs (flat start, end, period triples), as
 * flat start, end, tokens triples; null when there are none. One pass over the text: asked only
 * when the features met such a run. Shorter runs (`...`, `!!`, `---` in markdown) stay with the
 * features, fitted on real text, and so do runs o200k's split pattern does not cut as a piece of
 * their own (isOwnPiece).
 */
export function ruleRuns(text: string, periodic: readonly number[] | null): number[] | null {
  let runs: number[] | null = null;
  const clear = clearOfPeriodicRuns(periodic);
  const length = text.length;
  let start = 0;
  while (start < length) {
    const code = text.charCodeAt(start);
    let end = start + 1;
    while (end < length && text.charCodeAt(end) === code) end++;
    if (end - start > repeatFreeUnits && isOwnPiece(text, start, end)) {
      // A space before the run and one line break after it are in its piece (` ?[^\s\p{L}\p{N}]+
      // [\r\n/]*`) and may merge with it; more line breaks merge among themselves first.
      const spaced = start > 0 && text.charCodeAt(start - 1) === 32;
      const broken = text.charCodeAt(end) === 10 && !isPieceTail(text.charCodeAt(end + 1));
      const from = spaced ? start - 1 : start;
      const to = broken ? end + 1 : end;
      const tokens = ruleRunTokens(code, end - start, spaced, broken);
      if (tokens >= 0 && clear(from, to)) {
        runs ??= [];
        runs.push(from, to, tokens);
      }
    }
    start = end;
  }
  return runs;
}

/**
 * Whether o200k's split pattern cuts the run at `start`..`end` as a piece of its own, up to a space
 * before it and line breaks after it: whitespace or the text's end follows it (a letter after it
 * takes its last unit: `-----word` is `----` `-word`), and no other punctuation or symbol precedes
 * it (`+---------+` is one piece, merged across both seams, `=-` `--------+`).
 */
function isOwnPiece(text: string, start: number, end: number): boolean {
  if (end < text.length && !isWhitespace(text.charCodeAt(end))) return false;
  if (start === 0) return true;
  const before = text.charCodeAt(start - 1);
  return isWhitespace(before) || isLetterOrDigit(before);
}

/** Whether the split pattern adds the unit to a punctuation piece's tail (`[\r\n/]*`). */
function isPieceTail(code: number): boolean {
  return code === 10 || code === 13 || code === 47;
}

function isWhitespace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

function isLetterOrDigit(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 128 && letterOrDigit.test(String.fromCharCode(code)))
  );
}

const letterOrDigit = /[\p{L}\p{N}]/u;
