import type { ModelMessage } from '@ai-sdk/provider-utils';
import { clipSizes, elisionMarker } from './clip-middle.js';
import { redactMessages } from './peer-api.js';

/**
 * Context kept on each side of a clip boundary while redacting, so a secret (or a `key = value`
 * line) that straddles the boundary is seen whole by the redactor.
 */
const margin = 1_024;
const separatorStart = '\n\u2063baton-window:';
const separatorEnd = '\u2063\n';

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) {
    let changed = false;
    const next = value.map((item) => {
      const mapped = mapStrings(item, map);
      if (mapped !== item) changed = true;
      return mapped;
    });
    return changed ? next : value;
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    let changed = false;
    const next: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const mapped = mapStrings(item, map);
      if (mapped !== item) changed = true;
      next[key] = mapped;
    }
    return changed ? next : value;
  }
  return value;
}

/**
 * Applies `map` to the strings the transcript clips (reasoning, tool-call inputs, tool outputs);
 * text parts are sent whole and left alone. Returns the message itself when nothing changed.
 */
function mapClippedStrings(message: ModelMessage, map: (text: string) => string): ModelMessage {
  if (
    typeof message.content === 'string' ||
    (message.role !== 'assistant' && message.role !== 'tool')
  ) {
    return message;
  }
  let changed = false;
  const content = (message.content as Array<Record<string, unknown>>).map((part) => {
    let next = part;
    if (part.type === 'reasoning' && typeof part.text === 'string') {
      const text = map(part.text);
      if (text !== part.text) next = { ...part, text };
    } else if (part.type === 'tool-call') {
      const input = mapStrings(part.input, map);
      if (input !== part.input) next = { ...part, input };
    } else if (part.type === 'tool-result') {
      const output = mapStrings(part.output, map);
      if (output !== part.output) next = { ...part, output };
    }
    if (next !== part) changed = true;
    return next;
  });
  return changed ? ({ ...message, content } as ModelMessage) : message;
}

function openWindows(text: string, limit: number): string {
  if (text.length <= limit + 2 * margin) return text;
  const { head, tail } = clipSizes(limit);
  return `${text.slice(0, head + margin)}${separatorStart}${text.length}${separatorEnd}${text.slice(text.length - tail - margin)}`;
}

class MangledWindowError extends Error {}

function closeWindows(text: string, limit: number): string {
  const start = text.indexOf(separatorStart);
  if (start < 0) return text;
  const end = text.indexOf(separatorEnd, start + separatorStart.length);
  const length = Number(text.slice(start + separatorStart.length, end));
  if (end < 0 || !Number.isInteger(length)) throw new MangledWindowError();
  const { head, tail } = clipSizes(limit);
  const right = text.slice(end + separatorEnd.length);
  return `${text.slice(0, start).slice(0, head)}${elisionMarker(length - head - tail)}${tail > 0 ? right.slice(-tail) : ''}`;
}

/**
 * Redacts a span for the summariser with `redactMessages`, but only what the transcript will show:
 * strings the transcript clips to `limit` characters are cut to their kept start and end plus a
 * margin before redaction, then to the kept parts after it. Redacting whole multi-megabyte tool
 * outputs only to drop most of them was the costliest step of the pipeline. Should the redactor
 * alter a window separator, that message is redacted whole instead.
 */
export function redactForSummary(messages: readonly ModelMessage[], limit: number): ModelMessage[] {
  const windowed = messages.map((message) =>
    mapClippedStrings(message, (text) => openWindows(text, limit)),
  );
  const redacted = redactMessages(windowed).messages;
  return redacted.map((message, index) => {
    if (message === windowed[index] && windowed[index] === messages[index]) return message;
    try {
      return mapClippedStrings(message, (text) => closeWindows(text, limit));
    } catch (error) {
      if (!(error instanceof MangledWindowError)) throw error;
      return redactMessages([messages[index]!]).messages[0]!;
    }
  });
}
