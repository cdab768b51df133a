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
import { tabRunTokens } from './tab-run-tokens.js';
import type { Encoding } from './types.js';

export interface EstimateTokensOptions {
  /**
   * Which tokenizer to imitate: `cl100k_base` (also used for `p50k_base`/`r50k_base`) or
   * `o200k_base`. Default `o200k_base` (also used for `heuristic`).
   */
  encoding?: Encoding;
}

const scratch = new Float64Array(extendedFeatureCount);
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
  if (text.length === 0) return 0;
  const isCl100k =
    encoding === 'cl100k_base' || encoding === 'p50k_base' || encoding === 'r50k_base';
  const weights = isCl100k ? heuristicWeights.cl100k_base : heuristicWeights.o200k_base;
  scratch.fill(0);
  extractFeatures(text, scratch);
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
  return Math.max(1, Math.round(sum));
}
