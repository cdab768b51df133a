import type { ModelMessage } from '@ai-sdk/provider-utils';
import { redactSecrets } from '@baton/fallback';
import { hmacSha256Hex } from './hmac-sha256.js';
import { storableText } from './storable-text.js';

/** What an inserted message stands for: an LLM or deterministic handoff, or a truncation notice. */
export type BatonInsertKind = 'handoff' | 'notice';

/**
 * The `providerOptions` key Baton marks its own inserted messages with. Providers read only their
 * own key, so the mark rides along unseen; the AI SDK, the middleware and the session store (plain
 * JSON) keep it.
 */
export const batonProviderOptionsKey = 'baton';

const recordLine = /\n\[Baton record ([0-9a-f]{16})\]$/;
const encoder = new TextEncoder();

/**
 * The key records are signed with when the caller sets none: random per process. A record is a
 * MAC, so nobody without the key (a user reading every handoff, a hostile tool output) can write
 * one that verifies; the price is that after a restart a record line alone (provider options
 * dropped) is no longer recognised unless `recordKey` is configured and kept.
 */
const processKey: Uint8Array = globalThis.crypto.getRandomValues(new Uint8Array(32));

/** The key as bytes: `recordKey` from the options, or the per-process random key. */
export function resolveRecordKey(recordKey: string | Uint8Array | undefined): Uint8Array {
  if (recordKey === undefined) return processKey;
  if (typeof recordKey === 'string') return encoder.encode(recordKey);
  return recordKey instanceof Uint8Array ? recordKey : new Uint8Array(0);
}

function textOf(message: ModelMessage | undefined): string {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** Tool call ids in a message: unique per step, so they tell two `tool` messages apart. */
function callIdsOf(message: ModelMessage | undefined): string {
  if (message === undefined || typeof message.content === 'string') return '';
  return message.content
    .map((part) =>
      part.type === 'tool-call' || part.type === 'tool-result' ? part.toolCallId : undefined,
    )
    .filter((id) => id !== undefined)
    .join(' ');
}

/**
 * Text as a redacting store keeps it, taken to redaction's fixpoint. Redaction is deterministic but
 * not always idempotent (a token glued to a private key is finished on a second pass), so binding
 * to one pass would break once a store redacts the text again; the fixpoint of `x` and of its
 * redacted form is the same text, so the record verifies before and after any number of passes.
 * It settles in one or two passes on every input tried; the bound only keeps a redactor that never
 * settles from looping.
 */
function stored(text: string): string {
  let current = text;
  for (let pass = 0; pass < 8; pass++) {
    const next = redactSecrets(current).text;
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * The MAC a record line carries: over the insert's own body and the message just above it (role,
 * text, tool call ids), each in the form a redacting store keeps. Binding the body stops a record
 * copied onto other text; binding the neighbour stops one copied into another position.
 */
function recordOf(key: Uint8Array, body: string, previous: ModelMessage | undefined): string {
  const fields = JSON.stringify([
    'baton-record-v2',
    previous?.role ?? '',
    stored(textOf(previous)),
    stored(callIdsOf(previous)),
    stored(body),
  ]);
  return hmacSha256Hex(key, encoder.encode(fields)).slice(0, 16);
}

/** The last line every insert ends with (the width is the same for any record). */
export const insertTagSample = '\n[Baton record 0000000000000000]';

/**
 * A message Baton inserts in place of removed history, placed right after `previous`. It carries two
 * marks, so later passes never take it for the user's ask:
 * - `providerOptions.baton.inserted`, which the AI SDK, the middleware and the store keep;
 * - a last line holding a keyed MAC of its body and of the message just above it, which survives
 *   conversions that drop provider options (an OpenAI Chat round trip, an app that stores role and
 *   text only).
 */
export function createInsert(
  text: string,
  kind: BatonInsertKind,
  previous: ModelMessage | undefined,
  key: Uint8Array,
): ModelMessage {
  // Well-formed and without NUL: the insert's text becomes the compaction's stored summary.
  const body = storableText(text);
  return {
    role: 'user',
    content: `${body}\n[Baton record ${recordOf(key, body, previous)}]`,
    providerOptions: { [batonProviderOptionsKey]: { inserted: kind } },
  };
}

/** The insert's text without its record line (what a later handoff builds on). */
export function insertBody(message: ModelMessage): string {
  return textOf(message).replace(recordLine, '');
}

/**
 * Whether `messages[index]` is a message Baton inserted. By its provider-options mark, which only
 * code can set; or, when a conversion dropped that mark, by its record line, accepted only when its
 * MAC verifies under the key for this body after this very neighbour. Text the user controls cannot
 * produce that without the key: a look-alike, a pasted record or one computed from public data stays
 * a user message, and the latest one stays the ask.
 */
export function isBatonInsert(
  messages: readonly ModelMessage[],
  index: number,
  key: Uint8Array,
): boolean {
  const message = messages[index];
  if (message?.role !== 'user') return false;
  const options = message.providerOptions?.[batonProviderOptionsKey] as
    | { inserted?: unknown }
    | undefined;
  if (typeof options?.inserted === 'string') return true;
  const text = textOf(message);
  const match = recordLine.exec(text);
  if (match === null) return false;
  const body = text.slice(0, match.index);
  return match[1] === recordOf(key, body, messages[index - 1]);
}
