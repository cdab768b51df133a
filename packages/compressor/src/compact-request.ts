import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CountMessagesOptions, TokenCounter } from '@baton/tokens';
import { type ClippedToolOutputs, clipLatestToolOutputs } from './clip-latest-tool-outputs.js';
import { CompactionNotEffectiveError } from './compaction-not-effective-error.js';
import { ContextBudgetError } from './context-budget-error.js';
import type { ContextCompressor } from './context-compressor.js';
import { ContextWindowExceededError } from './context-window-exceeded-error.js';
import type { Budget } from './resolve-budget.js';
import type { CompactionEvent, CompressResult } from './types.js';

export interface CompactRequestInput {
  /** What would be sent: current system messages, the latest compaction, the raw messages after it. */
  messages: ModelMessage[];
  /** `messages` counted (uncalibrated, tools included). */
  estimate: number;
  budget: Budget;
  counter: TokenCounter;
  compressor: ContextCompressor;
  /** Provider tokens per counted token. */
  ratio: number;
  tools: CountMessagesOptions['tools'] | undefined;
  abortSignal: AbortSignal | undefined;
}

/** Either a compaction to send, or the request as it was (compaction could not help). */
export type CompactRequestOutcome =
  | {
      kind: 'compacted';
      result: CompressResult<ModelMessage>;
      /** The result counted (uncalibrated, tools included). */
      sentEstimate: number;
      clipped: ClippedToolOutputs | undefined;
    }
  | {
      kind: 'unchanged';
      /** Why compaction failed, when it did (the request is still sent: it fits the window). */
      failure: string | undefined;
      /** True when compacting again next step would be as useless (the caller backs off). */
      backOff: boolean;
    };

/** Share of the compaction target an oversized latest turn is clipped to (the rest: head, summary). */
const latestTurnShare = 0.5;

/**
 * Compresses a request over the trigger to the budget's target; falls back to the window itself,
 * then to clipping the latest turn's tool outputs. Throws `ContextWindowExceededError` when nothing
 * makes the request fit the window.
 */
export async function compactRequest(input: CompactRequestInput): Promise<CompactRequestOutcome> {
  const { messages, estimate, budget, counter, compressor, ratio, tools, abortSignal } = input;
  const calibrated = (tokens: number): number => Math.ceil(tokens * ratio);
  const compressOnce = async (source: ModelMessage[], targetTokens: number) => {
    const result = await compressor.compress(source, {
      targetTokens: Math.floor(targetTokens / ratio),
      ...(tools === undefined ? {} : { tools }),
      ...(abortSignal === undefined ? {} : { abortSignal }),
    });
    // The caller gave up on this call: a fallback the abort forced (the receipt of an interrupted
    // summary) would be committed as the conversation's compaction, and stored as its child
    // session, for a reply nobody reads; every later call resumed from it and never summarised.
    // Rejecting leaves the state and the store as they were, as a wait on a background job does.
    if (result.usedFallback && abortSignal?.aborted === true) throw abortSignal.reason;
    return result;
  };
  const tooBig = (requiredTokens: number, cause?: unknown) => {
    const latestAskTokens = ContextBudgetError.isInstance(cause)
      ? cause.latestAskTokens
      : undefined;
    return new ContextWindowExceededError({
      requiredTokens,
      availableTokens: budget.availableTokens,
      contextWindow: budget.contextWindow,
      cause,
      ...(latestAskTokens === undefined ? {} : { latestAskTokens: calibrated(latestAskTokens) }),
    });
  };
  const fits = calibrated(estimate) <= budget.availableTokens;

  // Last resort before giving up: the compressor keeps the latest turn verbatim, so an oversized
  // tool output there is clipped (start and end kept) until the request fits the window.
  let clipped: ClippedToolOutputs | undefined;
  const clipAndRetry = async (
    requiredTokens: number,
    cause: unknown,
  ): Promise<CompressResult<ModelMessage>> => {
    clipped = clipLatestToolOutputs(messages, {
      counter,
      maxTokens: Math.floor((budget.targetTokens * latestTurnShare) / ratio),
    });
    if (clipped === undefined) throw tooBig(requiredTokens, cause);
    const clippedMessages = clipped.messages;
    const asIs = (): CompressResult<ModelMessage> => {
      const after = counter.countMessages(clippedMessages, { tools });
      if (calibrated(after) > budget.availableTokens) throw tooBig(calibrated(after), cause);
      return clipOnlyResult(clippedMessages, estimate, after);
    };
    let retried: CompressResult<ModelMessage>;
    try {
      retried = await compressOnce(clippedMessages, budget.targetTokens);
    } catch (error) {
      if (ContextBudgetError.isInstance(error) || CompactionNotEffectiveError.isInstance(error))
        return asIs();
      throw error;
    }
    return retried.strategy === 'none' ? asIs() : retried;
  };

  let result: CompressResult<ModelMessage>;
  try {
    try {
      result = await compressOnce(messages, budget.targetTokens);
    } catch (error) {
      // The target leaves headroom; the window itself may still hold head + latest turn.
      if (!ContextBudgetError.isInstance(error) || budget.targetTokens >= budget.availableTokens) {
        throw error;
      }
      result = await compressOnce(messages, budget.availableTokens);
    }
  } catch (error) {
    if (ContextBudgetError.isInstance(error)) {
      // Head and latest turn leave nothing to compact; fine as long as the window takes them.
      if (fits) return { kind: 'unchanged', failure: undefined, backOff: true };
      result = await clipAndRetry(calibrated(error.requiredTokens), error);
    } else if (abortSignal?.aborted === true) {
      throw error;
    } else if (CompactionNotEffectiveError.isInstance(error)) {
      // Nothing worth removing: send as is while it fits, else the best attempt if that fits.
      if (fits) return { kind: 'unchanged', failure: undefined, backOff: true };
      result =
        calibrated(error.result.tokensAfter) > budget.availableTokens
          ? await clipAndRetry(calibrated(error.result.tokensAfter), error)
          : (error.result as CompressResult<ModelMessage>);
    } else {
      // A compaction bug must not cost the user a call the window can still take.
      if (!fits) throw tooBig(calibrated(estimate), error);
      const reason = error instanceof Error ? error.message : String(error);
      return { kind: 'unchanged', failure: `compaction failed: ${reason}`, backOff: false };
    }
  }

  // The compressor found it already fits its (wider) budget: nothing was removed.
  if (result.strategy === 'none') return { kind: 'unchanged', failure: undefined, backOff: true };
  let sentEstimate = counter.countMessages(result.messages, { tools });
  if (calibrated(sentEstimate) > budget.availableTokens && clipped === undefined) {
    result = await clipAndRetry(calibrated(sentEstimate), undefined);
    sentEstimate = counter.countMessages(result.messages, { tools });
  }
  if (calibrated(sentEstimate) > budget.availableTokens) throw tooBig(calibrated(sentEstimate));
  return { kind: 'compacted', result, sentEstimate, clipped };
}

/** A result for a request that only needed its latest tool outputs clipped. */
function clipOnlyResult(
  messages: ModelMessage[],
  tokensBefore: number,
  tokensAfter: number,
): CompressResult<ModelMessage> {
  const event: CompactionEvent = {
    strategy: 'truncate',
    stages: [],
    removedMessageIndexes: [],
    maskedMessageIndexes: [],
    headMessageCount: 0,
    headDemoted: false,
    tailStartIndex: 0,
    summary: undefined,
    summarizerModel: undefined,
    usedFallback: false,
    fallbackReason: undefined,
    summarizerAttempts: 0,
    tokensBefore,
    tokensAfter,
    durationMs: 0,
    summarizerDurationMs: 0,
    createdAt: new Date().toISOString(),
    targetTokens: tokensAfter,
    withinBudget: true,
    pinnedMessageIndex: undefined,
    mode: 'budget',
  };
  return {
    messages,
    summary: undefined,
    strategy: 'truncate',
    mode: 'budget',
    usedFallback: false,
    tokensBefore,
    tokensAfter,
    tokensSaved: tokensBefore - tokensAfter,
    withinBudget: true,
    event,
  };
}
