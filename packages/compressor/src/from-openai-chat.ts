import type {
  AssistantContent,
  ModelMessage,
  ToolResultPart,
  UserContent,
} from '@ai-sdk/provider-utils';
import { describeValue, InvalidInputError } from '@baton/tokens';
import type { OpenAIChatMessage } from './openai-chat-message.js';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * OpenAI Chat Completions messages -> AI SDK `ModelMessage`s, so OpenAI SDK users (and transcripts
 * read from JSON files) get the same compressor.
 *
 * The input is treated as untrusted JSON and checked field by field: a bad message throws
 * `InvalidInputError` whose `path` names it (`messages[3].tool_calls[0].function.name`).
 * `developer` messages become `system`; assistant content is always an array of parts (text, then
 * tool calls); tool-call `arguments` are parsed as JSON, kept as the raw string when they are not
 * JSON (models sometimes emit that) and `{}` when empty; consecutive `tool` messages become one AI
 * SDK `tool` message (one result part each), and each result takes its tool name from its call.
 * Content parts are joined with a newline where a string is needed; user audio and other inputs
 * without text become a short `[type omitted]` marker.
 */
export function fromOpenAIChat(
  messages: readonly OpenAIChatMessage[] | readonly unknown[],
): ModelMessage[] {
  if (!Array.isArray(messages)) {
    throw new InvalidInputError({ path: 'messages', message: 'expected an array of messages' });
  }
  const result: ModelMessage[] = [];
  const toolNames = new Map<string, string>();

  (messages as readonly unknown[]).forEach((message, index) => {
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
        if (message.tool_calls != null && !Array.isArray(message.tool_calls)) {
          throw new InvalidInputError({ path: `${path}.tool_calls`, message: 'expected an array' });
        }
        const calls: unknown[] = message.tool_calls ?? [];
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
          toolName:
            toolNames.get(message.tool_call_id) ??
            (typeof message.name === 'string' ? message.name : 'unknown'),
          output: { type: 'text', value: joinText(message.content ?? '', path) },
        };
        // Parallel results arrive as one `tool` message each; the AI SDK keeps them in one.
        const previous = result.at(-1);
        if (previous?.role === 'tool') previous.content.push(part);
        else result.push({ role: 'tool', content: [part] });
        return;
      }
      default:
        throw new InvalidInputError({
          path: `${path}.role`,
          message: `unsupported role (${describeValue(message.role)}); expected system, developer, user, assistant or tool`,
        });
    }
  });
  return result;
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {};
  if (value.trim() === '') return {};
  try {
    return JSON.parse(value);
  } catch {
    // Not JSON: keep the text rather than lose the call.
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
    if (!isObject(part)) {
      throw new InvalidInputError({ path: partPath, message: 'expected an object' });
    }
    if (part.type === 'text') {
      if (typeof part.text !== 'string') {
        throw new InvalidInputError({ path: `${partPath}.text`, message: 'expected a string' });
      }
      return { type: 'text', text: part.text };
    }
    if (part.type === 'image_url') {
      if (!isObject(part.image_url) || typeof part.image_url.url !== 'string') {
        throw new InvalidInputError({
          path: `${partPath}.image_url.url`,
          message: 'expected a string',
        });
      }
      return { type: 'image', image: imageSource(part.image_url.url) };
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

/** A web address as a `URL` (what the AI SDK downloads); data URLs and anything else as given. */
function imageSource(url: string): string | URL {
  if (!/^https?:/i.test(url)) return url;
  try {
    return new URL(url);
  } catch {
    return url;
  }
}
