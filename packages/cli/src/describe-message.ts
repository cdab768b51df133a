import type { ModelMessage } from '@ai-sdk/provider-utils';

/**
 * A content-free description of a message: its part types with counts (`text, tool-call x2`).
 * The CLI prints this instead of a text preview so reports never echo secrets from a transcript.
 */
export function describeMessage(message: ModelMessage): string {
  if (typeof message.content === 'string') return 'text';
  const counts = new Map<string, number>();
  for (const part of message.content) counts.set(part.type, (counts.get(part.type) ?? 0) + 1);
  return [...counts].map(([type, count]) => (count > 1 ? `${type} x${count}` : type)).join(', ');
}
