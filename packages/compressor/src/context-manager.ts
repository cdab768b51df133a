import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  createTokenCounter,
  describeValue,
  InvalidInputError,
  type ModelInfo,
  resolveModel,
  type TokenCounter,
  unknownModel,
} from '@baton/tokens';
import {
  type BackgroundCompaction,
  backgroundStillValid,
  discardBackground,
  startBackgroundCompaction,
  waitForBackground,
} from './background-compaction.js';
import { resolveRecordKey } from './baton-insert.js';
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
import { contentFingerprint, fingerprintMessages } from './fingerprint-messages.js';
import { conversationKey, matchingCompaction, splicedMessages } from './matching-compaction.js';
import { type Budget, resolveBudget } from './resolve-budget.js';
import { sealHash } from './seal-hash.js';
import { storedFingerprint } from './stored-fingerprint.js';

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

/** One `prepare` call as resolved: the conversation, its counter, budget and calibration ratio. */
interface CallContext {
  /**
   * The messages as they were when `prepare` was called (a copy): the app may append to its array
   * while the call waits for its turn or for the summariser, and what is counted, compacted and
   * recorded as covered must be what was passed.
   */
  messages: ModelMessage[];
  /**
   * The caller's array itself, returned as the result when nothing changes and the array still
   * holds what was passed.
   */
  input: ModelMessage[];
  calibrationKey: string;
  counter: TokenCounter;
  calibrate: boolean;
  budget: Budget;
  sessionId: string | undefined;
  key: string;
  tools: PrepareOptions['tools'];
  abortSignal: PrepareOptions['abortSignal'];
  /** Calibration ratio applied to estimates (1 until the conversation's state was read). */
  ratio: number;
}

/** Counts of one request: what would be sent, and the app's full request (calibrated). */
interface RequestCounts {
  estimate: number;
  /** Counted tokens of the raw messages the current compaction covers, when one applies. */
  coveredRawTokens: number | undefined;
  requestTokens: number;
}

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
  // Whole-content hashes and rewrite recipes are stored only under a record key the app keeps:
  // sealed by it, they tell nothing about a redacted secret to someone who reads the store.
  const recordKey = options.compressor?.recordKey;
  const sealKey = recordKey === undefined ? undefined : resolveRecordKey(recordKey);
  const tracker = createSessionTracker(options.store, {
    redact: options.redactStoredMessages ?? true,
    sealKey,
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

  /** What one `prepare` call resolved before it takes the conversation's state. */
  function resolveCall(input: readonly ModelMessage[], call: PrepareOptions): CallContext {
    if (!Array.isArray(input)) {
      throw new InvalidInputError({ path: 'messages', message: 'must be an array of messages' });
    }
    const messages = input.slice() as ModelMessage[];
    const model = call.model ?? options.model;
    const info = modelInfo(model);
    const counter = counterFor(model);
    const sessionId = call.sessionId ?? options.sessionId;
    return {
      messages,
      input: input as ModelMessage[],
      calibrationKey: call.calibrationKey ?? model ?? '',
      counter,
      calibrate: calibrateOption === 'auto' ? !counter.exact : calibrateOption,
      budget: resolveBudget({
        contextWindow: options.contextWindow ?? info.contextWindow,
        requestedOutputTokens: call.maxOutputTokens,
        reservedOutputTokens: options.reservedOutputTokens,
        modelMaxOutputTokens: info.maxOutputTokens,
        threshold,
        targetRatio,
        protectLastNTokens: options.protectLastNTokens,
        summaryTargetTokens: options.summaryTargetTokens,
      }),
      sessionId,
      key:
        sessionId === undefined ? `anonymous:${conversationKey(messages)}` : `session:${sessionId}`,
      tools: call.tools,
      abortSignal: call.abortSignal,
      ratio: 1,
    };
  }

  async function prepare(
    input: readonly ModelMessage[],
    call: PrepareOptions = {},
  ): Promise<PreparedContext> {
    const context = resolveCall(input, call);
    return tracker.withState(context.key, context.sessionId, (state) =>
      prepareWithState(state, context),
    );
  }

  async function prepareWithState(
    state: SessionState,
    context: CallContext,
  ): Promise<PreparedContext> {
    const { messages, counter, budget, calibrate, calibrationKey, tools } = context;
    // A ratio stored with the lineage's last compaction carries calibration over a restart.
    const storedRatio = state.storedCalibration?.[calibrationKey];
    if (calibrate && storedRatio !== undefined) calibration.seed(calibrationKey, storedRatio);
    const ratio = calibrate ? calibration.ratio(calibrationKey) : 1;
    const call: CallContext = { ...context, ratio };
    const calibrated = (tokens: number): number => Math.ceil(tokens * ratio);

    const spliceAt = await syncWithStore(state, messages);
    const compacted = spliceAt === undefined ? undefined : state.compaction?.compacted;
    const view =
      compacted === undefined || spliceAt === undefined
        ? messages
        : splicedMessages(messages, compacted, spliceAt);
    const counts = countRequest(state, call, view, compacted === undefined ? undefined : spliceAt);
    const { estimate } = counts;
    const unchanged = (failure: string | undefined): PreparedContext =>
      finish(call, view === messages ? unchangedInput(context) : view, estimate, {
        ...noCompaction,
        usedCompactedContext: compacted !== undefined,
        inputTokens: calibrated(estimate),
        requestTokens: counts.requestTokens,
        ...(failure === undefined ? {} : { usedFallback: true, fallbackReason: failure }),
      });

    dropStaleBackground(state, messages);
    const backingOff =
      state.retryAboveTokens !== undefined &&
      calibrated(estimate) <= state.retryAboveTokens &&
      calibrated(estimate) <= budget.availableTokens;
    if (calibrated(estimate) <= budget.triggerTokens || backingOff) {
      if (!backingOff) maybeStartBackground(state, call, view, estimate);
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
      context.abortSignal,
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
        abortSignal: call.abortSignal,
      }));
    if (outcome.kind === 'unchanged') {
      if (outcome.backOff) backOff(state, calibrated(estimate), budget);
      return unchanged(outcome.failure);
    }
    return recordOutcome(state, call, outcome, {
      ...counts,
      spliceAt,
      fromBackground: swapped !== undefined,
    });
  }

  /** The prepared call, remembered for `observeUsage`. */
  function finish(
    call: CallContext,
    sent: ModelMessage[],
    estimate: number,
    report: CompactionReport,
    event?: ContextManagerEvent,
  ): PreparedContext {
    const prepared: PreparedContext = {
      messages: sent,
      report: {
        triggerTokens: call.budget.triggerTokens,
        contextWindow: call.budget.contextWindow,
        availableTokens: call.budget.availableTokens,
        calibrationRatio: round(call.ratio),
        exactCount: call.counter.exact,
        sessionId: call.sessionId ?? null,
        ...report,
      },
      event,
    };
    usage.set(prepared, { key: call.calibrationKey, estimate, calibrate: call.calibrate });
    return prepared;
  }

  /**
   * Counts of what would be sent (`view`) and of the app's full request, the latter incrementally:
   * covered messages were counted once already.
   */
  function countRequest(
    state: SessionState,
    call: CallContext,
    view: ModelMessage[],
    spliceAt: number | undefined,
  ): RequestCounts {
    const { counter, tools, messages } = call;
    const estimate = counter.countMessages(view, { tools });
    let coveredRawTokens: number | undefined;
    let requestEstimate = estimate;
    if (spliceAt !== undefined && state.compaction !== undefined) {
      coveredRawTokens = state.compaction.coveredRawTokens ??= sumMessageTokens(
        counter,
        messages.slice(0, spliceAt),
      );
      requestEstimate =
        coveredRawTokens + counter.countMessages(messages.slice(spliceAt), { tools });
    }
    return {
      estimate,
      coveredRawTokens,
      requestTokens: Math.ceil(requestEstimate * call.ratio),
    };
  }

  /** Drops a background job that can no longer be used (closed manager, changed prefix). */
  function dropStaleBackground(state: SessionState, messages: ModelMessage[]): void {
    const job = state.background;
    // A job aborted by `close` holds at best a receipt of its interrupted summary: never used.
    if (job !== undefined && closed) state.background = undefined;
    else if (job !== undefined && !backgroundStillValid(job, state.compaction, messages)) {
      state.background = undefined;
      state.backgroundWasted += discardBackground(job, hasSummarizer);
    }
  }

  /** Past the soft threshold (under the trigger): starts the conversation's background job. */
  function maybeStartBackground(
    state: SessionState,
    call: CallContext,
    view: ModelMessage[],
    estimate: number,
  ): void {
    const { budget, ratio } = call;
    const calibratedEstimate = Math.ceil(estimate * ratio);
    const soft = Math.floor(budget.triggerTokens * backgroundThreshold);
    if (!background || closed || calibratedEstimate <= soft) return;
    state.background ??= startJob(state, view, call.messages, {
      // Aim so that the result plus the growth until the trigger lands near the target,
      // never below half of it.
      targetTokens:
        Math.max(
          budget.targetTokens - (budget.triggerTokens - calibratedEstimate),
          budget.targetTokens / 2,
        ) / ratio,
      compressor: compressorFor(call.counter, budget),
      tools: call.tools,
    });
  }

  /** Records a compaction in the state and the store, and reports it. */
  async function recordOutcome(
    state: SessionState,
    call: CallContext,
    outcome: Extract<CompactRequestOutcome, { kind: 'compacted' }>,
    counts: RequestCounts & { spliceAt: number | undefined; fromBackground: boolean },
  ): Promise<PreparedContext> {
    const { messages, counter, budget, ratio, calibrate, calibrationKey } = call;
    const calibrated = (tokens: number): number => Math.ceil(tokens * ratio);
    const { estimate, coveredRawTokens, spliceAt } = counts;
    const { result, sentEstimate, clipped } = outcome;
    const clippedToolOutputs = clipped?.clippedOutputs ?? 0;
    const omittedToolTokens = clipped === undefined ? 0 : calibrated(clipped.omittedTokens);
    const recorded = await tracker.recordCompaction(
      state,
      result,
      {
        coveredRawCount: messages.length,
        compacted: result.messages,
        prefixFingerprint: storedFingerprint(fingerprintMessages(messages), sealKey),
        prefixContentHash:
          sealKey === undefined ? undefined : sealHash(contentFingerprint(messages), sealKey),
        coveredRaw: messages.slice(),
        coveredRawTokens:
          (coveredRawTokens ?? 0) +
          sumMessageTokens(counter, messages.slice(coveredRawTokens === undefined ? 0 : spliceAt)),
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
      sessionId: call.sessionId,
      childSessionId,
      contextWindow: budget.contextWindow,
      triggerTokens: budget.triggerTokens,
      targetTokens: budget.targetTokens,
      calibrationRatio: ratio,
      requestTokensBefore: calibrated(estimate),
      requestTokensAfter: calibrated(sentEstimate),
      clippedToolOutputs,
      omittedToolTokens,
      fromBackground: counts.fromBackground,
      backgroundWasted: state.backgroundWasted,
    };
    state.backgroundWasted = 0;
    const report: CompactionReport = {
      compacted: true,
      usedCompactedContext: true,
      inputTokens: calibrated(sentEstimate),
      requestTokens: counts.requestTokens,
      tokensBefore: calibrated(estimate),
      tokensAfter: calibrated(sentEstimate),
      strategy: result.strategy,
      usedFallback: result.usedFallback,
      fallbackReason: result.fallbackReason ?? null,
      childSessionId: childSessionId ?? null,
      clippedToolOutputs: clipped?.clippedOutputs ?? null,
      omittedToolTokens: clipped === undefined ? null : omittedToolTokens,
    };
    return finish(call, result.messages, sentEstimate, report, event);
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
    let spliceAt = matchingCompaction(state, messages, sealKey);
    if (spliceAt !== undefined && tracker.systemMessagesMoved(state, messages, spliceAt)) {
      spliceAt = undefined;
    }
    const branched = await tracker.branchIfDiverged(
      state,
      messages,
      state.compaction !== undefined && spliceAt === undefined,
    );
    if (branched === undefined) {
      await tracker.persistRaw(state, messages);
      if (spliceAt !== undefined) tracker.restoreVerbatim(state, messages, spliceAt);
      return spliceAt;
    }
    const branchedAt = matchingCompaction(state, messages, sealKey);
    if (branchedAt !== undefined) tracker.restoreVerbatim(state, messages, branchedAt);
    return branchedAt;
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

/**
 * The caller's array when it still holds exactly the messages the call counted, else the call's
 * snapshot: the app may have appended to (or trimmed, or edited) its array while the call waited,
 * and a message the call did not count must not be sent with it.
 */
function unchangedInput(context: CallContext): ModelMessage[] {
  const { input, messages } = context;
  if (input.length !== messages.length) return messages;
  for (let index = 0; index < messages.length; index++) {
    if (input[index] !== messages[index]) return messages;
  }
  return input;
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
