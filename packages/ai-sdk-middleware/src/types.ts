import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type {
  CompactionEvent,
  CompressionStrategy,
  ContextCompressorOptions,
} from '@baton/compressor';
import type { TokenCounter } from '@baton/tokens';
import type { CompactionStore } from './create-session-tracker.js';
import type { RecallLoopOptions } from './recall-loop.js';

export interface CompactionMiddlewareOptions {
  /**
   * Window of the wrapped model in tokens (input + output). Default: `resolveModel(model.modelId)`
   * from `@baton/tokens` (32,768 for a model it does not know).
   */
  contextWindow?: number;
  /**
   * When to compact. A fraction in (0, 1] of the input the window allows
   * (`contextWindow - reservedOutputTokens`), or, above 1, an absolute token count. The request's
   * input tokens (prompt + tool definitions, calibrated) are compared against it. Default `0.8`.
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
   * Token counter. Default: `createTokenCounter({ model: model.modelId })`: exact for models whose
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
   * Further `@baton/compressor` options (retries, timeouts, preserved topics, ...). Default:
   * `{ timeoutMs: 20_000, maxAttempts: 2 }` (a hung summariser must not hold the user's call for
   * minutes); what you pass is merged over it.
   */
  compressor?: Omit<
    ContextCompressorOptions,
    'summarizer' | 'counter' | 'strategy' | 'protectLastNTokens' | 'summaryTargetTokens'
  >;
  /**
   * Correct estimates with the provider's reported input tokens (per model). `'auto'` calibrates only
   * when the counter is not exact. Default `'auto'`.
   */
  calibrate?: boolean | 'auto';
  /**
   * A `@baton/sessions` store. With it, raw messages and every compaction are persisted (lineage) and
   * a new process resumes from the compacted context. Default: none (state kept in memory only).
   */
  store?: CompactionStore;
  /**
   * Replace secrets (API keys, tokens, passwords) with redaction markers in everything written to
   * `store`. A process that resumes from the store then sends the markers, not the secrets.
   * Default `true`.
   */
  redactStoredMessages?: boolean;
  /** The conversation's session id (the lineage root in `store`). Default: none. */
  sessionId?: string;
  /** Derives the session id per call (wins over `sessionId`). Default: none. */
  getSessionId?: (params: LanguageModelV4CallOptions) => string | undefined;
  /**
   * Let the model read back what compaction removed: adds a recall tool (`baton_recall`) to every
   * call and runs the model's calls to it inside the middleware, against `store` (see README,
   * "Recall for the model"). `true` takes the defaults of `RecallLoopOptions`. Needs `store`.
   * Default `false`.
   */
  recall?: boolean | RecallLoopOptions;
  /** Called (and awaited) after every compaction, before the provider call; what it throws fails the call. Default: none. */
  onCompaction?: (event: MiddlewareCompactionEvent) => void | PromiseLike<void>;
}

/** What `onCompaction` receives: the compressor's event plus the middleware's view of the call. */
export interface MiddlewareCompactionEvent extends CompactionEvent {
  /** `provider` and `modelId` of the wrapped model. */
  provider: string;
  modelId: string;
  /** The session id in use, or undefined. */
  sessionId: string | undefined;
  /** The store session now holding the compacted history, or undefined without a store. */
  childSessionId: string | undefined;
  contextWindow: number;
  triggerTokens: number;
  targetTokens: number;
  /** Provider tokens per counted token for this model (1 when not calibrated). */
  calibrationRatio: number;
  /** Input tokens of the request (prompt + tools), calibrated, before and after. */
  requestTokensBefore: number;
  requestTokensAfter: number;
  /** Tool outputs of the latest turn clipped to make the request fit the window (usually 0). */
  clippedToolOutputs: number;
  /** Tokens those clips removed (calibrated). */
  omittedToolTokens: number;
}

/** `providerMetadata.baton` on every result (and the `finish` part of every stream). */
export interface BatonProviderMetadata {
  [key: string]: string | number | boolean | null;
  /** True when this call compacted the history. */
  compacted: boolean;
  /** True when the prompt sent was built on a compaction (this call's or an earlier one). */
  usedCompactedContext: boolean;
  /** Input tokens of the prompt sent (prompt + tools), as counted and calibrated. */
  inputTokens: number;
  /** Input tokens of the app's uncompacted request, as counted and calibrated. */
  requestTokens: number;
  triggerTokens: number;
  contextWindow: number;
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
   * `[Baton: N tokens of this tool output omitted]` marker) because the request could not fit the
   * window otherwise, and the tokens removed; null when nothing was clipped.
   */
  clippedToolOutputs: number | null;
  omittedToolTokens: number | null;
}
