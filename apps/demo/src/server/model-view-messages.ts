import type { UIMessage } from 'ai';

/** Key of one part of one message, as `ConversationRecord.unavailableFileParts` lists them. */
export function filePartKey(messageId: string, partIndex: number): string {
  return `${messageId}#${partIndex}`;
}

/** Keys of the file parts of `message`, or of every message whose file part has `url`. */
export function filePartKeys(
  messages: readonly UIMessage[],
  select: { messageId: string } | { url: string },
): string[] {
  const keys: string[] = [];
  for (const message of messages) {
    if ('messageId' in select && message.id !== select.messageId) continue;
    message.parts.forEach((part, index) => {
      if (part.type !== 'file') return;
      if ('url' in select && part.url !== select.url) return;
      keys.push(filePartKey(message.id, index));
    });
  }
  return keys;
}

/**
 * The messages the model is given: file parts listed as unavailable become a short note, so an
 * attachment that could not be fetched is not fetched again (and does not fail) on every later turn.
 */
export function withoutUnavailableFiles(
  messages: readonly UIMessage[],
  unavailable: ReadonlySet<string>,
): UIMessage[] {
  if (unavailable.size === 0) return [...messages];
  return messages.map((message) => {
    if (!message.parts.some((_, index) => unavailable.has(filePartKey(message.id, index)))) {
      return message;
    }
    return {
      ...message,
      parts: message.parts.map((part, index) =>
        part.type === 'file' && unavailable.has(filePartKey(message.id, index))
          ? {
              type: 'text' as const,
              text: `[attachment ${part.filename ? `"${part.filename}" ` : ''}(${part.mediaType}) could not be fetched; it was not sent]`,
            }
          : part,
      ),
    };
  });
}
