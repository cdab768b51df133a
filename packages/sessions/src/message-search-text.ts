import type { SessionMessage } from './types.js';

// NUL cannot go into a PostgreSQL `text` column; a lone surrogate would be changed on the way anyway.
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The readable text of a message, as `recall` searches it: string content as is; of array content,
 * text and reasoning parts, and each tool call's name and input and each tool result's name and output
 * (JSON unless it is a string), one per line. File and image data are left out. The migration that
 * introduced search (`drizzle/0002_recall_search.sql`) applies the same rule in SQL to older rows.
 */
export function messageSearchText(message: SessionMessage): string | null {
  const { content } = message as { content?: unknown };
  let text: string | null = null;
  if (typeof content === 'string') {
    text = content;
  } else if (Array.isArray(content)) {
    const lines: string[] = [];
    for (const part of content as unknown[]) {
      const line = partText(part);
      if (line !== null) lines.push(line);
    }
    text = lines.length === 0 ? null : lines.join('\n');
  }
  return text === null ? null : text.replace(unstorable, ' ');
}

function partText(part: unknown): string | null {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return null;
  const record = part as Record<string, unknown>;
  const join = (...values: unknown[]) =>
    values.filter((value): value is string => typeof value === 'string').join('\n');
  switch (record.type) {
    case 'text':
    case 'reasoning':
      return typeof record.text === 'string' ? record.text : null;
    case 'tool-call':
      return join(record.toolName, stringify(record.input));
    case 'tool-result': {
      const output = record.output as { value?: unknown } | undefined;
      const value = output?.value;
      return join(record.toolName, typeof value === 'string' ? value : stringify(value));
    }
    default:
      return null;
  }
}

function stringify(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}
