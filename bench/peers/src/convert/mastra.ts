/**
 * AI SDK `ModelMessage` <-> the provider prompt (`LanguageModelV2Prompt`) that Mastra's `processLLMRequest`
 * processors rewrite (written for this harness). User content becomes text parts, as in a provider prompt.
 */
import { type Message, PeerOutputError, parseModelMessages } from '../messages.ts';

type PromptMessage = Record<string, unknown> & { role: string; content: unknown };

export function toMastraPrompt(messages: readonly Message[]): PromptMessage[] {
  return messages.map((message) => {
    if (message.role === 'system') return { role: 'system', content: message.content };
    if (message.role === 'user') {
      return {
        role: 'user',
        content:
          typeof message.content === 'string'
            ? [{ type: 'text', text: message.content }]
            : message.content.map((part) => ({ type: 'text', text: part.text })),
      };
    }
    if (message.role === 'assistant') {
      return {
        role: 'assistant',
        content:
          typeof message.content === 'string'
            ? [{ type: 'text', text: message.content }]
            : message.content.map((part) => ({ ...part })),
      };
    }
    return { role: 'tool', content: message.content.map((part) => ({ ...part })) };
  });
}

export function fromMastraPrompt(prompt: unknown, peer: string): Message[] {
  if (!Array.isArray(prompt)) throw new PeerOutputError(peer, 'prompt is not an array');
  const messages = prompt.map((message: PromptMessage, index) => {
    if (message.role === 'system' || message.role === 'tool') return message;
    if (!Array.isArray(message.content)) {
      throw new PeerOutputError(peer, `prompt[${index}]: content is not an array`);
    }
    return {
      role: message.role,
      content: (message.content as Array<Record<string, unknown>>).map((part) => {
        // Provider prompts may carry providerOptions; the harness shape has no place for them.
        const { providerOptions: _ignored, ...rest } = part;
        return rest;
      }),
    };
  });
  return parseModelMessages(messages, peer);
}
