import type { ModelMessage } from '@ai-sdk/provider-utils';

/** What an inserted message stands for: an LLM or deterministic handoff, or a truncation notice. */
export type BatonInsertKind = 'handoff' | 'notice';

/**
 * The `providerOptions` key Baton marks its own inserted messages with. Providers read only their
 * own key, so the mark rides along unseen; the AI SDK, the middleware and the session store (plain
 * JSON) keep it.
 */
export const batonProviderOptionsKey = 'baton';

const recordLine = /\n\[Baton record ([0-9a-f]{8})\]$/;

function textOf(message: ModelMessage | undefined): string {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** FNV-1a (32 bit) of the role and text of the message an insert follows, as 8 hex digits. */
function bindingOf(previous: ModelMessage | undefined): string {
  const text = `${previous?.role ?? ''}\u0000${textOf(previous)}`;
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The last line every insert ends with (the width is the same for any binding). */
export const insertTagSample = '\n[Baton record 00000000]';

/**
 * A message Baton inserts in place of removed history, placed right after `previous`. It carries two
 * marks, so later passes never take it for the user's ask:
 * - `providerOptions.baton.inserted`, which the AI SDK, the middleware and the store keep;
 * - a last line binding it to the message just above it, which survives conversions that drop
 *   provider options (an OpenAI Chat round trip, an app that stores role and text only).
 */
export function createInsert(
  text: string,
  kind: BatonInsertKind,
  previous: ModelMessage | undefined,
): ModelMessage {
  return {
    role: 'user',
    content: `${text}\n[Baton record ${bindingOf(previous)}]`,
    providerOptions: { [batonProviderOptionsKey]: { inserted: kind } },
  };
}

/** The insert's text without its record line (what a later handoff builds on). */
export function insertBody(message: ModelMessage): string {
  return textOf(message).replace(recordLine, '');
}

/**
 * Whether `messages[index]` is a message Baton inserted. By its provider-options mark, which only
 * code can set; or, when a conversion dropped that mark, by its record line, accepted only when it
 * binds to the very message above it. A user who types a look-alike (or pastes an old record) does
 * not match the message above it, so it stays a user message; one crafted to match can only make
 * itself read as a record, while the message above it, the user's real ask, stays the ask.
 */
export function isBatonInsert(messages: readonly ModelMessage[], index: number): boolean {
  const message = messages[index];
  if (message?.role !== 'user') return false;
  const options = message.providerOptions?.[batonProviderOptionsKey] as
    | { inserted?: unknown }
    | undefined;
  if (typeof options?.inserted === 'string') return true;
  const match = recordLine.exec(textOf(message));
  return match !== null && match[1] === bindingOf(messages[index - 1]);
}
