import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import {
  CompactionNotEffectiveError,
  type CompressResult,
  ContextBudgetError,
  type ContextCompressor,
  createContextCompressor,
} from '@baton/compressor';
import {
  type CountMessagesOptions,
  createTokenCounter,
  InvalidInputError,
  type ModelInfo,
  resolveModel,
  type TokenCounter,
  unknownModel,
} from '@baton/tokens';
import type { ModelMessage } from 'ai';
import { type ClippedToolOutputs, clipLatestToolOutputs } from './clip-latest-tool-outputs.js';
import { ContextWindowExceededError } from './context-window-exceeded-error.js';
import { createCalibration } from './create-calibration.js';
import {
  type CompactionState,
  createSessionTracker,
  type SessionState,
} from './create-session-tracker.js';
import { fingerprintMessages } from './fingerprint-messages.js';
import { createRecallLoop, type RecallLoopStore } from './recall-loop.js';
import { type Budget, resolveBudget } from './resolve-budget.js';
import { sameMessage } from './same-message.js';
import { toModelMessages } from './to-model-messages.js';
import { toProviderPrompt } from './to-provider-prompt.js';
import type {
  BatonProviderMetadata,
  CompactionMiddlewareOptions,
  MiddlewareCompactionEvent,
} from './types.js';

/** What `transformParams` learnt about a call, read back when the provider answers. */
interface CallRecord {
  modelKey: string;
  /** Uncalibrated count of what was sent, for calibration. */
  sentEstimate: number;
  calibrate: boolean;
  metadata: BatonProviderMetadata;
}

type CallMetadata = Pick<
  BatonProviderMetadata,
  | 'compacted'
  | 'usedCompactedContext'
  | 'inputTokens'
  | 'requestTokens'
  | 'tokensBefore'
  | 'tokensAfter'
  | 'strategy'
  | 'usedFallback'
  | 'fallbackReason'
  | 'childSessionId'
  | 'clippedToolOutputs'
  | 'omittedToolTokens'
>;

/** Messages the last compaction produced, as the provider prompt (reused while the conversation grows). */
const compactedPrompts = new WeakMap<ModelMessage[], LanguageModelV4Prompt>();

/**
 * Compaction as AI SDK middleware: counts every request (prompt, tool definitions, reserved output)
 * and, once it crosses the threshold, compresses the history with `@baton/compressor` before the
 * provider sees it. Below the threshold the call's params are returned untouched (the same object).
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: compactionMiddleware({ summarizer }) });
 * ```
 */
export function compactionMiddleware(
  options: CompactionMiddlewareOptions = {},
): LanguageModelV4Middleware {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({ path: 'options', message: 'must be an object' });
  }
  const threshold = options.threshold ?? 0.8;
  const targetRatio = options.targetRatio ?? 0.6;
  const calibrateOption = options.calibrate ?? 'auto';
  // Validate the options that do not depend on the model now, not on the first call.
  resolveBudget({
    contextWindow: options.contextWindow ?? 1_000_000,
    reservedOutputTokens: options.reservedOutputTokens,
    threshold,
    targetRatio,
    protectLastNTokens: options.protectLastNTokens,
    summaryTargetTokens: options.summaryTargetTokens,
  });
  if (
    options.store !== undefined &&
    options.sessionId === undefined &&
    options.getSessionId === undefined
  ) {
    throw new InvalidInputError({
      path: 'store',
      message: 'needs `sessionId` or `getSessionId` to know which lineage to use',
    });
  }

  const counters = new Map<string, TokenCounter>();
  const compressors = new WeakMap<TokenCounter, Map<string, ContextCompressor>>();
  const calibration = createCalibration();
  const tracker = createSessionTracker(options.store, {
    redact: options.redactStoredMessages ?? true,
  });
  const originals = new WeakMap<object, LanguageModelV4Message>();
  const callRecords = new WeakMap<LanguageModelV4CallOptions, CallRecord>();
  // Recall for the model (recall-loop.ts): adds its tool to each call and runs it. Off by default.
  const recall = createRecallLoop(
    options.store as RecallLoopStore | undefined,
    options.recall,
    sessionIdFor,
  );

  function counterFor(modelId: string): TokenCounter {
    if (options.counter !== undefined) return options.counter;
    let counter = counters.get(modelId);
    if (counter === undefined) {
      counter = createTokenCounter({ model: modelId });
      counters.set(modelId, counter);
    }
    return counter;
  }

  function compressorFor(counter: TokenCounter, budget: Budget): ContextCompressor {
    let byBudget = compressors.get(counter);
    if (byBudget === undefined) {
      byBudget = new Map();
      compressors.set(counter, byBudget);
    }
    const key = `${budget.protectLastNTokens}:${budget.summaryTargetTokens ?? ''}`;
    let compressor = byBudget.get(key);
    if (compressor === undefined) {
      compressor = createContextCompressor({
        // The user's call waits for the summariser: bound it tighter than the compressor's own
        // defaults (60 s x 3 attempts).
        timeoutMs: defaultSummarizerTimeoutMs,
        maxAttempts: defaultSummarizerAttempts,
        ...options.compressor,
        counter,
        protectLastNTokens: budget.protectLastNTokens,
        ...(budget.summaryTargetTokens === undefined
          ? {}
          : { summaryTargetTokens: budget.summaryTargetTokens }),
        ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
        ...(options.strategy === undefined ? {} : { strategy: options.strategy }),
        // Inserts promise recall (and name their span) only when the model has the tool.
        ...(recall.toolName === undefined ? {} : { recall: { toolName: recall.toolName } }),
      });
      byBudget.set(key, compressor);
    }
    return compressor;
  }

  function sessionIdFor(params: LanguageModelV4CallOptions): string | undefined {
    return options.getSessionId?.(params) ?? options.sessionId;
  }

  async function transformParams({
    params,
    model,
  }: {
    params: LanguageModelV4CallOptions;
    model: LanguageModelV4;
  }): Promise<LanguageModelV4CallOptions> {
    const prompt = params.prompt;
    if (!Array.isArray(prompt)) {
      throw new InvalidInputError({
        path: 'params.prompt',
        message: 'must be an array of messages',
      });
    }
    const modelKey = `${model.provider}:${model.modelId}`;
    const info = modelInfo(model.modelId);
    const counter = counterFor(model.modelId);
    const calibrate = calibrateOption === 'auto' ? !counter.exact : calibrateOption;
    const budget = resolveBudget({
      contextWindow: options.contextWindow ?? info.contextWindow,
      requestedOutputTokens: params.maxOutputTokens,
      reservedOutputTokens: options.reservedOutputTokens,
      modelMaxOutputTokens: info.maxOutputTokens,
      threshold,
      targetRatio,
      protectLastNTokens: options.protectLastNTokens,
      summaryTargetTokens: options.summaryTargetTokens,
    });
    const sessionId = sessionIdFor(params);
    const key =
      sessionId === undefined ? `anonymous:${conversationKey(prompt)}` : `session:${sessionId}`;
    const tools = params.tools as CountMessagesOptions['tools'];

    return tracker.withState(key, sessionId, async (state) => {
      // A ratio stored with the lineage's last compaction carries calibration over a restart.
      const storedRatio = state.storedCalibration?.[modelKey];
      if (calibrate && storedRatio !== undefined) calibration.seed(modelKey, storedRatio);
      const ratio = calibrate ? calibration.ratio(modelKey) : 1;
      const calibrated = (tokens: number): number => Math.ceil(tokens * ratio);
      const baseMetadata = {
        triggerTokens: budget.triggerTokens,
        contextWindow: budget.contextWindow,
        calibrationRatio: round(ratio),
        exactCount: counter.exact,
        sessionId: sessionId ?? null,
      };
      const finish = (
        sent: LanguageModelV4CallOptions,
        sentEstimate: number,
        metadata: CallMetadata,
      ): LanguageModelV4CallOptions => {
        const full: BatonProviderMetadata = { ...baseMetadata, ...metadata };
        callRecords.set(sent, { modelKey, sentEstimate, calibrate, metadata: full });
        return sent;
      };
      const noCompaction = {
        compacted: false,
        tokensBefore: null,
        tokensAfter: null,
        strategy: null,
        usedFallback: null,
        fallbackReason: null,
        childSessionId: null,
        clippedToolOutputs: null,
        omittedToolTokens: null,
      } as const;

      // Splice point: the latest compaction replaces the first `coveredRawCount` raw messages as long
      // as the app's history still starts with them.
      let spliceAt = matchingCompaction(state, prompt);
      // An edited or regenerated history goes to a fork of the lineage, so the store never holds
      // messages the model did not get, nor a compaction of a history the compressor did not see.
      const branched = await tracker.branchIfDiverged(
        state,
        prompt,
        state.compaction !== undefined && spliceAt === undefined,
      );
      if (branched === undefined) await tracker.persistRaw(state, prompt);
      else spliceAt = matchingCompaction(state, prompt);

      const leadingSystem = leadingSystemCount(prompt);
      const compacted = spliceAt === undefined ? undefined : state.compaction?.compacted;
      const countable: readonly object[] =
        compacted === undefined
          ? prompt
          : [
              ...prompt.slice(0, leadingSystem),
              ...withoutLeadingSystem(compacted),
              ...prompt.slice(spliceAt),
            ];
      const estimate = counter.countMessages(countable as never, { tools });
      // The app's full request, counted incrementally: covered messages were counted once already.
      let coveredRawTokens: number | undefined;
      let requestEstimate = estimate;
      if (compacted !== undefined && state.compaction !== undefined) {
        coveredRawTokens = state.compaction.coveredRawTokens ??= sumMessageTokens(
          counter,
          prompt.slice(0, spliceAt),
        );
        requestEstimate =
          coveredRawTokens + counter.countMessages(prompt.slice(spliceAt) as never, { tools });
      }
      const requestTokens = calibrated(requestEstimate);

      const backingOff =
        state.retryAboveTokens !== undefined &&
        calibrated(estimate) <= state.retryAboveTokens &&
        calibrated(estimate) <= budget.availableTokens;
      if (calibrated(estimate) <= budget.triggerTokens || backingOff) {
        if (compacted === undefined) {
          return finish(params, estimate, {
            ...noCompaction,
            usedCompactedContext: false,
            inputTokens: calibrated(estimate),
            requestTokens,
          });
        }
        const sent = {
          ...params,
          prompt: splicedPrompt(prompt, leadingSystem, compacted, spliceAt ?? prompt.length),
        };
        return finish(sent, estimate, {
          ...noCompaction,
          usedCompactedContext: true,
          inputTokens: calibrated(estimate),
          requestTokens,
        });
      }

      // Over the trigger: compress what would have been sent.
      const messages: ModelMessage[] =
        compacted === undefined
          ? toModelMessages(prompt, originals)
          : [
              ...toModelMessages(prompt.slice(0, leadingSystem), originals),
              ...withoutLeadingSystem(compacted),
              ...toModelMessages(prompt.slice(spliceAt), originals),
            ];
      const compressor = compressorFor(counter, budget);
      const compressOnce = (targetTokens: number) =>
        compressor.compress(messages, {
          targetTokens: Math.floor(targetTokens / ratio),
          ...(tools === undefined ? {} : { tools }),
          ...(params.abortSignal === undefined ? {} : { abortSignal: params.abortSignal }),
        });
      const tooBig = (requiredTokens: number, cause?: unknown) =>
        new ContextWindowExceededError({
          requiredTokens,
          availableTokens: budget.availableTokens,
          contextWindow: budget.contextWindow,
          cause,
        });

      // Sends what the app asked for (on the latest compaction, if any) when compaction cannot help.
      const sendUncompacted = (failure: string | undefined): LanguageModelV4CallOptions => {
        const sent =
          compacted === undefined
            ? params
            : {
                ...params,
                prompt: splicedPrompt(prompt, leadingSystem, compacted, spliceAt ?? prompt.length),
              };
        return finish(sent, estimate, {
          ...noCompaction,
          usedCompactedContext: compacted !== undefined,
          inputTokens: calibrated(estimate),
          requestTokens,
          ...(failure === undefined ? {} : { usedFallback: true, fallbackReason: failure }),
        });
      };

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
          const after = counter.countMessages(clippedMessages as never, { tools });
          if (calibrated(after) > budget.availableTokens) throw tooBig(calibrated(after), cause);
          return clipOnlyResult(clippedMessages, estimate, after);
        };
        let retried: CompressResult<ModelMessage>;
        try {
          retried = (await compressor.compress(clippedMessages, {
            targetTokens: Math.floor(budget.targetTokens / ratio),
            ...(tools === undefined ? {} : { tools }),
            ...(params.abortSignal === undefined ? {} : { abortSignal: params.abortSignal }),
          })) as CompressResult<ModelMessage>;
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
          result = (await compressOnce(budget.targetTokens)) as CompressResult<ModelMessage>;
        } catch (error) {
          // The target leaves headroom; the window itself may still hold head + latest turn.
          if (
            !ContextBudgetError.isInstance(error) ||
            budget.targetTokens >= budget.availableTokens
          ) {
            throw error;
          }
          result = (await compressOnce(budget.availableTokens)) as CompressResult<ModelMessage>;
        }
      } catch (error) {
        if (ContextBudgetError.isInstance(error)) {
          // Head and latest turn leave nothing to compact; fine as long as the window takes them.
          if (calibrated(estimate) <= budget.availableTokens) {
            state.retryAboveTokens = calibrated(estimate) + Math.ceil(budget.triggerTokens * 0.1);
            return sendUncompacted(undefined);
          }
          result = await clipAndRetry(calibrated(error.requiredTokens), error);
        } else if (params.abortSignal?.aborted === true) {
          throw error;
        } else if (CompactionNotEffectiveError.isInstance(error)) {
          // Nothing worth removing: send as is while it fits, else the best attempt if that fits.
          if (calibrated(estimate) <= budget.availableTokens) {
            state.retryAboveTokens = calibrated(estimate) + Math.ceil(budget.triggerTokens * 0.1);
            return sendUncompacted(undefined);
          }
          result =
            calibrated(error.result.tokensAfter) > budget.availableTokens
              ? await clipAndRetry(calibrated(error.result.tokensAfter), error)
              : (error.result as CompressResult<ModelMessage>);
        } else {
          // A compaction bug must not cost the user a call the window can still take.
          if (calibrated(estimate) > budget.availableTokens)
            throw tooBig(calibrated(estimate), error);
          const reason = error instanceof Error ? error.message : String(error);
          return sendUncompacted(`compaction failed: ${reason}`);
        }
      }

      if (result.strategy === 'none') {
        // The compressor found it already fits its (wider) budget: nothing was removed.
        state.retryAboveTokens = calibrated(estimate) + Math.ceil(budget.triggerTokens * 0.1);
        return sendUncompacted(undefined);
      }
      let compactedPrompt = toProviderPrompt(result.messages, originals);
      let sentEstimate = counter.countMessages(compactedPrompt as never, { tools });
      if (calibrated(sentEstimate) > budget.availableTokens && clipped === undefined) {
        result = await clipAndRetry(calibrated(sentEstimate), undefined);
        compactedPrompt = toProviderPrompt(result.messages, originals);
        sentEstimate = counter.countMessages(compactedPrompt as never, { tools });
      }
      if (calibrated(sentEstimate) > budget.availableTokens) {
        throw tooBig(calibrated(sentEstimate));
      }
      const recorded = await tracker.recordCompaction(
        state,
        result as unknown as Parameters<typeof tracker.recordCompaction>[1],
        {
          coveredRawCount: prompt.length,
          compacted: result.messages,
          prefixFingerprint: fingerprintMessages(prompt),
          coveredRaw: prompt.slice(),
          coveredRawTokens:
            (coveredRawTokens ?? 0) +
            sumMessageTokens(counter, prompt.slice(coveredRawTokens === undefined ? 0 : spliceAt)),
        },
        {
          // The store's `tokensBefore`/`tokensAfter` are the compressor's counts (uncalibrated, of
          // what it compressed); these are the request as `providerMetadata.baton` reports it.
          requestTokensBefore: calibrated(estimate),
          requestTokensAfter: calibrated(sentEstimate),
          calibrationRatio: round(ratio),
          model: modelKey,
          calibration: calibrate ? calibration.snapshot() : {},
          ...(clipped === undefined
            ? {}
            : {
                clippedToolOutputs: clipped.clippedOutputs,
                omittedToolTokens: calibrated(clipped.omittedTokens),
              }),
        },
      );
      // A result still over the trigger (a large head or latest turn) must not compact again next step.
      state.retryAboveTokens =
        calibrated(sentEstimate) > budget.triggerTokens
          ? calibrated(sentEstimate) + Math.ceil(budget.triggerTokens * 0.1)
          : undefined;
      // On a lost race the state now holds the winner's compaction, which later calls splice onto;
      // this call still sends its own result.
      const childSessionId = recorded === 'conflict' ? state.headId : recorded;
      compactedPrompts.set(result.messages, compactedPrompt);
      const sent = { ...params, prompt: compactedPrompt };
      const event: MiddlewareCompactionEvent = {
        ...result.event,
        provider: model.provider,
        modelId: model.modelId,
        sessionId,
        childSessionId,
        contextWindow: budget.contextWindow,
        triggerTokens: budget.triggerTokens,
        targetTokens: budget.targetTokens,
        calibrationRatio: ratio,
        requestTokensBefore: calibrated(estimate),
        requestTokensAfter: calibrated(sentEstimate),
        clippedToolOutputs: clipped?.clippedOutputs ?? 0,
        omittedToolTokens: clipped === undefined ? 0 : calibrated(clipped.omittedTokens),
      };
      await options.onCompaction?.(event);
      return finish(sent, sentEstimate, {
        compacted: true,
        usedCompactedContext: true,
        inputTokens: calibrated(sentEstimate),
        requestTokens,
        tokensBefore: calibrated(estimate),
        tokensAfter: calibrated(sentEstimate),
        strategy: result.strategy,
        usedFallback: result.usedFallback,
        fallbackReason: result.fallbackReason ?? null,
        childSessionId: childSessionId ?? null,
        clippedToolOutputs: clipped?.clippedOutputs ?? null,
        omittedToolTokens: clipped === undefined ? null : calibrated(clipped.omittedTokens),
      });
    });
  }

  function observe(
    params: LanguageModelV4CallOptions,
    usage: LanguageModelV4Usage | undefined,
  ): CallRecord | undefined {
    const record = callRecords.get(params);
    if (record === undefined) return undefined;
    const actual = usage?.inputTokens?.total;
    if (record.calibrate && typeof actual === 'number')
      calibration.observe(record.modelKey, record.sentEstimate, actual);
    return record;
  }

  return {
    specificationVersion: 'v4',
    transformParams: (call) => transformParams({ ...call, params: recall.withTool(call.params) }),
    async wrapGenerate({ doGenerate, params, model }) {
      const result = await recall.generate({ doGenerate, params, model });
      const record = observe(params, recall.calibrationUsage(params, result.usage));
      if (record === undefined) return result;
      return {
        ...result,
        providerMetadata: { ...result.providerMetadata, baton: record.metadata },
      };
    },
    async wrapStream({ doStream, params, model }) {
      const { stream, ...rest } = await recall.stream({ doStream, params, model });
      const transformed = stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type !== 'finish') {
              controller.enqueue(part);
              return;
            }
            const record = observe(params, recall.calibrationUsage(params, part.usage));
            controller.enqueue(
              record === undefined
                ? part
                : {
                    ...part,
                    providerMetadata: { ...part.providerMetadata, baton: record.metadata },
                  },
            );
          },
        }),
      );
      return { ...rest, stream: transformed };
    },
  };
}

/** Time limit of one summariser attempt, unless `compressor.timeoutMs` says otherwise. */
const defaultSummarizerTimeoutMs = 20_000;
/** Summariser attempts in total, unless `compressor.maxAttempts` says otherwise. */
const defaultSummarizerAttempts = 2;

/** Share of the compaction target an oversized latest turn is clipped to (the rest: head, summary). */
const latestTurnShare = 0.5;

/** A result for a request that only needed its latest tool outputs clipped. */
function clipOnlyResult(
  messages: ModelMessage[],
  tokensBefore: number,
  tokensAfter: number,
): CompressResult<ModelMessage> {
  const event = {
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
  } as CompressResult<ModelMessage>['event'];
  return {
    messages,
    summary: undefined,
    strategy: 'truncate',
    usedFallback: false,
    tokensBefore,
    tokensAfter,
    tokensSaved: tokensBefore - tokensAfter,
    withinBudget: true,
    event,
  } as CompressResult<ModelMessage>;
}

/** Sum of per-message counts (memoised by the counter), without reply priming or tools. */
function sumMessageTokens(counter: TokenCounter, messages: readonly object[]): number {
  let total = 0;
  for (const message of messages) total += counter.countMessage(message as never);
  return total;
}

function modelInfo(modelId: string): ModelInfo {
  try {
    return resolveModel(modelId);
  } catch {
    return unknownModel;
  }
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function leadingSystemCount(messages: readonly { role: string }[]): number {
  let count = 0;
  while (count < messages.length && messages[count]?.role === 'system') count++;
  return count;
}

function withoutLeadingSystem<T extends { role: string }>(messages: readonly T[]): T[] {
  return messages.slice(leadingSystemCount(messages));
}

/** Identifies a conversation without a session id by its first non-system message. */
function conversationKey(prompt: LanguageModelV4Prompt): string {
  const first = leadingSystemCount(prompt);
  return fingerprintMessages(prompt, Math.min(prompt.length, first + 1));
}

function matches(compaction: CompactionState, prompt: LanguageModelV4Prompt): boolean {
  const covered = compaction.coveredRawCount;
  if (prompt.length < covered) return false;
  const known = compaction.coveredRaw;
  if (known !== undefined) {
    // The previous request's messages: comparing is mostly pointer checks, unlike hashing.
    for (let index = 0; index < covered; index++) {
      const message = prompt[index] as LanguageModelV4Message;
      if (message.role === 'system') continue;
      if (!sameMessage(message, known[index])) return false;
    }
    return true;
  }
  if (fingerprintMessages(prompt, covered) !== compaction.prefixFingerprint) return false;
  compaction.coveredRaw = prompt.slice(0, covered);
  return true;
}

/**
 * The raw message count the state's compaction replaces, when the request still starts with the
 * history it covered. Without a store, conversations sharing a key (the same first message, or an
 * edited history) keep their own compactions: the one whose prefix matches becomes current.
 */
function matchingCompaction(
  state: SessionState,
  prompt: LanguageModelV4Prompt,
): number | undefined {
  const compaction = state.compaction;
  if (compaction === undefined) return undefined;
  if (matches(compaction, prompt)) return compaction.coveredRawCount;
  if (state.headId !== undefined) return undefined;
  const index = state.otherCompactions.findIndex((other) => matches(other, prompt));
  if (index < 0) return undefined;
  const [found] = state.otherCompactions.splice(index, 1);
  if (found === undefined) return undefined;
  state.otherCompactions.unshift(compaction);
  state.compaction = found;
  return found.coveredRawCount;
}

/** The app's current system messages, the compacted history, then the raw messages after it. */
function splicedPrompt(
  prompt: LanguageModelV4Prompt,
  leadingSystem: number,
  compacted: ModelMessage[],
  spliceAt: number,
): LanguageModelV4Prompt {
  let converted = compactedPrompts.get(compacted);
  if (converted === undefined) {
    converted = toProviderPrompt(compacted);
    compactedPrompts.set(compacted, converted);
  }
  return [
    ...prompt.slice(0, leadingSystem),
    ...withoutLeadingSystem(converted),
    ...prompt.slice(spliceAt),
  ];
}
