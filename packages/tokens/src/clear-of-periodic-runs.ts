/**
 * A test, for stretches found left to right, of whether a stretch is clear of the periodic runs
 * (flat start, end, period triples in text order; null when there are none). A stretch that touches
 * a periodic run is left to it: its features would come off the text's twice.
 */
export function clearOfPeriodicRuns(
  periodic: readonly number[] | null,
): (start: number, end: number) => boolean {
  let next = 0;
  return (start, end) => {
    if (periodic === null) return true;
    while (next < periodic.length && periodic[next + 1]! <= start) next += 3;
    return next >= periodic.length || periodic[next]! >= end;
  };
}
