import type { ModelMessage } from 'ai';

/** An OpenAI Chat Completions message, as `toOpenAIChat` writes it. */
export interface OpenAIChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null | Array<Record<string, unknown>>;
  tool_calls?: Array<{
    id: string;
    type: 'function';
    function: { name: string; arguments: string };
  }>;
  tool_call_id?: string;
}

/**
 * Converts AI SDK `ModelMessage[]` back to OpenAI Chat Completions messages, so a transcript read
 * from OpenAI JSON is written back in the same shape. Reasoning parts are dropped (Chat Completions
 * has no field for them); each tool result becomes its own `tool` message.
 */
export function toOpenAIChat(messages: readonly ModelMessage[]): OpenAIChatMessage[] {
  const result: OpenAIChatMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      result.push({ role: 'system', content: message.content });
    } else if (message.role === 'user') {
      if (typeof message.content === 'string') {
        result.push({ role: 'user', content: message.content });
        continue;
      }
      result.push({
        role: 'user',
        content: message.content.map((part) => {
          if (part.type === 'text') return { type: 'text', text: part.text };
          if (part.type === 'image') {
            return { type: 'image_url', image_url: { url: String(part.image) } };
          }
          return { type: 'text', text: `[file ${part.filename ?? ''} omitted]`.replace('  ', ' ') };
        }),
      });
    } else if (message.role === 'assistant') {
      if (typeof message.content === 'string') {
        result.push({ role: 'assistant', content: message.content });
        continue;
      }
      const text = message.content
        .flatMap((part) => (part.type === 'text' ? [part.text] : []))
        .join('\n');
      const calls = message.content.flatMap((part) =>
        part.type === 'tool-call'
          ? [
              {
                id: part.toolCallId,
                type: 'function' as const,
                function: {
                  name: part.toolName,
                  arguments:
                    typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {}),
                },
              },
            ]
          : [],
      );
      result.push({
        role: 'assistant',
        content: text === '' && calls.length > 0 ? null : text,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
    } else {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        result.push({
          role: 'tool',
          tool_call_id: part.toolCallId,
          content: outputText(part.output),
        });
      }
    }
  }
  return result;
}

function outputText(output: { type: string; value?: unknown; reason?: string }): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return String(output.value);
    case 'execution-denied':
      return `[execution denied${output.reason ? `: ${output.reason}` : ''}]`;
    case 'content':
      return (Array.isArray(output.value) ? output.value : [])
        .map((item: { type?: string; text?: string }) =>
          item.type === 'text' ? (item.text ?? '') : '[file omitted]',
        )
        .join('\n');
    default:
      return JSON.stringify(output.value);
  }
}
