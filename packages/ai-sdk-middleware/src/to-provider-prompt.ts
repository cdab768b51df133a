import type {
  LanguageModelV4FilePart,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4ToolResultPart,
  SharedV4FileData,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describeValue, InvalidInputError } from '@baton/tokens';

type AssistantPart = Extract<LanguageModelV4Message, { role: 'assistant' }>['content'][number];
type ToolPart = Extract<LanguageModelV4Message, { role: 'tool' }>['content'][number];
type ContentOutputItem = Extract<
  LanguageModelV4ToolResultOutput,
  { type: 'content' }
>['value'][number];

/**
 * Converts `ModelMessage`s (the compressor's output) back into a V4 provider prompt.
 *
 * Messages found in `originals` (the ones `toModelMessages` produced and the compressor kept) map back
 * to their original V4 object, so kept history is byte-identical. New messages (a summary, a masked
 * tool result) are normalised the way the AI SDK itself does: string content becomes a text part,
 * image parts and raw file data become tagged file parts, legacy tool-output content types become
 * file parts, and approval requests (which never reach providers) are dropped.
 */
export function toProviderPrompt(
  messages: readonly ModelMessage[],
  originals?: WeakMap<object, LanguageModelV4Message>,
): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = [];
  messages.forEach((message, index) => {
    const original = originals?.get(message);
    if (original !== undefined) {
      prompt.push(original);
      return;
    }
    const converted = toProviderMessage(message, `messages[${index}]`);
    if (converted !== undefined) prompt.push(converted);
  });
  return prompt;
}

function withProviderOptions<T extends object>(
  target: T,
  providerOptions: SharedV4ProviderOptions | undefined,
): T & { providerOptions?: SharedV4ProviderOptions } {
  return providerOptions === undefined ? target : { ...target, providerOptions };
}

function toProviderMessage(
  message: ModelMessage,
  path: string,
): LanguageModelV4Message | undefined {
  switch (message.role) {
    case 'system':
      if (typeof message.content !== 'string') {
        throw new InvalidInputError({
          path: `${path}.content`,
          message: 'system content must be a string',
        });
      }
      return withProviderOptions(
        { role: 'system' as const, content: message.content },
        message.providerOptions,
      );
    case 'user': {
      if (typeof message.content === 'string') {
        return withProviderOptions(
          { role: 'user' as const, content: [{ type: 'text' as const, text: message.content }] },
          message.providerOptions,
        );
      }
      const content = message.content.map((part, index) => {
        const partPath = `${path}.content[${index}]`;
        switch (part.type) {
          case 'text':
            return part;
          case 'image':
            return withProviderOptions(
              {
                type: 'file' as const,
                data: toFileData(part.image, partPath),
                mediaType: part.mediaType ?? 'image',
              },
              part.providerOptions,
            );
          case 'file':
            return toFilePart(part, partPath);
          default:
            throw unknownPart(part, partPath);
        }
      });
      return withProviderOptions({ role: 'user' as const, content }, message.providerOptions);
    }
    case 'assistant': {
      if (typeof message.content === 'string') {
        return withProviderOptions(
          {
            role: 'assistant' as const,
            content: [{ type: 'text' as const, text: message.content }],
          },
          message.providerOptions,
        );
      }
      const content: AssistantPart[] = [];
      message.content.forEach((part, index) => {
        const partPath = `${path}.content[${index}]`;
        switch (part.type) {
          case 'text':
          case 'reasoning':
          case 'custom':
          case 'tool-call':
            content.push(part);
            return;
          case 'file':
            content.push(toFilePart(part, partPath));
            return;
          case 'reasoning-file': {
            const data = toFileData(part.data, partPath);
            if (data.type !== 'data' && data.type !== 'url') {
              throw new InvalidInputError({
                path: `${partPath}.data`,
                message: 'reasoning files carry inline data or a URL',
              });
            }
            content.push(
              withProviderOptions(
                { type: 'reasoning-file' as const, data, mediaType: part.mediaType },
                part.providerOptions,
              ),
            );
            return;
          }
          case 'tool-result':
            content.push(toToolResultPart(part, partPath));
            return;
          case 'tool-approval-request':
            // The AI SDK strips approval requests before the provider sees a prompt; so do we.
            return;
          default:
            throw unknownPart(part, partPath);
        }
      });
      if (content.length === 0) return undefined;
      return withProviderOptions({ role: 'assistant' as const, content }, message.providerOptions);
    }
    case 'tool': {
      const content: ToolPart[] = message.content.map((part, index) => {
        const partPath = `${path}.content[${index}]`;
        switch (part.type) {
          case 'tool-result':
            return toToolResultPart(part, partPath);
          case 'tool-approval-response':
            return part as ToolPart;
          default:
            throw unknownPart(part, partPath);
        }
      });
      if (content.length === 0) return undefined;
      return withProviderOptions({ role: 'tool' as const, content }, message.providerOptions);
    }
    default:
      throw new InvalidInputError({
        path: `${path}.role`,
        message: `unknown role (${describeValue((message as { role: unknown }).role)})`,
      });
  }
}

function unknownPart(part: unknown, path: string): InvalidInputError {
  const type = typeof part === 'object' && part !== null ? (part as { type?: unknown }).type : part;
  return new InvalidInputError({
    path: `${path}.type`,
    message: `unsupported part type (${describeValue(type)})`,
  });
}

function toFilePart(
  part: {
    data: unknown;
    mediaType: string;
    filename?: string;
    providerOptions?: SharedV4ProviderOptions;
  },
  path: string,
): LanguageModelV4FilePart {
  const data = toFileData(part.data, path);
  if (data === part.data) return part as LanguageModelV4FilePart;
  const filePart: LanguageModelV4FilePart = { type: 'file', data, mediaType: part.mediaType };
  if (part.filename !== undefined) filePart.filename = part.filename;
  return withProviderOptions(filePart, part.providerOptions);
}

const fileDataTags: Record<string, string> = {
  data: 'data',
  url: 'url',
  reference: 'reference',
  text: 'text',
};

/** Normalises any data the AI SDK accepts for a file or image into the V4 tagged union. */
function toFileData(data: unknown, path: string): SharedV4FileData {
  if (data instanceof Uint8Array) return { type: 'data', data };
  if (data instanceof ArrayBuffer) return { type: 'data', data: new Uint8Array(data) };
  if (data instanceof URL) return { type: 'url', url: data };
  if (typeof data === 'string') {
    const dataUrl = /^data:[^;,]*(;base64)?,/.exec(data);
    if (dataUrl?.[1] !== undefined) return { type: 'data', data: data.slice(dataUrl[0].length) };
    if (/^https?:\/\//i.test(data)) {
      try {
        return { type: 'url', url: new URL(data) };
      } catch {
        // Not a URL after all: treat it as base64 data below.
      }
    }
    return { type: 'data', data };
  }
  if (typeof data === 'object' && data !== null) {
    const tag = (data as { type?: unknown }).type;
    if (tag === 'url' && typeof (data as { url?: unknown }).url === 'string') {
      // A URL that went through JSON (the session store) comes back as a string.
      const { url, ...rest } = data as { url: string; originalUrl?: string };
      return { ...rest, type: 'url', url: new URL(url) };
    }
    if (typeof tag === 'string' && fileDataTags[tag] !== undefined && tag in data) {
      return data as SharedV4FileData;
    }
    if (tag === undefined) {
      const values = Object.values(data);
      if (values.length > 0 && values.every((value) => typeof value === 'string')) {
        return { type: 'reference', reference: data as Record<string, string> };
      }
    }
  }
  throw new InvalidInputError({ path: `${path}.data`, message: 'unsupported file data' });
}

function toToolResultPart(
  part: {
    type: 'tool-result';
    toolCallId: string;
    toolName: string;
    output: unknown;
    providerOptions?: SharedV4ProviderOptions;
  },
  path: string,
): LanguageModelV4ToolResultPart {
  const output = toToolResultOutput(part.output, `${path}.output`);
  if (output === part.output) return part as LanguageModelV4ToolResultPart;
  return withProviderOptions(
    { type: 'tool-result' as const, toolCallId: part.toolCallId, toolName: part.toolName, output },
    part.providerOptions,
  );
}

function toToolResultOutput(output: unknown, path: string): LanguageModelV4ToolResultOutput {
  if (typeof output !== 'object' || output === null) {
    throw new InvalidInputError({ path, message: 'tool result output must be an object' });
  }
  const typed = output as {
    type?: unknown;
    value?: unknown;
    providerOptions?: SharedV4ProviderOptions;
  };
  switch (typed.type) {
    case 'text':
    case 'json':
    case 'execution-denied':
    case 'error-text':
    case 'error-json':
      return output as LanguageModelV4ToolResultOutput;
    case 'content': {
      if (!Array.isArray(typed.value)) {
        throw new InvalidInputError({
          path: `${path}.value`,
          message: 'content output must be an array',
        });
      }
      let changed = false;
      const value = typed.value.map((item: unknown, index: number) => {
        const converted = toContentOutputItem(item, `${path}.value[${index}]`);
        if (converted !== item) changed = true;
        return converted;
      });
      if (!changed) return output as LanguageModelV4ToolResultOutput;
      return withProviderOptions({ type: 'content' as const, value }, typed.providerOptions);
    }
    default:
      throw new InvalidInputError({
        path: `${path}.type`,
        message: `unsupported tool output type (${describeValue(typed.type)})`,
      });
  }
}

interface LegacyContentItem {
  type: string;
  data?: unknown;
  url?: string;
  mediaType?: string;
  filename?: string;
  fileId?: string | Record<string, string>;
  providerReference?: Record<string, string>;
  providerOptions?: SharedV4ProviderOptions;
}

/** Legacy tool-output content types map to file parts as the AI SDK maps them. */
function toContentOutputItem(item: unknown, path: string): ContentOutputItem {
  if (typeof item !== 'object' || item === null) {
    throw new InvalidInputError({ path, message: 'content item must be an object' });
  }
  const legacy = item as LegacyContentItem;
  const file = (data: SharedV4FileData, mediaType: string): ContentOutputItem => {
    const part: ContentOutputItem = { type: 'file', data, mediaType };
    if (legacy.filename !== undefined) part.filename = legacy.filename;
    return withProviderOptions(part, legacy.providerOptions);
  };
  const reference = (id: string | Record<string, string> | undefined): SharedV4FileData => ({
    type: 'reference',
    reference: typeof id === 'string' ? { file: id } : (id ?? {}),
  });
  switch (legacy.type) {
    case 'text':
    case 'custom':
      return item as ContentOutputItem;
    case 'file': {
      const data = toFileData(legacy.data, path);
      return data === legacy.data
        ? (item as ContentOutputItem)
        : file(data, legacy.mediaType ?? 'application');
    }
    case 'file-data':
      return file({ type: 'data', data: String(legacy.data) }, legacy.mediaType ?? 'application');
    case 'image-data':
      return file({ type: 'data', data: String(legacy.data) }, legacy.mediaType ?? 'image');
    case 'file-url':
      return file(
        { type: 'url', url: new URL(String(legacy.url)) },
        legacy.mediaType ?? 'application',
      );
    case 'image-url':
      return file({ type: 'url', url: new URL(String(legacy.url)) }, 'image');
    case 'file-id':
      return file(reference(legacy.fileId), 'application');
    case 'image-file-id':
      return file(reference(legacy.fileId), 'image');
    case 'file-reference':
      return file(reference(legacy.providerReference), 'application');
    case 'image-file-reference':
      return file(reference(legacy.providerReference), 'image');
    default:
      throw unknownPart(item, path);
  }
}
