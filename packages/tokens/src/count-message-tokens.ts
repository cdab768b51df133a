import { type ImagePricing, imageDimensions, priceImage } from './image-tokens.js';
import { InvalidInputError } from './invalid-input-error.js';
import { isRecord } from './is-record.js';
import type { CountableMessage, CountableTool, CountMessagesOptions } from './types.js';

/** OpenAI's published chat constants (the "How to count tokens" cookbook). */
export const chatFormat = {
  /** Every message is wrapped in `<|start|>{role}\n{content}<|end|>\n`: 3 tokens besides the role. */
  tokensPerMessage: 3,
  /** A `name` field costs its text plus one. */
  tokensPerName: 1,
  /** Every reply is primed with `<|start|>assistant<|message|>`. */
  replyPriming: 3,
  /**
   * A tool call costs its name and JSON arguments plus this (not published; the call is rendered
   * inside the assistant message as `functions.{name}` with a JSON payload).
   */
  tokensPerToolCall: 3,
  /** Tool definitions: once per request when any tool is given (the `namespace functions` preamble). */
  toolsPreamble: 12,
  /** Per tool definition besides its name, description and JSON-schema text. */
  tokensPerTool: 8,
  /** A non-image file whose text cannot be read (PDF, audio, a URL): assumed cost. */
  unknownFileTokens: 1000,
} as const;

type CountText = (text: string) => number;

function fail(path: string, message: string): never {
  throw new InvalidInputError({ path, message });
}

function text(value: unknown, path: string, countText: CountText): number {
  if (typeof value !== 'string') fail(path, `expected a string, got ${describe(value)}`);
  return countText(value);
}

/**
 * Tool-call ids (`toolCallId`, `tool_call_id`, `tool_calls[].id`) are sent on the wire by every
 * provider (OpenAI `tool_call_id`, Anthropic `tool_use_id`, ...). How they are rendered into the
 * prompt is not published, so they are counted as their text: overcounting is the safe direction.
 */
function optionalText(value: unknown, path: string, countText: CountText): number {
  if (value === undefined || value === null) return 0;
  return text(value, path, countText);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

function json(value: unknown, countText: CountText, path: string): number {
  if (value === undefined) return 0;
  if (typeof value === 'string') return countText(value);
  let serialised: string | undefined;
  try {
    serialised = JSON.stringify(value);
  } catch (error) {
    throw new InvalidInputError({ path, message: 'is not serialisable to JSON', cause: error });
  }
  return countText(serialised ?? '');
}

const base64Pattern = /^[A-Za-z0-9+/=\s]+$/;
const urlPattern = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The bytes of inline data (Uint8Array, ArrayBuffer, base64 or a data URL), else undefined. */
function inlineBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (isRecord(data) && data.type === 'data') return inlineBytes(data.data);
  let encoded: string | undefined;
  if (typeof data === 'string') {
    if (data.startsWith('data:')) encoded = data.slice(data.indexOf(',') + 1);
    else if (base64Pattern.test(data.slice(0, 256))) encoded = data;
  } else if (data instanceof URL && data.protocol === 'data:') {
    encoded = data.href.slice(data.href.indexOf(',') + 1);
  }
  // Sizes sit in the first bytes (a JPEG's frame header can follow up to 64 KB of EXIF data);
  // decoding only that prefix keeps this cheap for large images.
  if (encoded !== undefined) return Buffer.from(encoded.slice(0, 87_384), 'base64');
  return undefined;
}

function imageDetail(part: Record<string, unknown>): 'low' | 'high' | 'auto' {
  const options = part.providerOptions;
  const detail =
    isRecord(options) && isRecord(options.openai) ? options.openai.imageDetail : undefined;
  return detail === 'low' || detail === 'high' ? detail : 'auto';
}

function imageCost(data: unknown, detail: 'low' | 'high' | 'auto', pricing: ImagePricing): number {
  if (detail === 'low' && pricing.kind === 'tiles') return pricing.base;
  const bytes = inlineBytes(data);
  const size = bytes && imageDimensions(bytes);
  return size
    ? priceImage(size.width, size.height, detail, pricing)
    : priceImage(0, 0, detail, pricing);
}

function isImageMediaType(mediaType: unknown): boolean {
  return typeof mediaType === 'string' && (mediaType === 'image' || mediaType.startsWith('image/'));
}

function fileCost(
  part: Record<string, unknown>,
  path: string,
  countText: CountText,
  pricing: ImagePricing,
): number {
  const { data, mediaType } = part;
  if (isImageMediaType(mediaType)) return imageCost(data, imageDetail(part), pricing);
  if (isRecord(data) && data.type === 'text')
    return text(data.text, `${path}.data.text`, countText);
  const isText =
    typeof mediaType === 'string' &&
    (mediaType.startsWith('text/') || mediaType === 'application/json');
  if (isText) {
    const inline = isRecord(data) && data.type === 'data' ? data.data : data;
    if (typeof inline === 'string' && !urlPattern.test(inline)) {
      const encoded = inline.startsWith('data:') ? inline.slice(inline.indexOf(',') + 1) : inline;
      return countText(Buffer.from(encoded, 'base64').toString('utf8'));
    }
    if (inline instanceof Uint8Array || inline instanceof ArrayBuffer) {
      const bytes = inline instanceof ArrayBuffer ? new Uint8Array(inline) : inline;
      return countText(
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
      );
    }
  }
  const name = typeof part.filename === 'string' ? countText(part.filename) : 0;
  return name + chatFormat.unknownFileTokens;
}

function toolOutputCost(
  output: unknown,
  path: string,
  countText: CountText,
  pricing: ImagePricing,
): number {
  if (!isRecord(output)) fail(path, `expected a tool output object, got ${describe(output)}`);
  switch (output.type) {
    case 'text':
    case 'error-text':
      return text(output.value, `${path}.value`, countText);
    case 'json':
    case 'error-json':
      return json(output.value, countText, `${path}.value`);
    case 'execution-denied':
      return output.reason === undefined
        ? countText('Tool execution denied.')
        : text(output.reason, `${path}.reason`, countText);
    case 'content': {
      if (!Array.isArray(output.value)) fail(`${path}.value`, 'expected an array of content parts');
      let total = 0;
      output.value.forEach((item: unknown, index: number) => {
        total += partCost(item, `${path}.value[${index}]`, countText, pricing);
      });
      return total;
    }
    default:
      if (typeof output.type !== 'string') fail(`${path}.type`, 'expected an output type string');
      // A future output type: count its value's JSON rather than fail a running agent.
      return json(output.value ?? output, countText, `${path}.value`);
  }
}

/** Tokens of one content part (AI SDK or OpenAI Chat Completions shape). */
function partCost(
  part: unknown,
  path: string,
  countText: CountText,
  pricing: ImagePricing,
): number {
  if (typeof part === 'string') return countText(part);
  if (!isRecord(part)) fail(path, `expected a content part object, got ${describe(part)}`);
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return text(part.text, `${path}.text`, countText);
    case 'refusal':
      return text(part.refusal, `${path}.refusal`, countText);
    case 'image':
      return imageCost(part.image, imageDetail(part), pricing);
    case 'image_url': {
      const imageUrl = part.image_url;
      if (!isRecord(imageUrl)) fail(`${path}.image_url`, 'expected an object with a url');
      const detail =
        imageUrl.detail === 'low' || imageUrl.detail === 'high' ? imageUrl.detail : 'auto';
      return imageCost(imageUrl.url, detail, pricing);
    }
    case 'file':
    case 'reasoning-file':
      if (isRecord(part.file)) {
        // OpenAI Chat Completions file part: { type: 'file', file: { file_data?, file_id?, filename? } }.
        const name = typeof part.file.filename === 'string' ? countText(part.file.filename) : 0;
        return name + chatFormat.unknownFileTokens;
      }
      return fileCost(part, path, countText, pricing);
    case 'image-data':
    case 'image-url':
    case 'image-file-id':
    case 'image-file-reference':
      return imageCost(part.data ?? part.url, imageDetail(part), pricing);
    case 'file-data':
    case 'file-url':
    case 'file-id':
    case 'file-reference':
    case 'media':
      return fileCost(part, path, countText, pricing);
    case 'input_audio':
      return chatFormat.unknownFileTokens;
    case 'tool-call':
      if (typeof part.toolName !== 'string')
        fail(`${path}.toolName`, `expected a string, got ${describe(part.toolName)}`);
      return (
        chatFormat.tokensPerToolCall +
        countText(part.toolName) +
        optionalText(part.toolCallId, `${path}.toolCallId`, countText) +
        json(part.input, countText, `${path}.input`)
      );
    case 'tool-result':
      if (typeof part.toolName !== 'string')
        fail(`${path}.toolName`, `expected a string, got ${describe(part.toolName)}`);
      return (
        optionalText(part.toolCallId, `${path}.toolCallId`, countText) +
        toolOutputCost(part.output, `${path}.output`, countText, pricing)
      );
    case 'tool-approval-request':
    case 'tool-approval-response':
    case 'custom':
      // Control parts: providers do not send them as prompt text.
      return 0;
    default:
      if (typeof part.type !== 'string') fail(`${path}.type`, 'expected a part type string');
      // Unknown, future part types: count their JSON so they are never free.
      return json(part, countText, path);
  }
}

/**
 * Tokens of one message: OpenAI's 3 per message, the role, the content, `name` (+1), tool calls
 * (`tool_calls` or `tool-call` parts). An AI SDK `tool` message holding several results is sent as
 * one provider message per result, so each result pays the per-message constant. `messageHeader`
 * replaces OpenAI's constant and role text with a chat template's measured per-role cost.
 */
export function countMessageTokens(
  message: unknown,
  path: string,
  countText: CountText,
  pricing: ImagePricing,
  messageHeader?: (role: string) => number,
): number {
  if (!isRecord(message)) fail(path, `expected a message object, got ${describe(message)}`);
  const { role, content } = message;
  if (typeof role !== 'string') fail(`${path}.role`, `expected a string, got ${describe(role)}`);
  const header = messageHeader
    ? messageHeader(role)
    : chatFormat.tokensPerMessage + countText(role);
  let total = 0;
  let headers = 1;
  if (typeof content === 'string') {
    total += countText(content);
  } else if (Array.isArray(content)) {
    let results = 0;
    content.forEach((part: unknown, index: number) => {
      if (role === 'tool' && isRecord(part) && part.type === 'tool-result') results += 1;
      total += partCost(part, `${path}.content[${index}]`, countText, pricing);
    });
    if (results > 1) headers = results;
  } else if (content !== null && content !== undefined) {
    fail(
      `${path}.content`,
      `expected a string, an array of parts or null, got ${describe(content)}`,
    );
  } else if (!('tool_calls' in message) && !('function_call' in message) && content === undefined) {
    fail(`${path}.content`, 'missing');
  }
  if (message.name !== undefined) {
    total += text(message.name, `${path}.name`, countText) + chatFormat.tokensPerName;
  }
  total += optionalText(message.tool_call_id, `${path}.tool_call_id`, countText);
  const toolCalls = message.tool_calls;
  if (toolCalls !== undefined && toolCalls !== null) {
    if (!Array.isArray(toolCalls)) fail(`${path}.tool_calls`, 'expected an array');
    toolCalls.forEach((call: unknown, index: number) => {
      const callPath = `${path}.tool_calls[${index}]`;
      if (!isRecord(call) || !isRecord(call.function))
        fail(`${callPath}.function`, 'expected an object');
      total +=
        chatFormat.tokensPerToolCall +
        text(call.function.name, `${callPath}.function.name`, countText) +
        optionalText(call.id, `${callPath}.id`, countText) +
        json(call.function.arguments, countText, `${callPath}.function.arguments`);
    });
  }
  if (isRecord(message.function_call)) {
    total +=
      chatFormat.tokensPerToolCall +
      json(message.function_call.name, countText, `${path}.function_call.name`) +
      json(message.function_call.arguments, countText, `${path}.function_call.arguments`);
  }
  return total + header * headers;
}

/** Tokens of tool definitions, by the documented approximation in `chatFormat`. */
export function countToolTokens(
  tools: CountMessagesOptions['tools'],
  countText: CountText,
): number {
  if (tools === undefined) return 0;
  const list: Array<[string, unknown]> = Array.isArray(tools)
    ? tools.map((tool, index) => [`tools[${index}]`, tool] as [string, unknown])
    : isRecord(tools)
      ? Object.entries(tools).map(
          ([name, tool]) =>
            [`tools.${name}`, isRecord(tool) ? { name, ...tool } : tool] as [string, unknown],
        )
      : fail('tools', 'expected an array of tools or a record of name to tool');
  if (list.length === 0) return 0;
  let total = chatFormat.toolsPreamble;
  for (const [path, tool] of list) {
    if (!isRecord(tool)) fail(path, `expected a tool object, got ${describe(tool)}`);
    const definition = tool as CountableTool;
    const fn = isRecord(tool.function) ? tool.function : definition;
    total += chatFormat.tokensPerTool + text(fn.name, `${path}.name`, countText);
    if (fn.description !== undefined)
      total += text(fn.description, `${path}.description`, countText);
    const schema = fn.parameters ?? fn.inputSchema;
    total += json(schemaJson(schema), countText, `${path}.parameters`);
  }
  return total;
}

/** AI SDK schemas wrap the JSON schema (`jsonSchema` property); plain objects are JSON schema. */
function schemaJson(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const wrapped = schema.jsonSchema;
  if (isRecord(wrapped) && typeof wrapped.then !== 'function') return wrapped;
  // A Zod or other Standard Schema object: its JSON is library internals, not what the model sees,
  // and converting it is the caller's job (the AI SDK hands middleware plain JSON schema).
  if ('~standard' in schema || '_zod' in schema || '_def' in schema || 'jsonSchema' in schema)
    return undefined;
  return schema;
}

export type { CountableMessage };
