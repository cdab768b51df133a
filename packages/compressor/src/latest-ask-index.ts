import type { ModelMessage } from '@ai-sdk/provider-utils';

/**
 * Whether a user message says something: text that is not only whitespace, or any other part (an
 * image, a file). An empty message (a client that sent nothing, a retry button, a cleared draft)
 * stays where it is but is not the ask the history is kept for.
 */
export function hasContent(message: ModelMessage): boolean {
  const { content } = message;
  if (typeof content === 'string') return content.trim() !== '';
  return content.some((part) => part.type !== 'text' || part.text.trim() !== '');
}

/**
 * Index of the latest real ask at or after `floor`: the latest user message that is not one of
 * Baton's inserts and has content; when every such message is empty, the latest of them; -1 when
 * there is none. `strict`: -1 rather than an empty message.
 */
export function latestAskIndex(
  messages: readonly ModelMessage[],
  inserts: readonly boolean[],
  floor: number,
  strict = false,
): number {
  let empty = -1;
  for (let index = messages.length - 1; index >= floor; index--) {
    const message = messages[index]!;
    if (message.role !== 'user' || inserts[index]) continue;
    if (hasContent(message)) return index;
    if (empty < 0) empty = index;
  }
  return strict ? -1 : empty;
}
