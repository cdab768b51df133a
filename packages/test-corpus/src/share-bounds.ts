/**
 * Bounds for a share of `count` draws measured against a rate measured elsewhere. Seeds change with
 * every commit, so a bound is crossed by a correct build about `odds` of the time. Four standard
 * deviations of a normal curve read as one in 30,000 but, at the small counts these tests see (a
 * rate of 0.03 % over 1,000 draws expects 0.3), three events come once in 150 runs: the bounds are
 * the binomial's own tails. A rate measured at zero is taken as one draw in `count`: it is only
 * known to be small.
 */
const DEFAULT_ODDS = 1e-5;

/** Probabilities of 0..count events, from logarithms so large counts do not underflow at the mode. */
function binomialProbabilities(rate: number, count: number): number[] {
  const p = Math.min(rate > 0 ? rate : 1 / count, 1 - 1 / count);
  const logs = new Array<number>(count + 1);
  logs[0] = count * Math.log1p(-p);
  const ratio = Math.log(p) - Math.log1p(-p);
  for (let k = 0; k < count; k++) logs[k + 1] = logs[k]! + Math.log((count - k) / (k + 1)) + ratio;
  const top = Math.max(...logs);
  const weights = logs.map((value) => Math.exp(value - top));
  const total = weights.reduce((sum, value) => sum + value, 0);
  return weights.map((value) => value / total);
}

/** The largest share of `count` draws a build at `rate` exceeds less than `odds` of the time. */
export function upperShareBound(rate: number, count: number, odds = DEFAULT_ODDS): number {
  const probabilities = binomialProbabilities(rate, count);
  let above = 0;
  let limit = count;
  while (limit > 0 && above + probabilities[limit]! < odds) above += probabilities[limit--]!;
  return limit / count;
}

/** The smallest share of `count` draws a build at `rate` falls below less than `odds` of the time. */
export function lowerShareBound(rate: number, count: number, odds = DEFAULT_ODDS): number {
  const probabilities = binomialProbabilities(rate, count);
  let below = 0;
  let limit = 0;
  while (limit < count && below + probabilities[limit]! < odds) below += probabilities[limit++]!;
  return limit / count;
}
