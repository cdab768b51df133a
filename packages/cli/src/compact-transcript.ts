import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  type AppliedStrategy,
  CompactionNotEffectiveError,
  type CompressionStrategy,
  type CompressResult,
  type ContextCompressorOptions,
  createContextCompressor,
  type ToolPairProblem,
  validateToolPairs,
} from '@baton/compressor';
import { createTokenCounter, resolveModel, type TokenCounter } from '@baton/tokens';
import { printableProblem } from './tool-call-id-text.js';

export interface CompactTranscriptOptions {
  /** Model whose tokenizer counts and whose window is the default. Default `'gpt-4o'`. */
  model?: string;
  /** Context window in tokens. Default: the model's (`resolveModel(model).contextWindow`). */
  window?: number;
  /** Tokens to compact to. Default: half the window, leaving room for the reply and the next turns. */
  target?: number;
  /** Recent tokens kept verbatim (the compressor's `protectLastNTokens`). Default: the compressor's. */
  keepLast?: number;
  /** Default `'auto'`: mask, then summarise (with a summariser), then the deterministic receipt. */
  strategy?: CompressionStrategy;
  /** LLM (or function) writing summaries. Default: none, so `auto` ends at the receipt. */
  summarizer?: ContextCompressorOptions['summarizer'];
  /** Counter to reuse across calls. Default: a new one for `model`, disposed at the end. */
  counter?: TokenCounter;
}

/** What a compaction did, in plain JSON. */
export interface CompactReport {
  messages: ModelMessage[];
  /** `none` when the transcript already fitted the target. */
  strategy: AppliedStrategy;
  stages: AppliedStrategy[];
  tokensBefore: number;
  tokensAfter: number;
  window: number;
  target: number;
  /** True when the result is still above `target` (the compressor's best effort fell short). */
  overTarget: boolean;
  messagesBefore: number;
  messagesAfter: number;
  /** Leading messages kept verbatim. */
  head: number;
  /** Messages between head and tail: how many were removed or kept with masked tool outputs. */
  middle: { messages: number; removed: number; masked: number };
  /** Messages of the protected tail. */
  tail: number;
  /** Titles of the handoff sections in the summary or receipt (`## Title` headings). */
  sections: string[];
  /** The summary or receipt (redacted by the compressor), if any. */
  summary: string | undefined;
  summarizerModel: string | undefined;
  usedFallback: boolean;
  fallbackReason: string | undefined;
  /** Tool-pair check of the result (every result right after its call, every call answered, ...). */
  valid: boolean;
  problems: ToolPairProblem[];
  /**
   * False when the input itself breaks tool pairing (an orphan result, an unanswered call before the
   * last message, ...). Such input is compacted anyway; the output never has more problems.
   */
  inputValid: boolean;
  /** Problems the input already had: not the compaction's doing. */
  inputProblems: ToolPairProblem[];
  durationMs: number;
}

/**
 * The target a file is compacted to when none is given: half the window, leaving room for the reply
 * and the next turns. (A one-off compaction on request, unlike the context manager's trigger and
 * target for a live conversation.)
 */
export function defaultCompactTarget(window: number): number {
  return Math.floor(window / 2);
}

/**
 * Compacts AI SDK messages with `@baton/compressor` for a window and target given in tokens, and
 * checks the result's tool pairing. Rejects with the compressor's errors (e.g. `ContextBudgetError`
 * when the parts that must stay verbatim do not fit the target).
 */
export async function compactTranscript(
  messages: readonly ModelMessage[],
  options: CompactTranscriptOptions = {},
): Promise<CompactReport> {
  const model = options.model ?? 'gpt-4o';
  const window = options.window ?? resolveModel(model).contextWindow;
  const target = options.target ?? defaultCompactTarget(window);
  const counter = options.counter ?? createTokenCounter({ model });
  try {
    const compressor = createContextCompressor({
      counter,
      ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
      ...(options.keepLast === undefined ? {} : { protectLastNTokens: options.keepLast }),
      // A file is compacted once, on request: report a small saving instead of refusing it.
      minimumSavingsRatio: 0,
    });
    const started = performance.now();
    let result: CompressResult<ModelMessage>;
    try {
      result = await compressor.compress([...messages], {
        targetTokens: target,
        strategy: options.strategy ?? 'auto',
      });
    } catch (error) {
      if (!CompactionNotEffectiveError.isInstance(error)) throw error;
      result = error.result as CompressResult<ModelMessage>;
    }
    const durationMs = performance.now() - started;
    const { event } = result;
    const head = Math.min(event.headMessageCount, messages.length);
    const tail = Math.max(0, messages.length - Math.max(event.tailStartIndex, head));
    const middleMessages = messages.length - head - tail;
    // Ids come from the transcript: the report prints them, so they are made safe here, once.
    const inputProblems = validateToolPairs(messages).problems.map(printableProblem);
    const { valid, problems: found } = validateToolPairs(result.messages);
    const problems = found.map(printableProblem);
    return {
      messages: result.messages,
      strategy: result.strategy,
      stages: event.stages,
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      window,
      target,
      overTarget: result.tokensAfter > target,
      messagesBefore: messages.length,
      messagesAfter: result.messages.length,
      head,
      middle: {
        messages: middleMessages,
        removed: event.removedMessageIndexes.length,
        masked: event.maskedMessageIndexes.length,
      },
      tail,
      sections: sectionTitles(result.summary),
      summary: result.summary,
      summarizerModel: event.summarizerModel,
      usedFallback: result.usedFallback,
      fallbackReason: result.fallbackReason,
      valid,
      problems,
      inputValid: inputProblems.length === 0,
      inputProblems,
      durationMs,
    };
  } finally {
    if (options.counter === undefined) counter.dispose();
  }
}

function sectionTitles(summary: string | undefined): string[] {
  if (summary === undefined) return [];
  return [...summary.matchAll(/^#{1,3} +(.+?) *$/gm)].map((match) => match[1]!);
}
