import type { ModelMessage } from '@ai-sdk/provider-utils';

/** A tool call and its result as AI SDK messages, the output as given (any output shape). */
export function callPair(
  toolCallId: string,
  toolName: string,
  input: unknown,
  output: unknown,
): ModelMessage[] {
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName, input }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId, toolName, output: output as never }],
    },
  ];
}
