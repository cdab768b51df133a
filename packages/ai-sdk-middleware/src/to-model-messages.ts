import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describeValue, InvalidInputError, isRecord } from '@baton/tokens';

/**
 * Converts the provider prompt a middleware receives into AI SDK `ModelMessage`s, the shape the
 * compressor and the session store work on.
 *
 * Every V4 part type is already a valid `ModelMessage` part (files carry the tagged data union that
 * `ModelMessage` accepts, tool results carry the same output union), so parts are passed by reference:
 * nothing is copied and nothing is lost, including `providerOptions` on messages and parts. Only the
 * message wrapper is new, which lets `toProviderPrompt` recognise messages that came back untouched
 * through `originals` and hand back the very same V4 object.
 */
export function toModelMessages(
  prompt: LanguageModelV4Prompt,
  originals?: WeakMap<object, LanguageModelV4Message>,
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  let index = 0;
  for (const message of prompt) {
    checkMessage(message, index++);
    const converted = toModelMessage(message);
    originals?.set(converted, message);
    messages.push(converted);
  }
  return messages;
}

/**
 * The shape the conversion reads, checked first: the prompt may come from another middleware or
 * a direct `doGenerate` call, and a `null` message or content must fail typed and by its place
 * (`prompt[3].content`), not as a TypeError. Values are never quoted: they may hold secrets.
 */
function checkMessage(message: unknown, index: number): asserts message is LanguageModelV4Message {
  if (!isRecord(message)) {
    throw new InvalidInputError({
      path: `prompt[${index}]`,
      message: `${describeValue(message)} is not a message`,
    });
  }
  if (message.role === 'system') return;
  if (!Array.isArray(message.content)) {
    throw new InvalidInputError({
      path: `prompt[${index}].content`,
      message: `${describeValue(message.content)} is not an array of parts`,
    });
  }
}

function toModelMessage(message: LanguageModelV4Message): ModelMessage {
  const providerOptions =
    message.providerOptions === undefined ? {} : { providerOptions: message.providerOptions };
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content, ...providerOptions };
    case 'user':
      return { role: 'user', content: [...message.content], ...providerOptions };
    case 'assistant':
      return { role: 'assistant', content: [...message.content], ...providerOptions };
    case 'tool':
      // V4 approval responses may carry providerOptions, which the ModelMessage type does not list;
      // the object is passed through as is so they survive the round trip.
      return {
        role: 'tool',
        content: [...message.content] as Extract<ModelMessage, { role: 'tool' }>['content'],
        ...providerOptions,
      };
    default:
      return message satisfies never;
  }
}
