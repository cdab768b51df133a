import { byteEscapeRuns } from './byte-escapes.js';
import { characterReferenceRuns } from './character-references.js';
import {
  extendedFeatureCount,
  extractFeatures,
  featureCount,
  featureNames,
  mergedRepeatRunTokens,
  newlineRunOverflowCl100k,
  newlineRunOverflowO200k,
  repeatRunTokens,
  spaceRunOverflow,
  tokenPairFloor,
} from './heuristic-features.js';
import { heuristicWeights } from './heuristic-weights.js';
import { InvalidInputError } from './invalid-input-error.js';
import { periodicRuns } from './periodic-runs.js';
import { isPunctuationSeam } from './punctuation-seam.js';
import { ruleRuns } from './rule-runs.js';
import { tabRunTokens } from './tab-run-tokens.js';
import type { Encoding } from './types.js';
import { unicodeEscapeRuns } from './unicode-escapes.js';

export interface EstimateTokensOptions {
  /**
   * Which tokenizer to imitate: `cl100k_base` (also used for `p50k_base`/`r50k_base`) or
   * `o200k_base`. Default `o200k_base` (also used for `heuristic`).
   */
  encoding?: Encoding;
}

const scratch = new Float64Array(extendedFeatureCount);
const runScratch = new Float64Array(extendedFeatureCount);
const spaceRunsFeature = featureNames.indexOf('spaceRuns');
const spacesBeforeDigitsFeature = featureNames.indexOf('spacesBeforeDigits');
/** Every encoding Baton accepts: the one list both `estimateTokens` and the counter validate against. */
export const knownEncodings: ReadonlySet<unknown> = new Set<Encoding>([
  'o200k_base',
  'cl100k_base',
  'p50k_base',
  'r50k_base',
  'heuristic',
]);

/**
 * Estimated token count of `text`: synchronous, no dependencies, a weighted sum of script-aware
 * features (Latin words, CJK/kana/hangul, digits, punctuation, whitespace runs, ...) whose weights
 * were fitted against exact tiktoken counts. Throws `InvalidInputError` when `text` is not a string.
 */
export function estimateTokens(text: string, options: EstimateTokensOptions = {}): number {
  if (typeof text !== 'string') {
    throw new InvalidInputError({
      path: 'text',
      message: `expected a string, got ${text === null ? 'null' : typeof text}`,
    });
  }
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({
      path: 'options',
      message: `expected an options object, got ${options === null ? 'null' : typeof options}`,
    });
  }
  const encoding = options.encoding ?? 'o200k_base';
  if (!knownEncodings.has(encoding)) {
    throw new InvalidInputError({
      path: 'options.encoding',
      message: `unknown encoding ${JSON.stringify(encoding)}`,
    });
  }
  return estimateTokensUnchecked(text, encoding);
}

/**
 * `estimateTokens` without argument checks, for callers that validated the encoding once (the
 * counter calls this for every uncached string).
 */
export function estimateTokensUnchecked(text: string, encoding: Encoding): number {
  return text.length === 0 ? 0 : Math.max(1, Math.round(estimatedSum(text, encoding)));
}

/** The estimate of non-empty `text` before rounding. */
function estimatedSum(text: string, encoding: Encoding): number {
  const isCl100k =
    encoding === 'cl100k_base' || encoding === 'p50k_base' || encoding === 'r50k_base';
  const weights = isCl100k ? heuristicWeights.cl100k_base : heuristicWeights.o200k_base;
  scratch.fill(0);
  extractFeatures(text, scratch);
  const runs = periodicRuns(text);
  // Text without `\u` (almost all) is not scanned again and is estimated as before.
  // Stretches of escapes each priced by the pieces o200k cuts them into: `\uXXXX` (both encodings),
  // `%NN` and `\xNN` bytes and `&#...;` references (o200k only: their pieces were measured on it).
  let escapes = text.includes('\\u') ? unicodeEscapeRuns(text, runs) : null;
  if (!isCl100k) {
    if (text.includes('%') || text.includes('\\x'))
      escapes = joined(escapes, byteEscapeRuns(text, runs));
    if (text.includes('&#')) escapes = joined(escapes, characterReferenceRuns(text, runs));
    // Long runs of one character (rules: `-----`, `=====`, box lines), met by the features as
    // repeat-run tokens, priced by their exact count (rule-run-tokens.ts). Only o200k's is shipped.
    if (scratch[repeatRunTokens]! > 0) escapes = joined(escapes, ruleRuns(text, runs));
  }
  if (runs !== null || escapes !== null) {
    // Each run is priced apart (periodicRunTokens): its own features come off the text's. Pricing
    // the text around the runs afresh instead cost a second pass over long texts with a short run
    // (`../../../` in a transcript): a third of the estimator's speed on real text. Stretches of
    // `\uXXXX` escapes are priced apart the same way, by their pieces (unicode-escapes.ts).
    runScratch.fill(0);
    if (runs !== null)
      for (let r = 0; r < runs.length; r += 3)
        extractFeatures(flat(text.slice(runs[r], runs[r + 1])), runScratch);
    if (escapes !== null)
      for (let r = 0; r < escapes.length; r += 3)
        extractFeatures(flat(text.slice(escapes[r], escapes[r + 1])), runScratch);
    for (let i = 0; i < extendedFeatureCount; i++) scratch[i]! -= runScratch[i]!;
  }
  let sum = 0;
  for (let i = 0; i < featureCount; i++) sum += scratch[i]! * weights[i]!;
  // Whitespace runs longer than the longest whitespace token, never undercounted, and runs of one
  // character past their first units, priced by the tokens of that character repeated (see
  // heuristic-features.ts).
  sum +=
    scratch[repeatRunTokens]! +
    scratch[spaceRunOverflow]! +
    scratch[isCl100k ? newlineRunOverflowCl100k : newlineRunOverflowO200k]!;
  // The cuts o200k's vocabulary cannot avoid (token-floor.ts) and the tokens of runs it merges: an
  // estimate below them is low. cl100k's vocabulary differs, and its tables are not shipped.
  if (!isCl100k) {
    sum += tabRunTokens(text, weights[spaceRunsFeature]!, weights[spacesBeforeDigitsFeature]!);
    sum = Math.max(sum, scratch[tokenPairFloor]! + scratch[mergedRepeatRunTokens]!);
  }
  if (runs !== null) sum += periodicRunTokens(text, runs, encoding);
  if (escapes !== null) for (let r = 2; r < escapes.length; r += 3) sum += escapes[r]!;
  return sum;
}

/**
 * Tokens of the periodic runs of `text`. BPE settles on one way to cut each copy of a unit: measured
 * with the exact o200k counter on units of 2-16 characters (English and Cyrillic words, random
 * Latin, Cyrillic and Han letters, punctuation, mixed), a run costs its copies times the unit's own
 * count (0.98-1.06 of exact in aggregate per kind; `the` 2,000 times at 1.00, `information` 1.00),
 * where the features priced it as one long word (`the` at 0.50 of exact, `мир` 0.38,
 * `information` 4.6x). The unit's own estimate stands in for its count.
 */
function periodicRunTokens(text: string, runs: readonly number[], encoding: Encoding): number {
  let tokens = 0;
  for (let r = 0; r < runs.length; r += 3) {
    const start = runs[r]!;
    const end = runs[r + 1]!;
    const period = runs[r + 2]!;
    const copies = Math.floor((end - start) / period);
    const copy = flat(text.slice(start, start + period));
    const unit = estimateTokensUnchecked(copy, encoding);
    const rest = (end - start) % period;
    // Copies that meet in a punctuation run (punctuation-seam.ts): each further copy priced by
    // what it adds beside another, where the features see the run it joins (at least a token: it
    // holds a piece of its own).
    const further = !isPunctuationSeam(text, start, period)
      ? unit
      : Math.max(unit, estimateTokensUnchecked(copy + copy, encoding) - unit);
    tokens +=
      unit +
      (copies - 1) * further +
      (rest > 0 ? estimateTokensUnchecked(flat(text.slice(end - rest, end)), encoding) : 0);
  }
  return tokens;
}

/** Both lists of run triples, either null when empty. */
function joined(first: number[] | null, second: number[] | null): number[] | null {
  if (first === null) return second;
  if (second !== null) first.push(...second);
  return first;
}

/**
 * `part` as a string of its own. A slice of 13 units or more is a view into the text it came from;
 * handed to the feature pass, that second kind of string cost the pass a fifth of its speed on every
 * later text (its character loads were compiled for both kinds).
 */
function flat(part: string): string {
  return part.length < 13 ? part : part.split('').join('');
}
