/**
 * An independent check of tool pairing for the tests (the CLI itself uses the compressor's
 * `validateToolPairs`): each result sits in the tool messages right after the assistant message that
 * made the call, no result is duplicated, and every call but those of the last assistant message is
 * answered. Returns the problems found, as text.
 */
export function checkToolPairs(
  messages: ReadonlyArray<{ role: string; content: unknown }>,
): string[] {
  const problems: string[] = [];
  const parts = (content: unknown) =>
    Array.isArray(content) ? (content as Array<{ type: string; toolCallId?: string }>) : [];
  const lastAssistant = messages.map((message) => message.role).lastIndexOf('assistant');
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') {
      problems.push(`#${index}: tool message without a preceding call`);
      continue;
    }
    for (const part of parts(message.content)) {
      if (part.type === 'tool-result')
        problems.push(`#${index}: tool result outside a tool message`);
    }
    if (message.role !== 'assistant') continue;
    const calls = parts(message.content)
      .filter((part) => part.type === 'tool-call')
      .map((part) => part.toolCallId!);
    const answered = new Set<string>();
    while (messages[index + 1]?.role === 'tool') {
      index++;
      for (const part of parts(messages[index]!.content)) {
        if (part.type !== 'tool-result') continue;
        if (!calls.includes(part.toolCallId!))
          problems.push(`#${index}: result ${part.toolCallId} without its call`);
        else if (answered.has(part.toolCallId!))
          problems.push(`#${index}: result ${part.toolCallId} twice`);
        answered.add(part.toolCallId!);
      }
    }
    const isLast =
      messages.slice(index + 1).every((next) => next.role !== 'assistant') &&
      index >= lastAssistant;
    if (!isLast) {
      for (const id of calls) if (!answered.has(id)) problems.push(`call ${id} never answered`);
    }
  }
  return problems;
}
