import type { ModelMessage } from '@ai-sdk/provider-utils';

let exchanges = 0;

/**
 * One tool call and its result as AI SDK messages, with a call id unique in the process: the text
 * of `output`, or an `error-text` output when `error` is set.
 */
export function toolExchange(
  toolName: string,
  input: unknown,
  output: string,
  error = false,
): ModelMessage[] {
  const toolCallId = `x${++exchanges}`;
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName, input }] },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName,
          output: error ? { type: 'error-text', value: output } : { type: 'text', value: output },
        },
      ],
    },
  ];
}
