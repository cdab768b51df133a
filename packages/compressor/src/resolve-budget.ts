import { describeValue, InvalidInputError } from '@baton/tokens';

/** Token figures that decide when and how far a request is compacted. */
export interface Budget {
  /** Model window in tokens (input + output). */
  contextWindow: number;
  /** Output tokens kept free for the reply. */
  reservedOutputTokens: number;
  /** Input tokens the window allows: `contextWindow - reservedOutputTokens`. Above it the call would fail. */
  availableTokens: number;
  /** Compaction starts when the request's input tokens (prompt + tools, calibrated) exceed this. */
  triggerTokens: number;
  /** Size compaction aims for, well under the trigger so the next steps do not compact again at once. */
  targetTokens: number;
  /** Recent history the compressor keeps verbatim. */
  protectLastNTokens: number;
  /** Length the summary of the middle is asked to stay within; undefined leaves the compressor's default. */
  summaryTargetTokens: number | undefined;
}

export interface ResolveBudgetOptions {
  contextWindow: number;
  /** `maxOutputTokens` of the call, when set. */
  requestedOutputTokens?: number | undefined;
  /** The user's `reservedOutputTokens` option, when set. */
  reservedOutputTokens?: number | undefined;
  /** Largest completion of the model, when known. */
  modelMaxOutputTokens?: number | undefined;
  /** Fraction (0, 1] of `availableTokens`, or an absolute token count when greater than 1. */
  threshold: number;
  /** Fraction (0, 1) of `triggerTokens`. */
  targetRatio: number;
  protectLastNTokens?: number | undefined;
  summaryTargetTokens?: number | undefined;
}

function positiveInteger(value: number | undefined, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0) {
    throw new InvalidInputError({
      path,
      message: `must be a non-negative finite number, got ${describeValue(value)}`,
    });
  }
  return Math.floor(value);
}

/**
 * Derives the trigger and compaction figures for one call. Everything scales with the window so a
 * 32k model and a 1M model get the same proportions: the default reply reserve is an eighth of the
 * window (capped by the model's own output limit) and the protected tail 40 % of the compaction
 * target, at most 20,000 tokens (the compressor shrinks tail and summary further when even that is
 * too much for the latest turn).
 */
export function resolveBudget(options: ResolveBudgetOptions): Budget {
  const contextWindow = positiveInteger(options.contextWindow, 'contextWindow');
  if (contextWindow === undefined || contextWindow < 1) {
    throw new InvalidInputError({ path: 'contextWindow', message: 'must be at least 1 token' });
  }
  const { threshold, targetRatio } = options;
  if (!Number.isFinite(threshold) || threshold <= 0) {
    throw new InvalidInputError({
      path: 'threshold',
      message: `must be a positive number, got ${describeValue(threshold)}`,
    });
  }
  if (!Number.isFinite(targetRatio) || targetRatio <= 0 || targetRatio >= 1) {
    throw new InvalidInputError({
      path: 'targetRatio',
      message: `must be between 0 and 1 exclusive, got ${describeValue(targetRatio)}`,
    });
  }
  const modelMaxOutput = positiveInteger(options.modelMaxOutputTokens, 'modelMaxOutputTokens');
  const reservedOutputTokens =
    positiveInteger(options.requestedOutputTokens, 'maxOutputTokens') ??
    positiveInteger(options.reservedOutputTokens, 'reservedOutputTokens') ??
    Math.min(modelMaxOutput ?? Number.POSITIVE_INFINITY, Math.floor(contextWindow / 8));
  const availableTokens = Math.max(0, contextWindow - reservedOutputTokens);
  const triggerTokens =
    threshold <= 1
      ? Math.floor(threshold * availableTokens)
      : Math.min(Math.floor(threshold), availableTokens);
  const targetTokens = Math.floor(targetRatio * triggerTokens);
  const protectLastNTokens =
    positiveInteger(options.protectLastNTokens, 'protectLastNTokens') ??
    Math.min(20_000, Math.floor(targetTokens * 0.4));
  const summaryTargetTokens = positiveInteger(options.summaryTargetTokens, 'summaryTargetTokens');
  return {
    contextWindow,
    reservedOutputTokens,
    availableTokens,
    triggerTokens,
    targetTokens,
    protectLastNTokens,
    summaryTargetTokens,
  };
}
