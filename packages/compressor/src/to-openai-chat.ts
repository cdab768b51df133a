import type { ModelMessage } from '@ai-sdk/provider-utils';
import { toolOutputText } from '@baton/tokens';
import type {
  OpenAIChatContentPart,
  OpenAIChatMessage,
  OpenAIChatToolCall,
} from './openai-chat-message.js';

function imageUrl(image: unknown, mediaType: string | undefined): string | undefined {
  if (image instanceof URL) return image.href;
  if (typeof image === 'string') {
    return /^(https?:|data:)/.test(image)
      ? image
      : `data:${mediaType ?? 'image/png'};base64,${image}`;
  }
  return undefined;
}

/**
 * AI SDK `ModelMessage`s -> OpenAI Chat Completions messages. Reasoning parts are dropped (the Chat
 * API has no field for them); text parts are joined with a newline (as `fromOpenAIChat` joins
 * content parts); each tool result becomes its own `tool` message; binary content the Chat API
 * cannot take inline becomes a short text marker.
 */
export function toOpenAIChat(messages: readonly ModelMessage[]): OpenAIChatMessage[] {
  const output: OpenAIChatMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        output.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        if (typeof message.content === 'string') {
          output.push({ role: 'user', content: message.content });
          break;
        }
        const parts: OpenAIChatContentPart[] = message.content.map((part) => {
          if (part.type === 'text') return { type: 'text', text: part.text };
          if (part.type === 'image') {
            const url = imageUrl(part.image, part.mediaType);
            if (url) return { type: 'image_url', image_url: { url } };
          }
          return { type: 'text', text: `[${part.type}]` };
        });
        output.push({ role: 'user', content: parts });
        break;
      }
      case 'assistant': {
        if (typeof message.content === 'string') {
          output.push({ role: 'assistant', content: message.content });
          break;
        }
        const text: string[] = [];
        const calls: OpenAIChatToolCall[] = [];
        for (const part of message.content) {
          if (part.type === 'text') text.push(part.text);
          else if (part.type === 'tool-call' && part.providerExecuted !== true) {
            calls.push({
              id: part.toolCallId,
              type: 'function',
              function: {
                name: part.toolName,
                arguments:
                  typeof part.input === 'string'
                    ? part.input
                    : (JSON.stringify(part.input) ?? '{}'),
              },
            });
          }
        }
        output.push(
          calls.length > 0
            ? {
                role: 'assistant',
                content: text.length > 0 ? text.join('\n') : null,
                tool_calls: calls,
              }
            : { role: 'assistant', content: text.join('\n') },
        );
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          output.push({
            role: 'tool',
            tool_call_id: part.toolCallId,
            content: toolOutputText(part.output),
          });
        }
        break;
    }
  }
  return output;
}
