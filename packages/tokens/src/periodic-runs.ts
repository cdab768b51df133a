import { isPatternSpace } from './is-pattern-space.js';

/** The longest unit a periodic run is looked for with. */
export const longestPeriod = 16;

/**
 * How far apart the positions a run is looked for from are: a run at least this many units longer
 * than its period is never missed. Every 4th unit cost the estimator a third of its speed on real
 * text; shorter runs are few tokens, priced as before.
 */
export const anchorStride = 16;

/**
 * The periodic runs of `text`, flat as start, end, period triples (null when there are none, as in
 * almost all real text): stretches where one unit of 2-16 code units, neither one character
 * repeated (priced by tokensOfRepeatRun) nor only digits (split in threes before any merge) nor
 * holding whitespace, repeats at least three times, the last copy possibly partial. Looked for only
 * from every `anchorStride`-th unit, then widened both ways, so the scan costs a few comparisons a
 * unit and stays linear: a stretch found is skipped whole, and one too short to count is at most
 * three periods long.
 */
export function periodicRuns(text: string): number[] | null {
  let runs: number[] | null = null;
  const length = text.length;
  let from = 0;
  for (let anchor = 0; anchor + 2 < length; anchor += anchorStride) {
    const code = text.charCodeAt(anchor);
    // Whitespace outside ASCII is turned down with the unit (isRunUnit).
    if (code <= 32) continue;
    const last = Math.min(longestPeriod, length - 1 - anchor);
    for (let period = 2; period <= last; period++) {
      if (text.charCodeAt(anchor + period) !== code) continue;
      let end = anchor + period + 1;
      while (end < length && text.charCodeAt(end) === text.charCodeAt(end - period)) end++;
      let start = anchor;
      while (start > from && text.charCodeAt(start - 1) === text.charCodeAt(start - 1 + period))
        start--;
      if (end - start < 3 * period) continue;
      // A stretch of one character, digits or a unit with whitespace is left as it is, and skipped
      // whole: looked at again from the next anchor, a long one made the scan quadratic.
      if (isRunUnit(text, start, period)) {
        runs ??= [];
        runs.push(start, end, period);
      }
      from = end;
      // The next anchor past the run (the loop adds the stride).
      anchor = end - anchorStride + ((anchorStride - (end % anchorStride)) % anchorStride);
      break;
    }
  }
  return runs;
}

/** Whether the unit at `start` is priced as a periodic run (see periodicRuns). */
function isRunUnit(text: string, start: number, period: number): boolean {
  const first = text.charCodeAt(start);
  let mixed = false;
  let digits = true;
  for (let i = start; i < start + period; i++) {
    const code = text.charCodeAt(i);
    if (code <= 32 || (code >= 128 && isPatternSpace(code))) return false;
    if (code !== first) mixed = true;
    if (code < 48 || code > 57) digits = false;
  }
  return mixed && !digits;
}
