// Shared by the heuristic's fit (bench/fit-heuristic.ts), its tests and the benchmark: the real
// samples with exact counts, a deterministic held-out split, and mean absolute percentage error.
import { createRequire } from 'node:module';
import {
  type Category,
  categories,
  type Sample,
  scriptSamples,
  transcriptSamples,
} from './corpus-texts.ts';
import { fnv1aHash } from './fnv1a-hash.ts';

export interface CountedSample extends Sample {
  o200k: number;
  cl100k: number;
  /** True for the held-out ~30 % never used for fitting (by a hash of the text, so copies agree). */
  heldOut: boolean;
}

let cached: CountedSample[] | undefined;

/** Transcript and other-script samples, de-duplicated, with exact o200k/cl100k counts. */
export function countedSamples(): CountedSample[] {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
  const o200k = tiktoken.get_encoding('o200k_base');
  const cl100k = tiktoken.get_encoding('cl100k_base');
  const seen = new Set<string>();
  cached = [];
  for (const sample of [...transcriptSamples(), ...scriptSamples()]) {
    if (seen.has(sample.text)) continue;
    seen.add(sample.text);
    cached.push({
      ...sample,
      o200k: o200k.encode_ordinary(sample.text).length,
      cl100k: cl100k.encode_ordinary(sample.text).length,
      heldOut: fnv1aHash(sample.text) % 10 < 3,
    });
  }
  o200k.free();
  cl100k.free();
  return cached;
}

export interface ErrorReport {
  overall: number;
  byCategory: Record<Category, { mape: number; samples: number }>;
}

/** Mean absolute percentage error of `estimate` against exact counts, overall and per category. */
export function meanAbsolutePercentageError(
  samples: readonly CountedSample[],
  estimate: (text: string) => number,
  exact: 'o200k' | 'cl100k' = 'o200k',
): ErrorReport {
  const sums = Object.fromEntries(categories.map((c) => [c, { error: 0, samples: 0 }])) as Record<
    Category,
    { error: number; samples: number }
  >;
  let total = 0;
  for (const sample of samples) {
    const truth = sample[exact];
    const error = Math.abs(estimate(sample.text) - truth) / truth;
    sums[sample.category].error += error;
    sums[sample.category].samples += 1;
    total += error;
  }
  const byCategory = Object.fromEntries(
    categories.map((c) => [
      c,
      {
        mape: sums[c].samples ? sums[c].error / sums[c].samples : Number.NaN,
        samples: sums[c].samples,
      },
    ]),
  ) as ErrorReport['byCategory'];
  return { overall: total / samples.length, byCategory };
}

/** Per-text MAPE, aggregate bias (estimated / exact - 1) and chars/4's MAPE of one class. */
export interface ClassError {
  mape: number;
  bias: number;
  quarter: number;
}

/** `ClassError` of every class present in `samples`, against `exact` counts. */
export function classErrors<Name extends string>(
  samples: ReadonlyArray<{ text: string; class: Name }>,
  estimate: (text: string) => number,
  exact: (text: string) => number,
): Map<Name, ClassError> {
  const sums = new Map<
    Name,
    { error: number; quarter: number; estimated: number; exact: number; n: number }
  >();
  for (const sample of samples) {
    const truth = exact(sample.text);
    const guess = estimate(sample.text);
    const sum = sums.get(sample.class) ?? { error: 0, quarter: 0, estimated: 0, exact: 0, n: 0 };
    sum.error += Math.abs(guess - truth) / truth;
    sum.quarter += Math.abs(Math.ceil(sample.text.length / 4) - truth) / truth;
    sum.estimated += guess;
    sum.exact += truth;
    sum.n++;
    sums.set(sample.class, sum);
  }
  return new Map(
    [...sums].map(([name, sum]) => [
      name,
      {
        mape: sum.error / sum.n,
        bias: sum.estimated / sum.exact - 1,
        quarter: sum.quarter / sum.n,
      },
    ]),
  );
}

/** Aggregate bias and per-text MAPE of `estimate` against `exact` over `texts`, as one class. */
export function textErrors(
  texts: readonly string[],
  estimate: (text: string) => number,
  exact: (text: string) => number,
): ClassError {
  return classErrors(
    texts.map((text) => ({ text, class: 'all' })),
    estimate,
    exact,
  ).get('all')!;
}
