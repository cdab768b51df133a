export interface ToolOutputTextOptions {
  /**
   * Indentation of JSON values, as `JSON.stringify`'s `space`: `1` puts each field on a line of its
   * own, for readers that work line by line. Default: none (one line).
   */
  jsonSpace?: number;
}

function json(value: unknown, space: number | undefined): string {
  try {
    return JSON.stringify(value, null, space) ?? '';
  } catch {
    // A cycle or a BigInt in a hand-built output: nothing readable to show.
    return '';
  }
}

/**
 * The text of an AI SDK tool result `output`: the value of `text` and `error-text`, the JSON of
 * `json` and `error-json`, the reason of `execution-denied`, the text parts of `content` one per
 * line (other parts as `[type]`). Reads untrusted JSON: any other value gives its JSON, or `''`;
 * never throws.
 */
export function toolOutputText(output: unknown, { jsonSpace }: ToolOutputTextOptions = {}): string {
  if (typeof output !== 'object' || output === null) return '';
  const { type, value, reason } = output as { type?: unknown; value?: unknown; reason?: unknown };
  switch (type) {
    case 'text':
    case 'error-text':
      return typeof value === 'string' ? value : json(value, jsonSpace);
    case 'json':
    case 'error-json':
      return json(value, jsonSpace);
    case 'execution-denied':
      return typeof reason === 'string' ? reason : '';
    case 'content':
      if (!Array.isArray(value)) return json(value, jsonSpace);
      return value
        .map((part) => {
          const { type: partType, text } = (part ?? {}) as { type?: unknown; text?: unknown };
          if (partType === 'text' && typeof text === 'string') return text;
          return `[${typeof partType === 'string' ? partType : 'part'}]`;
        })
        .join('\n');
    default:
      return json(output, jsonSpace);
  }
}
