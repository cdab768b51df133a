import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CountMessagesOptions, TokenCounter } from '@baton/tokens';
import type { ContextCompressorOptions } from './context-compressor-options.js';
import type { CompactionStore } from './create-session-tracker.js';
import type { CompactionEvent, CompressionStrategy } from './types.js';

/** Trigger, as a fraction of the input the window allows, unless `threshold` says otherwise. */
export const defaultThreshold = 0.8;
/** Compaction target, as a fraction of the trigger, unless `targetRatio` says otherwise. */
export const defaultTargetRatio = 0.6;
/** Time limit of one summariser attempt, unless `compressor.timeoutMs` says otherwise. */
export const defaultSummarizerTimeoutMs = 20_000;
/** Summariser attempts in total, unless `compressor.maxAttempts` says otherwise. */
export const defaultSummarizerAttempts = 2;
/** Where background compaction starts, as a fraction of the trigger, unless `backgroundThreshold` says otherwise. */
export const defaultBackgroundThreshold = 0.7;

export interface ContextManagerOptions {
  /**
   * Model id: picks the token counter (when `counter` is not given) and the window (when
   * `contextWindow` is not given) through `@baton/tokens`. `prepare({ model })` overrides it per
   * call. Default: none (the heuristic counter, a 32,768-token window).
   */
  model?: string;
  /**
   * Window of the model in tokens (input + output). Default: `resolveModel(model)` from
   * `@baton/tokens` (32,768 for a model it does not know).
   */
  contextWindow?: number;
  /**
   * When to compact. A fraction in (0, 1] of the input the window allows
   * (`contextWindow - reservedOutputTokens`), or, above 1, an absolute token count. The request's
   * input tokens (messages + tool definitions, calibrated) are compared against it. Default `0.8`.
   */
  threshold?: number;
  /**
   * How far to compact, as a fraction (0, 1) of the trigger point. Default `0.6`: a compaction leaves
   * 40 % of the trigger as headroom so the next steps of a tool loop do not compact again at once.
   */
  targetRatio?: number;
  /**
   * Output tokens kept free when the call sets no `maxOutputTokens` (a call's `maxOutputTokens` always
   * wins). Default: an eighth of the window, at most the model's own output limit.
   */
  reservedOutputTokens?: number;
  /** Model (or function) writing the summary of the middle. Default: none (mask, then the receipt). */
  summarizer?: ContextCompressorOptions['summarizer'];
  /**
   * Token counter. Default: `createTokenCounter({ model })`, one per model id: exact for models whose
   * tokenizer is known, the calibrated heuristic otherwise.
   */
  counter?: TokenCounter;
  /** Compression strategy. Default `'auto'` (mask tool outputs, then summarise, then the receipt). */
  strategy?: CompressionStrategy;
  /** Recent tokens kept verbatim. Default: 40 % of the compaction target, at most 20,000. */
  protectLastNTokens?: number;
  /** Tokens the summary may use. Default: the compressor's (750, less when the budget is tight). */
  summaryTargetTokens?: number;
  /**
   * Further `createContextCompressor` options (retries, timeouts, preserved topics, ...). Default:
   * `{ timeoutMs: 20_000, maxAttempts: 2 }` (a hung summariser must not hold the user's call for
   * minutes); what you pass is merged over it.
   */
  compressor?: Omit<
    ContextCompressorOptions,
    'summarizer' | 'counter' | 'strategy' | 'protectLastNTokens' | 'summaryTargetTokens'
  >;
  /**
   * Correct estimates with the provider's reported input tokens (`observeUsage`), per model.
   * `'auto'` calibrates only when the counter is not exact. Default `'auto'`.
   */
  calibrate?: boolean | 'auto';
  /**
   * A lineage store (a `SessionStore` from `@baton/sessions`, or anything with the same methods).
   * With it, raw messages and every compaction are persisted and a new process resumes from the
   * compacted context. Default: none (state kept in memory only).
   */
  store?: CompactionStore;
  /**
   * Replace secrets (API keys, tokens, passwords) with redaction markers in the messages and
   * compactions written to `store`. A process that resumes from the store then sends the markers, not
   * the secrets. Protocol fields are stored as given, because they must reach the provider unchanged
   * (`redactMessages` in `@baton/fallback` lists them): message and part `providerOptions`, tool-call
   * ids and tool names, signatures, binary file data. Keep credentials out of those fields; a
   * credential split over two fields of a tool input is not recognised in either half.
   * Default `true`.
   */
  redactStoredMessages?: boolean;
  /** The conversation's session id (the lineage root in `store`); `prepare({ sessionId })` wins. Default: none. */
  sessionId?: string;
  /**
   * Compact off the critical path: once a request passes `backgroundThreshold` of the trigger, the
   * stable history is compressed concurrently and `prepare` returns at once; at the trigger the
   * prepared compaction is swapped in when the history it covered is unchanged (else compaction
   * runs synchronously, as without this option). Default `false`: a background summary costs a
   * summariser call that is wasted when the history is edited or the conversation ends before the
   * trigger, and the result sits further from the trigger than a synchronous one; turn it on where
   * latency at the compacting step matters more than that.
   */
  background?: boolean;
  /** Fraction (0, 1) of the trigger at which background compaction starts. Default `0.7`. */
  backgroundThreshold?: number;
}

/** Per call: what else goes with the messages. */
export interface PrepareOptions {
  /** Tool definitions sent with the messages; their schemas count against the budget. Default: none. */
  tools?: CountMessagesOptions['tools'];
  /** The call's output limit: reserved instead of `reservedOutputTokens`. Default: none. */
  maxOutputTokens?: number;
  /** Aborts this call's compaction (a background job is not tied to it). Default: none. */
  abortSignal?: AbortSignal;
  /** The conversation's session id. Default: the manager's `sessionId`. */
  sessionId?: string;
  /** Model id for this call (counter, window). Default: the manager's `model`. */
  model?: string;
  /** Key of this model's calibration (and of the ratio stored with the lineage). Default: `model`. */
  calibrationKey?: string;
}

/** What `prepare` reports about a call (plain JSON: adapters hand it to the app as is). */
export interface ContextReport {
  /** True when this call compacted the history. */
  compacted: boolean;
  /** True when the messages to send are built on a compaction (this call's or an earlier one). */
  usedCompactedContext: boolean;
  /** Input tokens of the messages to send (messages + tools), as counted and calibrated. */
  inputTokens: number;
  /** Input tokens of the app's uncompacted request, as counted and calibrated. */
  requestTokens: number;
  triggerTokens: number;
  contextWindow: number;
  /**
   * Input tokens the window takes with this call's output reserved: what was sent plus anything an
   * adapter appends within the call (recall results) must stay under it.
   */
  availableTokens: number;
  calibrationRatio: number;
  exactCount: boolean;
  /** The rest describe this call's compaction, or are null. */
  tokensBefore: number | null;
  tokensAfter: number | null;
  strategy: string | null;
  usedFallback: boolean | null;
  fallbackReason: string | null;
  sessionId: string | null;
  childSessionId: string | null;
  /**
   * Tool outputs of the latest turn clipped (start and end kept around a
   * `[Baton: N tokens omitted]` marker, see `clipMiddle`) because the request could not fit the
   * window otherwise, and the tokens removed; null when nothing was clipped.
   */
  clippedToolOutputs: number | null;
  omittedToolTokens: number | null;
}

/** A compaction, as `prepare` reports it: the compressor's event plus the manager's view of the call. */
export interface ContextManagerEvent extends CompactionEvent {
  /** The session id in use, or undefined. */
  sessionId: string | undefined;
  /** The store session now holding the compacted history, or undefined without a store. */
  childSessionId: string | undefined;
  contextWindow: number;
  triggerTokens: number;
  targetTokens: number;
  /** Provider tokens per counted token for this model (1 when not calibrated). */
  calibrationRatio: number;
  /** Input tokens of the request (messages + tools), calibrated, before and after. */
  requestTokensBefore: number;
  requestTokensAfter: number;
  /** Tool outputs of the latest turn clipped to make the request fit the window (usually 0). */
  clippedToolOutputs: number;
  /** Tokens those clips removed (calibrated). */
  omittedToolTokens: number;
  /** True when the compaction was prepared in the background and swapped in. */
  fromBackground: boolean;
  /**
   * Summariser calls of background jobs thrown away since the previous compaction of this
   * conversation (their history was edited, or another compaction overtook them). An aborted job
   * still running counts one call.
   */
  backgroundWasted: number;
}

/** What `prepare` returns. */
export interface PreparedContext {
  /**
   * The messages to send. The very array passed to `prepare` when nothing changed (and the app did
   * not change that array while the call waited: then a copy of it as it was when passed);
   * otherwise a new one (the latest compaction, then the messages after it) whose kept messages are
   * the input's objects.
   */
  messages: ModelMessage[];
  report: ContextReport;
  /** This call's compaction, or undefined. */
  event: ContextManagerEvent | undefined;
}
