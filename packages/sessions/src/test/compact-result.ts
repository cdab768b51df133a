import type { CompactionResult, SessionMessage } from '../types.js';

/**
 * A compaction result shaped like `@baton/compressor`'s `CompressResult`, without an LLM: the first
 * message of `history`, a user message holding `summary`, then the last `keep` messages.
 */
export function compactResult(
  history: readonly SessionMessage[],
  keep = 2,
  summary = 'Summary of the earlier conversation.',
): CompactionResult {
  const tailStart = Math.max(1, history.length - keep);
  const removed = Array.from({ length: Math.max(0, tailStart - 1) }, (_, index) => index + 1);
  const messages = [
    ...history.slice(0, 1),
    { role: 'user', content: summary },
    ...history.slice(tailStart),
  ];
  // Shaped like @baton/compressor's CompactionEvent, extra fields included: they are stored whole.
  const event = {
    strategy: 'summarize',
    stages: ['mask', 'summarize'],
    removedMessageIndexes: removed,
    maskedMessageIndexes: [],
    headMessageCount: 1,
    tailStartIndex: tailStart,
    summary,
    summarizerModel: 'mock-summarizer',
    durationMs: 12.5,
  };
  return {
    messages,
    summary,
    strategy: 'summarize',
    usedFallback: false,
    tokensBefore: history.length * 10,
    tokensAfter: messages.length * 10,
    event,
  };
}
