export interface SummarizerInputBudgetOptions {
  /** The local model's context window, in its own tokens (`LocalModelOptions.contextSize`). */
  contextSize: number;
  /** The compressor's `summaryTargetTokens` (its reply cap is 1.5 times this plus 64). */
  summaryTargetTokens: number;
  /**
   * Local-model tokens per token of the compressor's counter, at worst. Default 1.6: SmolLM2's
   * tokenizer against o200k on the dev transcripts measured 1.13 to 1.44 per transcript (median 1.21).
   */
  tokenRatio?: number;
}

/**
 * A `summarizerInputBudget` for `@baton/compressor` (counted by the compressor's counter) under which
 * every summariser request and its reply fit the local model's context. The compressor chunks a
 * larger middle to stay under it; a request that still does not fit fails with
 * `LocalContextOverflowError` and compaction falls back to the receipt with that reason.
 */
export function summarizerInputBudget(options: SummarizerInputBudgetOptions): number {
  const ratio = options.tokenRatio ?? 1.6;
  const reply = Math.ceil(options.summaryTargetTokens * 1.5) + 64;
  return Math.max(0, Math.floor((options.contextSize - reply - 16) / ratio));
}
