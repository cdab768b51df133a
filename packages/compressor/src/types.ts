import type { TokenCounter } from '@baton/tokens';
import type { SpanFacts } from './verify-summary.js';

/** Strategy requested by the caller. `auto`: mask, then summarise if still over budget, then receipt. */
export type CompressionStrategy = 'auto' | 'truncate' | 'mask' | 'summarize' | 'receipt';

/**
 * Strategy that was actually applied. `none`: the input was returned unchanged (see
 * `UnchangedReason`).
 */
export type AppliedStrategy = Exclude<CompressionStrategy, 'auto'> | 'none';

/**
 * How `compress` was called. `budget`: with `targetTokens`, the result must fit it. `protect`:
 * without, the head and the last `protectLastNTokens` stay verbatim and the whole middle becomes
 * one handoff of at most `summaryTargetTokens`.
 */
export type CompressMode = 'budget' | 'protect';

/**
 * Why a result is the input unchanged (`strategy: 'none'`). `within-budget`: it already fit
 * `targetTokens`. `too-short`: protect mode found nothing to compress (no message between the head
 * and the protected tail other than kept ones and Baton's own inserts, or too few tokens there for
 * a handoff of `summaryTargetTokens` to save any).
 */
export type UnchangedReason = 'within-budget' | 'too-short';

/**
 * A compaction, as the lineage store (`@baton/sessions`) records it. Plain JSON: it is stored as is.
 */
export interface CompactionEvent {
  /** The strategy whose output was returned. */
  strategy: AppliedStrategy;
  /**
   * Every stage that ran, in order (e.g. `['mask', 'summarize']`, `['mask', 'summarize', 'receipt']`,
   * or `['mask', 'receipt']` without a summariser). A stage that was skipped is not listed.
   */
  stages: AppliedStrategy[];
  /** Indexes (into the input) of messages that are not in the output at all. */
  removedMessageIndexes: number[];
  /** Indexes of messages kept but with tool outputs masked. */
  maskedMessageIndexes: number[];
  /** Number of leading input messages kept verbatim as the head. */
  headMessageCount: number;
  /**
   * True when the first exchange (first user message and the reply to it) could not fit with the
   * protected minimum and joined the middle: the head is then only the leading system messages
   * (`headMessageCount` counts them).
   */
  headDemoted: boolean;
  /** Index (into the input) of the first message of the protected tail. */
  tailStartIndex: number;
  /** The summary or receipt text inserted in place of the middle (redacted), if any. */
  summary: string | undefined;
  /** Model id of the summariser, when an LLM was called. */
  summarizerModel: string | undefined;
  usedFallback: boolean;
  fallbackReason: string | undefined;
  /** Summariser calls made (retries included). */
  summarizerAttempts: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Wall time of the whole `compress` call, in ms. */
  durationMs: number;
  /** Time spent waiting on the summariser, in ms. */
  summarizerDurationMs: number;
  /** ISO 8601 timestamp of when the compaction finished. */
  createdAt: string;
  /**
   * The budget the call was given. In protect mode (no budget) `tokensBefore`: a compaction never
   * returns a longer history.
   */
  targetTokens: number;
  /** How `compress` was called (absent in events recorded before protect mode existed). */
  mode?: CompressMode;
  /** Set when the input was returned unchanged (`strategy: 'none'`): why. */
  unchangedReason?: UnchangedReason;
  /** Whether `tokensAfter <= targetTokens`. */
  withinBudget: boolean;
  /** Why the result is over budget (only `mask` can be), in words; absent when within budget. */
  shortfallReason?: string;
  /** Index (into the input) of the latest user message, kept verbatim though it sits in the middle. */
  pinnedMessageIndex: number | undefined;
  /**
   * When an LLM summary was used: the share (0 to 1) of the span's deterministic facts (asks, files,
   * error lines, tool names, open work, as the receipt extractor finds them) the model's reply held
   * before Baton appended the missing ones. 1 when the span has none. Absent otherwise.
   */
  factCoverage?: number;
  /** When an LLM summary was used: the facts Baton appended (bounded), per class. Absent otherwise. */
  addedFacts?: SpanFacts;
}

/** What `compress` returns. */
export interface CompressResult<Message = unknown> {
  /** The history to send next: head, the compressed middle, tail. A new array; the input is untouched. */
  messages: Message[];
  /** The summary or receipt that replaced the middle (redacted), or undefined. */
  summary: string | undefined;
  strategy: AppliedStrategy;
  /** How `compress` was called: `budget` (with `targetTokens`) or `protect` (without). */
  mode: CompressMode;
  /** Set when `messages` is the input unchanged (`strategy: 'none'`): why. */
  unchangedReason?: UnchangedReason;
  usedFallback: boolean;
  fallbackReason?: string;
  tokensBefore: number;
  tokensAfter: number;
  tokensSaved: number;
  /**
   * Whether `tokensAfter <= targetTokens`. Always true for `truncate`, `summarize`, `receipt` and
   * `auto` (they throw `ContextBudgetError` otherwise); `mask` can fall short when masking every old
   * tool output is not enough, and then says so here rather than removing anything.
   */
  withinBudget: boolean;
  /**
   * When `withinBudget` is false: why. `mask` only replaces tool outputs (and large tool inputs);
   * a history whose bulk is user or assistant text stays over budget, and this says so.
   */
  shortfallReason?: string;
  event: CompactionEvent;
}

export type { TokenCounter };
