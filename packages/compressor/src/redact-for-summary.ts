import type { ModelMessage } from '@ai-sdk/provider-utils';
import { clipMiddle, redactMessages } from './peer-api.js';

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  // Copies are made only from the first changed item on: most values hold no long string, and a
  // span's walk would otherwise copy every array and entry list of every message it reads.
  if (Array.isArray(value)) {
    let next: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const mapped = mapStrings(item, map);
      if (mapped !== item && next === undefined) next = value.slice(0, index);
      if (next !== undefined) next.push(mapped);
    }
    return next ?? value;
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    const record = value as Record<string, unknown>;
    let next: Record<string, unknown> | undefined;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const item = record[key];
      const mapped = mapStrings(item, map);
      if (mapped !== item && next === undefined) {
        next = {};
        // The keys before this one, unchanged, in their order.
        for (const earlier in record) {
          if (earlier === key) break;
          if (Object.hasOwn(record, earlier)) next[earlier] = record[earlier];
        }
      }
      if (next !== undefined) next[key] = mapped;
    }
    return next ?? value;
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
  const parts = message.content as Array<Record<string, unknown>>;
  let content: Array<Record<string, unknown>> | undefined;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
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
    if (next !== part && content === undefined) content = parts.slice(0, index);
    if (content !== undefined) content.push(next);
  }
  return content === undefined ? message : ({ ...message, content } as ModelMessage);
}

/**
 * Redacts every message whole with `redactMessages` (unclipped), memoised by message identity:
 * what the facts of a summary are checked against, and what `redactForSummary` clips.
 */
export function redactWhole(messages: readonly ModelMessage[]): readonly ModelMessage[] {
  const output = new Array<ModelMessage>(messages.length);
  let misses = 0;
  for (let index = 0; index < messages.length; index++) {
    const known = redactions.get(messages[index]!);
    if (known !== undefined) output[index] = known.whole;
    else misses++;
  }
  if (misses === 0) return output;
  if (misses === messages.length) {
    // A span never redacted (the first summary of a history): no lists of what is missing.
    const fresh = redactMessages(messages).messages;
    for (let index = 0; index < messages.length; index++) remember(messages[index]!, fresh[index]!);
    return fresh;
  }
  const missing: ModelMessage[] = [];
  const positions: number[] = [];
  for (let index = 0; index < messages.length; index++) {
    if (output[index] !== undefined) continue;
    missing.push(messages[index]!);
    positions.push(index);
  }
  const fresh = redactMessages(missing).messages;
  for (let position = 0; position < missing.length; position++) {
    output[positions[position]!] = fresh[position]!;
    remember(missing[position]!, fresh[position]!);
  }
  return output;
}

function remember(message: ModelMessage, whole: ModelMessage): void {
  redactions.set(message, { whole, limit: unclipped, clipped: undefined });
}

/**
 * Redacts a span for the summariser: every message whole (`redactWhole`), then cuts the strings
 * the transcript clips to `limit` characters (their start and end kept). Redacting only a window
 * around each cut let a secret that starts outside the window (a PEM key whose header falls in the
 * elided middle) through line by line; the redactor memoises by content, so redacting whole
 * outputs costs once per distinct text. `whole`, when given, is `redactWhole(messages)` already.
 */
export function redactForSummary(
  messages: readonly ModelMessage[],
  limit: number,
  whole?: readonly ModelMessage[],
): ModelMessage[] {
  const output = new Array<ModelMessage>(messages.length);
  // Counted, not listed: a first summary misses every message of its span, and a list of their
  // positions grew by copies to the span's length. A missing message is one `output` lacks.
  let misses = 0;
  for (let index = 0; index < messages.length; index++) {
    const known = redactions.get(messages[index]!);
    if (known?.limit === limit) output[index] = known.clipped!;
    else misses++;
  }
  if (misses === 0) return output;
  // Without `whole`, the missing messages are redacted as a list of their own, in order.
  const missed =
    whole === undefined
      ? redactWhole(messages.filter((_, index) => output[index] === undefined))
      : undefined;
  // Most strings are shorter than the limit: returned here, since `clipMiddle` made an options
  // object per call (tens of thousands of strings on a large span) to return them unchanged.
  const clip = (text: string) => (text.length <= limit ? text : clipMiddle(text, limit));
  let position = 0;
  for (let index = 0; index < messages.length; index++) {
    if (output[index] !== undefined) continue;
    const source = missed === undefined ? whole![index]! : missed[position++]!;
    const message = mapClippedStrings(source, clip);
    output[index] = message;
    const known = redactions.get(messages[index]!);
    if (known === undefined) {
      redactions.set(messages[index]!, { whole: source, limit, clipped: message });
    } else {
      known.limit = limit;
      known.clipped = message;
    }
  }
  return output;
}

// By message identity: a history summarised again (a retry with a smaller budget, a background
// job redone, the next compaction of a long session whose middle still holds these objects) skips
// the walk `redactMessages` makes of every message even when its text memo hits. The unclipped form
// is kept apart from the clipped one, so the facts (unclipped) and the transcript (clipped) of one
// summary share one redaction. Messages are never mutated by Baton; like the token counter's
// identity memo, this assumes callers do not mutate a message in place either (a stale entry would
// still be a redacted text). One map for both forms: a second table of 50,000 entries, grown by
// doubling, was a few MiB per large span.
const redactions = new WeakMap<ModelMessage, Redaction>();

/**
 * `Redaction.limit` before the first clip: no limit is negative. A small integer rather than NaN,
 * which the field held as a number box of its own, per message of a span.
 */
const unclipped = -1;

interface Redaction {
  /** `redactMessages` of the message, unclipped. */
  whole: ModelMessage;
  /** The limit `clipped` was cut to (`unclipped` before the first clip: equal to none). */
  limit: number;
  clipped: ModelMessage | undefined;
}
