/**
 * Whether a message part is a tool result whose output is an error (`error-text` or `error-json`).
 *
 * Such parts compare and hash equal whatever their error text: AI SDK UI apps commonly redact tool
 * errors for the client (`toUIMessageStream({ onError })`), so the next turn's
 * `convertToModelMessages` carries a different error text than the step the model answered. That is
 * the app's representation of the same failed call, not an edited history: treating it as an edit
 * forked the lineage on every turn with a failing tool, and, when the error sat inside a compaction's
 * covered prefix, threw the compaction away and compacted again (another summariser call).
 */
export function isErrorToolResult(value: object): boolean {
  const part = value as { type?: unknown; output?: unknown };
  if (part.type !== 'tool-result') return false;
  const output = part.output;
  if (typeof output !== 'object' || output === null) return false;
  const type = (output as { type?: unknown }).type;
  return type === 'error-text' || type === 'error-json';
}

/** What of an error tool result is compared: everything but the error's content. */
export const errorOutputMarker = { type: 'error' } as const;
