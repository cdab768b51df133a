import type {
  AssistantContent,
  ModelMessage,
  ToolCallPart,
  UserContent,
} from '@ai-sdk/provider-utils';
import { InvalidInputError } from '@baton/tokens';
import type { OpenAIChatContentPart, OpenAIChatMessage } from './openai-chat-message.js';

function partsText(content: string | OpenAIChatContentPart[] | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) =>
      part.type === 'text'
        ? (part as { text: string }).text
        : part.type === 'refusal'
          ? (part as { refusal: string }).refusal
          : '',
    )
    .join('');
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Models sometimes emit arguments that are not JSON; keep them rather than lose the call.
    return text;
  }
}

/**
 * OpenAI Chat Completions messages -> AI SDK `ModelMessage`s, so OpenAI SDK users get the same
 * compressor. Tool results get their tool name from the call they answer. Throws `InvalidInputError`
 * on an unknown role.
 */
export function fromOpenAIChat(messages: readonly OpenAIChatMessage[]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((message, index): ModelMessage => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: partsText(message.content) };
      case 'user': {
        if (typeof message.content === 'string') return { role: 'user', content: message.content };
        const content: UserContent = message.content.map((part) => {
          if (part.type === 'image_url') {
            const url = (part as { image_url: { url: string } }).image_url.url;
            return { type: 'image', image: url.startsWith('data:') ? url : new URL(url) };
          }
          if (part.type === 'text') return { type: 'text', text: (part as { text: string }).text };
          return { type: 'text', text: JSON.stringify(part) };
        });
        return { role: 'user', content };
      }
      case 'assistant': {
        const text = partsText(message.content) || (message.refusal ?? '');
        const calls: ToolCallPart[] = (message.tool_calls ?? []).map((call) => {
          toolNames.set(call.id, call.function.name);
          return {
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.function.name,
            input: parseArguments(call.function.arguments),
          };
        });
        if (calls.length === 0) return { role: 'assistant', content: text };
        const content: AssistantContent = text === '' ? calls : [{ type: 'text', text }, ...calls];
        return { role: 'assistant', content };
      }
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.tool_call_id,
              toolName: toolNames.get(message.tool_call_id) ?? 'unknown',
              output: { type: 'text', value: partsText(message.content) },
            },
          ],
        };
      default:
        throw new InvalidInputError({
          path: `messages[${index}].role`,
          message: `unknown role "${(message as { role: unknown }).role}"`,
        });
    }
  });
}
