import {
  createTokenCounter,
  describeValue,
  InvalidInputError,
  type ModelInfo,
  resolveModel,
  type TokenCounter,
  unknownModel,
} from '@baton/tokens';
import type { ModelMessage } from 'ai';
import {
  type BackgroundCompaction,
  backgroundStillValid,
  discardBackground,
  startBackgroundCompaction,
  waitForBackground,
} from './background-compaction.js';
import { type CompactRequestOutcome, compactRequest } from './compact-request.js';
import { type ContextCompressor, createContextCompressor } from './context-compressor.js';
import {
  type ContextManagerEvent,
  type ContextManagerOptions,
  type ContextReport,
  defaultBackgroundThreshold,
  defaultSummarizerAttempts,
  defaultSummarizerTimeoutMs,
  defaultTargetRatio,
  defaultThreshold,
  type PreparedContext,
  type PrepareOptions,
} from './context-manager-options.js';
import { createCalibration } from './create-calibration.js';
import { createSessionTracker, type SessionState } from './create-session-tracker.js';
import { fingerprintMessages } from './fingerprint-messages.js';
import { conversationKey, matchingCompaction, splicedMessages } from './matching-compaction.js';
import { type Budget, resolveBudget } from './resolve-budget.js';

/** Keeps a long conversation within a model's window, one `prepare` call per model call. */
export interface ContextManager {
  /**
   * What to send for `messages` (the app's whole history): the messages themselves while they fit
   * under the trigger, else the latest compaction followed by the messages after it, compacting
   * again when even that is over the trigger. Raw messages and compactions go to the store.
   * Rejects with `ContextWindowExceededError` when nothing makes the request fit the window.
   */
  prepare(messages: readonly ModelMessage[], options?: PrepareOptions): Promise<PreparedContext>;
  /** Reports the provider's input tokens for a prepared call (calibrates estimates). */
  observeUsage(prepared: PreparedContext, inputTokens: number | undefined): void;
  /**
   * Aborts the background compactions still running and waits until they settled; none starts
   * afterwards. Nothing is written by them (compactions are recorded by `prepare` only), so a store
   * may be closed once this resolves. The manager still prepares calls (synchronously).
   */
  close(): Promise<void>;
}

/** What `observeUsage` needs of a prepared call. */
interface UsageRecord {
  key: string;
  /** Uncalibrated count of what was sent. */
  estimate: number;
  calibrate: boolean;
}

type CompactionReport = Omit<
  ContextReport,
  | 'triggerTokens'
  | 'contextWindow'
  | 'availableTokens'
  | 'calibrationRatio'
  | 'exactCount'
  | 'sessionId'
>;

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

/**
 * Creates a context manager: budgets, per-conversation state, store sync (raw history, lineage,
 * forks, catching up with other processes), compress/retry/clip and calibration, on `ModelMessage`s.
 * Framework adapters (the AI SDK middleware, the CLI, the demo) convert and call it.
 *
 * ```ts
 * const manager = createContextManager({ model: 'gpt-4o', summarizer });
 * const { messages } = await manager.prepare(history, { tools });
 * ```
 */
export function createContextManager(options: ContextManagerOptions = {}): ContextManager {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({ path: 'options', message: 'must be an object' });
  }
  const threshold = options.threshold ?? defaultThreshold;
  const targetRatio = options.targetRatio ?? defaultTargetRatio;
  const calibrateOption = options.calibrate ?? 'auto';
  const background = options.background ?? false;
  const backgroundThreshold = options.backgroundThreshold ?? defaultBackgroundThreshold;
  if (
    typeof backgroundThreshold !== 'number' ||
    !(backgroundThreshold > 0 && backgroundThreshold < 1)
  ) {
    throw new InvalidInputError({
      path: 'backgroundThreshold',
      message: `must be between 0 and 1 exclusive, got ${describeValue(backgroundThreshold)}`,
    });
  }
  const hasSummarizer = options.summarizer !== undefined;
  const jobs = new Set<BackgroundCompaction>();
  let closed = false;
  // Validate the options that do not depend on the model now, not on the first call.
  resolveBudget({
    contextWindow: options.contextWindow ?? 1_000_000,
    reservedOutputTokens: options.reservedOutputTokens,
    threshold,
    targetRatio,
    protectLastNTokens: options.protectLastNTokens,
    summaryTargetTokens: options.summaryTargetTokens,
  });
  const counters = new Map<string, TokenCounter>();
  const compressors = new WeakMap<TokenCounter, Map<string, ContextCompressor>>();
  const calibration = createCalibration();
  const tracker = createSessionTracker(options.store, {
    redact: options.redactStoredMessages ?? true,
  });
  const usage = new WeakMap<PreparedContext, UsageRecord>();

  function counterFor(model: string | undefined): TokenCounter {
    if (options.counter !== undefined) return options.counter;
    const key = model ?? '';
    let counter = counters.get(key);
    if (counter === undefined) {
      counter = createTokenCounter(model === undefined ? {} : { model });
      counters.set(key, counter);
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
      });
      byBudget.set(key, compressor);
    }
    return compressor;
  }

  async function prepare(
    input: readonly ModelMessage[],
    call: PrepareOptions = {},
  ): Promise<PreparedContext> {
    if (!Array.isArray(input)) {
      throw new InvalidInputError({ path: 'messages', message: 'must be an array of messages' });
    }
    const messages = input as ModelMessage[];
    const model = call.model ?? options.model;
    const calibrationKey = call.calibrationKey ?? model ?? '';
    const info = modelInfo(model);
    const counter = counterFor(model);
    const calibrate = calibrateOption === 'auto' ? !counter.exact : calibrateOption;
    const budget = resolveBudget({
      contextWindow: options.contextWindow ?? info.contextWindow,
      requestedOutputTokens: call.maxOutputTokens,
      reservedOutputTokens: options.reservedOutputTokens,
      modelMaxOutputTokens: info.maxOutputTokens,
      threshold,
      targetRatio,
      protectLastNTokens: options.protectLastNTokens,
      summaryTargetTokens: options.summaryTargetTokens,
    });
    const sessionId = call.sessionId ?? options.sessionId;
    const key =
      sessionId === undefined ? `anonymous:${conversationKey(messages)}` : `session:${sessionId}`;
    const { tools, abortSignal } = call;

    return tracker.withState(key, sessionId, async (state) => {
      // A ratio stored with the lineage's last compaction carries calibration over a restart.
      const storedRatio = state.storedCalibration?.[calibrationKey];
      if (calibrate && storedRatio !== undefined) calibration.seed(calibrationKey, storedRatio);
      const ratio = calibrate ? calibration.ratio(calibrationKey) : 1;
      const calibrated = (tokens: number): number => Math.ceil(tokens * ratio);
      const finish = (
        sent: ModelMessage[],
        estimate: number,
        report: CompactionReport,
        event?: ContextManagerEvent,
      ): PreparedContext => {
        const prepared: PreparedContext = {
          messages: sent,
          report: {
            triggerTokens: budget.triggerTokens,
            contextWindow: budget.contextWindow,
            availableTokens: budget.availableTokens,
            calibrationRatio: round(ratio),
            exactCount: counter.exact,
            sessionId: sessionId ?? null,
            ...report,
          },
          event,
        };
        usage.set(prepared, { key: calibrationKey, estimate, calibrate });
        return prepared;
      };

      const spliceAt = await syncWithStore(state, messages);
      const compacted = spliceAt === undefined ? undefined : state.compaction?.compacted;
      const view =
        compacted === undefined || spliceAt === undefined
          ? messages
          : splicedMessages(messages, compacted, spliceAt);
      const estimate = counter.countMessages(view, { tools });
      // The app's full request, counted incrementally: covered messages were counted once already.
      let coveredRawTokens: number | undefined;
      let requestEstimate = estimate;
      if (compacted !== undefined && state.compaction !== undefined) {
        coveredRawTokens = state.compaction.coveredRawTokens ??= sumMessageTokens(
          counter,
          messages.slice(0, spliceAt),
        );
        requestEstimate =
          coveredRawTokens + counter.countMessages(messages.slice(spliceAt), { tools });
      }
      const requestTokens = calibrated(requestEstimate);
      const unchanged = (failure: string | undefined): PreparedContext =>
        finish(view, estimate, {
          ...noCompaction,
          usedCompactedContext: compacted !== undefined,
          inputTokens: calibrated(estimate),
          requestTokens,
          ...(failure === undefined ? {} : { usedFallback: true, fallbackReason: failure }),
        });

      const job = state.background;
      // A job aborted by `close` holds at best a receipt of its interrupted summary: never used.
      if (job !== undefined && closed) state.background = undefined;
      else if (job !== undefined && !backgroundStillValid(job, state.compaction, messages)) {
        state.background = undefined;
        state.backgroundWasted += discardBackground(job, hasSummarizer);
      }
      const backingOff =
        state.retryAboveTokens !== undefined &&
        calibrated(estimate) <= state.retryAboveTokens &&
        calibrated(estimate) <= budget.availableTokens;
      if (calibrated(estimate) <= budget.triggerTokens || backingOff) {
        const soft = Math.floor(budget.triggerTokens * backgroundThreshold);
        if (background && !closed && !backingOff && calibrated(estimate) > soft) {
          state.background ??= startJob(state, view, messages, {
            // Aim so that the result plus the growth until the trigger lands near the target,
            // never below half of it.
            targetTokens:
              Math.max(
                budget.targetTokens - (budget.triggerTokens - calibrated(estimate)),
                budget.targetTokens / 2,
              ) / ratio,
            compressor: compressorFor(counter, budget),
            tools,
          });
        }
        return unchanged(undefined);
      }

      // Over the trigger: the compaction prepared in the background, else compress what would
      // have been sent.
      const swapped = await takeBackground(
        state,
        messages,
        estimate,
        (sent) => {
          const sentEstimate = counter.countMessages(sent, { tools });
          return calibrated(sentEstimate) <= budget.triggerTokens ? sentEstimate : undefined;
        },
        abortSignal,
      );
      const outcome: CompactRequestOutcome =
        swapped ??
        (await compactRequest({
          messages: view,
          estimate,
          budget,
          counter,
          compressor: compressorFor(counter, budget),
          ratio,
          tools,
          abortSignal,
        }));
      if (outcome.kind === 'unchanged') {
        if (outcome.backOff) backOff(state, calibrated(estimate), budget);
        return unchanged(outcome.failure);
      }
      const { result, sentEstimate, clipped } = outcome;
      const clippedToolOutputs = clipped?.clippedOutputs ?? 0;
      const omittedToolTokens = clipped === undefined ? 0 : calibrated(clipped.omittedTokens);
      const recorded = await tracker.recordCompaction(
        state,
        result,
        {
          coveredRawCount: messages.length,
          compacted: result.messages,
          prefixFingerprint: fingerprintMessages(messages),
          coveredRaw: messages.slice(),
          coveredRawTokens:
            (coveredRawTokens ?? 0) +
            sumMessageTokens(
              counter,
              messages.slice(coveredRawTokens === undefined ? 0 : spliceAt),
            ),
        },
        {
          // The store's `tokensBefore`/`tokensAfter` are the compressor's counts (uncalibrated, of
          // what it compressed); these are the request as the report gives it.
          requestTokensBefore: calibrated(estimate),
          requestTokensAfter: calibrated(sentEstimate),
          calibrationRatio: round(ratio),
          model: calibrationKey,
          calibration: calibrate ? calibration.snapshot() : {},
          ...(clipped === undefined ? {} : { clippedToolOutputs, omittedToolTokens }),
        },
      );
      // A result still over the trigger (a large head or latest turn) must not compact again next step.
      state.retryAboveTokens = undefined;
      if (calibrated(sentEstimate) > budget.triggerTokens)
        backOff(state, calibrated(sentEstimate), budget);
      // On a lost race the state now holds the winner's compaction, which later calls splice onto;
      // this call still sends its own result.
      const childSessionId = recorded === 'conflict' ? state.headId : recorded;
      const event: ContextManagerEvent = {
        ...result.event,
        sessionId,
        childSessionId,
        contextWindow: budget.contextWindow,
        triggerTokens: budget.triggerTokens,
        targetTokens: budget.targetTokens,
        calibrationRatio: ratio,
        requestTokensBefore: calibrated(estimate),
        requestTokensAfter: calibrated(sentEstimate),
        clippedToolOutputs,
        omittedToolTokens,
        fromBackground: swapped !== undefined,
        backgroundWasted: state.backgroundWasted,
      };
      state.backgroundWasted = 0;
      return finish(
        result.messages,
        sentEstimate,
        {
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
          omittedToolTokens: clipped === undefined ? null : omittedToolTokens,
        },
        event,
      );
    });
  }

  /**
   * Brings the store up to date with `messages` and returns where the latest compaction splices in.
   * An edited or regenerated history goes to a fork of the lineage, so the store never holds
   * messages the model did not get, nor a compaction of a history the compressor did not see.
   */
  async function syncWithStore(
    state: SessionState,
    messages: ModelMessage[],
  ): Promise<number | undefined> {
    // Splice point: the latest compaction replaces the first `coveredRawCount` raw messages as long
    // as the app's history still starts with them.
    const spliceAt = matchingCompaction(state, messages);
    const branched = await tracker.branchIfDiverged(
      state,
      messages,
      state.compaction !== undefined && spliceAt === undefined,
    );
    if (branched === undefined) {
      await tracker.persistRaw(state, messages);
      return spliceAt;
    }
    return matchingCompaction(state, messages);
  }

  function startJob(
    state: SessionState,
    input: ModelMessage[],
    raw: readonly ModelMessage[],
    job: { targetTokens: number; compressor: ContextCompressor; tools: PrepareOptions['tools'] },
  ): BackgroundCompaction {
    const started = startBackgroundCompaction({ ...job, input, raw, base: state.compaction });
    jobs.add(started);
    void started.done.then(() => jobs.delete(started));
    return started;
  }

  /**
   * Swaps in the conversation's background compaction (waiting for it if it still runs): its
   * result, then the messages that came after it. Undefined, with the job's summariser calls
   * counted as wasted, when it failed or the result would still be over the trigger.
   */
  async function takeBackground(
    state: SessionState,
    messages: ModelMessage[],
    estimate: number,
    fits: (sent: ModelMessage[]) => number | undefined,
    abortSignal: AbortSignal | undefined,
  ): Promise<CompactRequestOutcome | undefined> {
    const job = state.background;
    if (job === undefined) return undefined;
    // A caller giving up rejects at once; the job stays the conversation's for its next call.
    await waitForBackground(job, abortSignal);
    state.background = undefined;
    const outcome = job.outcome;
    // Aborted by `close` meanwhile: at best a receipt of an interrupted summary, never used.
    if (
      !job.controller.signal.aborted &&
      outcome !== undefined &&
      'result' in outcome &&
      outcome.result.strategy !== 'none'
    ) {
      const prepared = outcome.result;
      const sent = splicedMessages(messages, prepared.messages, job.coveredRaw.length);
      const sentEstimate = fits(sent);
      if (sentEstimate !== undefined) {
        // Figures of this request, not of the shorter history the job compressed.
        const result = {
          ...prepared,
          messages: sent,
          tokensBefore: estimate,
          tokensAfter: sentEstimate,
          tokensSaved: estimate - sentEstimate,
          event: { ...prepared.event, tokensBefore: estimate, tokensAfter: sentEstimate },
        };
        return { kind: 'compacted', result, sentEstimate, clipped: undefined };
      }
    }
    state.backgroundWasted += discardBackground(job, hasSummarizer);
    return undefined;
  }

  return {
    prepare,
    async close() {
      closed = true;
      for (const job of jobs) job.controller.abort(new Error('the context manager was closed'));
      await Promise.all([...jobs].map((job) => job.done));
    },
    observeUsage(prepared, inputTokens) {
      const record = usage.get(prepared);
      if (record === undefined || !record.calibrate || typeof inputTokens !== 'number') return;
      calibration.observe(record.key, record.estimate, inputTokens);
    },
  };
}

/** After a compaction that could not save enough: no new attempt until the request grows by 10 % of the trigger. */
function backOff(state: SessionState, tokens: number, budget: Budget): void {
  state.retryAboveTokens = tokens + Math.ceil(budget.triggerTokens * 0.1);
}

/** Sum of per-message counts (memoised by the counter), without reply priming or tools. */
function sumMessageTokens(counter: TokenCounter, messages: readonly ModelMessage[]): number {
  let total = 0;
  for (const message of messages) total += counter.countMessage(message);
  return total;
}

function modelInfo(model: string | undefined): ModelInfo {
  if (model === undefined) return unknownModel;
  try {
    return resolveModel(model);
  } catch {
    return unknownModel;
  }
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
