import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { TokenCounter } from '@baton/tokens';

/**
 * The window a compaction drops from a transcript, as the retention benchmark defines it:
 * everything after the first exchange (system prompt, first user message, first assistant reply and
 * its tool results) and before the last ~20 % of tokens. Not part of the public API.
 */
export function middleWindow(
  messages: readonly ModelMessage[],
  { counter, tailShare = 0.2 }: { counter: Pick<TokenCounter, 'count'>; tailShare?: number },
): ModelMessage[] {
  let start = messages.findIndex((message) => message.role === 'assistant');
  if (start === -1) return [];
  start++;
  while (start < messages.length && messages[start]!.role === 'tool') start++;
  const sizes = messages.map((message) => counter.count(JSON.stringify(message.content)));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let end = messages.length;
  let tail = 0;
  while (end > start && tail + sizes[end - 1]! <= total * tailShare) {
    end--;
    tail += sizes[end]!;
  }
  return messages.slice(start, end);
}
