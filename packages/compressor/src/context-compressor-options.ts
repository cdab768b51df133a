import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CountMessagesOptions, TokenCounter } from '@baton/tokens';
import type { LanguageModel } from 'ai';
import type { CompressionStrategy } from './types.js';

/** How much the summary keeps. */
export type SummaryDetail = 'brief' | 'concise' | 'detailed';

/** One request to the summariser, as a function summariser receives it. */
export interface SummarizerRequest {
  /** System instructions (the summary rules). Empty in cache-friendly mode, where they ride in the last message. */
  instructions: string;
  /**
   * The messages to send. Default mode: one user message holding the redacted middle as delimited
   * data. Cache-friendly mode: the conversation prefix unchanged, then one instruction message.
   */
  messages: ModelMessage[];
  /** Text of the last message of `messages` (the request proper). */
  prompt: string;
  mode: 'delimited' | 'cache-friendly';
  /** Tokens the summary may use. */
  targetTokens: number;
  /** Output cap to give the model (the target plus headroom). */
  maxOutputTokens: number;
  /**
   * Exact tokens of the request as sent (`instructions` as a system message, then `messages`), by
   * the compressor's counter; never above `summarizerInputBudget`.
   */
  inputTokens: number;
  /** An earlier handoff (from the middle, or from the previous chunk) the summary must update. */
  previousSummary: string | undefined;
  /** 0-based chunk number when the middle is summarised in several requests. */
  chunkIndex: number;
  chunkCount: number;
  /** 1-based attempt number (retries included). */
  attempt: number;
  /** Fires on timeout or when the caller aborts. */
  abortSignal: AbortSignal;
}

/** A summariser written by hand: returns the summary text (the sections as markdown headings). */
export type SummarizerFunction = (request: SummarizerRequest) => Promise<string>;

export interface ContextCompressorOptions {
  /**
   * Writes summaries: an AI SDK `LanguageModel` (called through `generateText` from `ai`, loaded
   * lazily) or a function. Default: none (`auto` then goes mask -> receipt, flagged as a fallback;
   * `summarize` throws `InvalidInputError`).
   */
  summarizer?: LanguageModel | SummarizerFunction;
  /** Name recorded in `event.summarizerModel` for a function summariser. Default: `'custom'`. */
  summarizerName?: string;
  /** Token counter. Default: an o200k counter from `@baton/tokens`, created on first use. */
  counter?: TokenCounter;
  /**
   * Tokens at the end of the conversation kept verbatim. Default 20,000. Shrinks, when the budget is
   * small, down to the latest user ask + the latest assistant reply and any trailing tool call when
   * they follow that ask (a tool round trip before the ask is not kept).
   */
  protectLastNTokens?: number;
  /**
   * Leading messages kept verbatim (snapped forward so no tool call is split from its result).
   * Default: the leading system messages, everything up to the first user message, and the reply to
   * it when that reply is plain text or its tool results are small (<= 10 % of `targetTokens`).
   */
  protectFirstN?: number;
  /** Tokens the summary may use (less when the budget is tight). Default 750. */
  summaryTargetTokens?: number;
  /** Default strategy of `compress`. Default `'auto'`. */
  strategy?: CompressionStrategy;
  /** Summariser attempts in total (1 + retries). Default 3. */
  maxAttempts?: number;
  /** Delay before the first retry, doubled for each further retry (or the provider's retry-after). Default 1,000 ms. */
  retryDelayMs?: number;
  /** Time limit of one summariser attempt. Default 60,000 ms. */
  timeoutMs?: number;
  /**
   * Time limit of the whole summarise stage (every chunk, attempt and backoff wait). When it runs
   * out, no further attempt starts, a retry wait (or a provider's retry-after) longer than the time
   * left is not waited, an attempt in flight is cut at the deadline, and `compress` falls back to
   * the receipt. Default 120,000 ms.
   */
  deadlineMs?: number;
  /** Aborts every `compress` call of this compressor (falls back to the receipt). Default: none. */
  abortSignal?: AbortSignal;
  /** Topics the summary must keep in detail (e.g. `['database schema', 'deploy steps']`). Default: none. */
  preserveTopics?: readonly string[];
  /** How much detail the summary keeps. Default `'concise'`. */
  detail?: SummaryDetail;
  /**
   * Send the conversation prefix unchanged plus one instruction message, so a summariser that is the
   * very model serving the conversation reuses its prompt cache. Only for that case: the prefix goes
   * unredacted (that provider has already seen it). Default false (the middle goes as redacted,
   * delimited data).
   */
  cacheFriendly?: boolean;
  /**
   * Let `mask` also replace large tool-call inputs (>= 600 characters) between the head and the
   * tail with `{ maskedByBaton: '<one line>' }`. Off by default: that input no longer matches the
   * tool's input schema, which some providers check on replay. Default false.
   */
  maskToolInputs?: boolean;
  /**
   * Largest summariser request, in tokens (instructions, previous summary and data). A bigger middle
   * is summarised in chunks, each updating the summary of the previous ones. Default 100,000.
   */
  summarizerInputBudget?: number;
  /**
   * Smallest saving, as a share of `tokensBefore`, that counts as a compaction; below it `compress`
   * throws `CompactionNotEffectiveError` instead of returning a result that would trigger again at
   * once. Default 0.1.
   */
  minimumSavingsRatio?: number;
  /**
   * Key of the MAC in the `[Baton record …]` line that marks Baton's inserts when provider options
   * are lost (an OpenAI Chat round trip). Set it (a secret string or bytes, at least 16 bytes, kept
   * like any other secret) when histories without provider options must be recognised across restarts or by other
   * processes. Default: a random key per process; a record written by another process or before a
   * restart then does not verify, and such an insert, stripped of its provider options, reads as a
   * user message. With a store, the context manager also keys by it the hashes it stores to check a
   * history after a restart: with the key set, a restarted process checks every character of the
   * compacted history (not samples) and sends rewritten tool outputs (masked, clipped) rebuilt from
   * the app's messages as the compacting process sent them; without it, samples and stored forms.
   */
  recordKey?: string | Uint8Array;
  /**
   * Say in every handoff and receipt that the replaced messages can be read back, with the span
   * (message positions in the history given to `compress`) and the tool to call. Set it only when the
   * model has that tool (`@baton/ai-sdk-middleware` sets it with its `recall` option); without it
   * nothing is promised. Default: none.
   */
  recall?: { toolName: string };
}

export interface CompressOptions {
  /**
   * Budget mode: the budget the result must fit, in tokens (overhead and `tools` included).
   * Default: none, which is protect mode: the head and the last `protectLastNTokens` stay
   * verbatim and the whole middle between them is replaced by one handoff of at most
   * `summaryTargetTokens` (see the README, "Two modes").
   */
  targetTokens?: number;
  /** Overrides the compressor's strategy for this call. Default: the compressor's (`'auto'`). */
  strategy?: CompressionStrategy;
  /** Aborts this call's summariser requests (falls back to the receipt). */
  abortSignal?: AbortSignal;
  /** Tool definitions sent with the conversation; their schemas count against the budget. Default: none. */
  tools?: CountMessagesOptions['tools'];
}
