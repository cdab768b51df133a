import { InvalidInputError } from '@baton/tokens';
import type { AssistantContent, ModelMessage, ToolResultPart, UserContent } from 'ai';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Converts OpenAI Chat Completions messages (`system`/`developer`, `user`, `assistant` with
 * `tool_calls`, `tool` with `tool_call_id`) to AI SDK `ModelMessage[]`.
 *
 * Tool-call `arguments` are parsed as JSON (kept as the raw string when they are not JSON, as models
 * sometimes emit); consecutive `tool` messages become one `tool` message; tool results take their
 * `toolName` from the matching call. Throws `InvalidInputError` naming the offending message.
 */
export function fromOpenAIChat(messages: readonly unknown[]): ModelMessage[] {
  const result: ModelMessage[] = [];
  const toolNames = new Map<string, string>();

  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (!isObject(message) || typeof message.role !== 'string') {
      throw new InvalidInputError({ path, message: 'expected an object with a string `role`' });
    }
    switch (message.role) {
      case 'system':
      case 'developer':
        result.push({ role: 'system', content: joinText(message.content, path) });
        return;
      case 'user':
        result.push({ role: 'user', content: userContent(message.content, path) });
        return;
      case 'assistant': {
        const content: Exclude<AssistantContent, string> = [];
        const text = message.content == null ? '' : joinText(message.content, path);
        if (text !== '') content.push({ type: 'text', text });
        if (typeof message.refusal === 'string' && message.refusal !== '') {
          content.push({ type: 'text', text: message.refusal });
        }
        const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
        calls.forEach((call, callIndex) => {
          const callPath = `${path}.tool_calls[${callIndex}]`;
          if (!isObject(call) || typeof call.id !== 'string' || !isObject(call.function)) {
            throw new InvalidInputError({ path: callPath, message: 'expected { id, function }' });
          }
          const name = call.function.name;
          if (typeof name !== 'string') {
            throw new InvalidInputError({
              path: `${callPath}.function.name`,
              message: 'expected a string',
            });
          }
          toolNames.set(call.id, name);
          content.push({
            type: 'tool-call',
            toolCallId: call.id,
            toolName: name,
            input: parseArguments(call.function.arguments),
          });
        });
        result.push({ role: 'assistant', content });
        return;
      }
      case 'tool': {
        if (typeof message.tool_call_id !== 'string') {
          throw new InvalidInputError({
            path: `${path}.tool_call_id`,
            message: 'expected a string',
          });
        }
        const part: ToolResultPart = {
          type: 'tool-result',
          toolCallId: message.tool_call_id,
          toolName: toolNames.get(message.tool_call_id) ?? stringOr(message.name, 'unknown'),
          output: { type: 'text', value: joinText(message.content ?? '', path) },
        };
        const previous = result.at(-1);
        if (previous?.role === 'tool') previous.content.push(part);
        else result.push({ role: 'tool', content: [part] });
        return;
      }
      default:
        throw new InvalidInputError({
          path: `${path}.role`,
          message: `unsupported role '${message.role}'`,
        });
    }
  });
  return result;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {};
  if (value.trim() === '') return {};
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Text of a string or an array of `{ type: 'text', text }` / `{ type: 'refusal', refusal }` parts. */
function joinText(content: unknown, path: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) {
    throw new InvalidInputError({
      path: `${path}.content`,
      message: 'expected a string or an array',
    });
  }
  return content
    .map((part, index) => {
      if (isObject(part) && typeof part.text === 'string') return part.text;
      if (isObject(part) && typeof part.refusal === 'string') return part.refusal;
      throw new InvalidInputError({
        path: `${path}.content[${index}]`,
        message: 'expected a text part',
      });
    })
    .join('\n');
}

function userContent(content: unknown, path: string): UserContent {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) {
    throw new InvalidInputError({
      path: `${path}.content`,
      message: 'expected a string or an array',
    });
  }
  return content.map((part, index): Exclude<UserContent, string>[number] => {
    const partPath = `${path}.content[${index}]`;
    if (!isObject(part))
      throw new InvalidInputError({ path: partPath, message: 'expected an object' });
    if (part.type === 'text' && typeof part.text === 'string')
      return { type: 'text', text: part.text };
    if (
      part.type === 'image_url' &&
      isObject(part.image_url) &&
      typeof part.image_url.url === 'string'
    ) {
      return { type: 'image', image: part.image_url.url };
    }
    if (part.type === 'file' && isObject(part.file)) {
      const data = part.file.file_data ?? part.file.file_id;
      if (typeof data === 'string') {
        return {
          type: 'file',
          data,
          mediaType: 'application/octet-stream',
          ...(typeof part.file.filename === 'string' ? { filename: part.file.filename } : {}),
        };
      }
    }
    // Audio and other inputs have no text to count or keep; a marker keeps the turn's shape.
    return { type: 'text', text: `[${String(part.type)} omitted]` };
  });
}
