import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CompactionState, SessionState } from './create-session-tracker.js';
import { contentFingerprint, fingerprintMessages } from './fingerprint-messages.js';
import { sameMessage } from './same-message.js';
import { sealHash } from './seal-hash.js';
import { storedFingerprintMatches } from './stored-fingerprint.js';

/** Number of system messages the conversation starts with. */
export function leadingSystemCount(messages: readonly { role: string }[]): number {
  let count = 0;
  while (count < messages.length && messages[count]?.role === 'system') count++;
  return count;
}

export function withoutLeadingSystem<T extends { role: string }>(messages: readonly T[]): T[] {
  return messages.slice(leadingSystemCount(messages));
}

/** Identifies a conversation without a session id by its first non-system message. */
export function conversationKey(messages: readonly ModelMessage[]): string {
  const first = leadingSystemCount(messages);
  return fingerprintMessages(messages, Math.min(messages.length, first + 1));
}

/** True when `messages` still starts with the raw history `compaction` covered (system messages aside). */
export function coversPrefix(
  compaction: CompactionState,
  messages: readonly ModelMessage[],
  sealKey?: Uint8Array,
): boolean {
  const covered = compaction.coveredRawCount;
  if (messages.length < covered) return false;
  const known = compaction.coveredRaw;
  if (known !== undefined) {
    // The previous request's messages: comparing is mostly pointer checks, unlike hashing.
    for (let index = 0; index < covered; index++) {
      const message = messages[index] as ModelMessage;
      // A system message edited in place is the app's to send (see `splicedMessages`); one
      // inserted or removed moves every message after it: the prefix changed.
      if (
        message.role === 'system' &&
        (known[index] as ModelMessage | undefined)?.role === 'system'
      ) {
        continue;
      }
      if (!sameMessage(message, known[index])) return false;
    }
    return true;
  }
  // A restarted process has no earlier request to compare with: the whole-content hash when the
  // compaction stored one under the record key (the sampled one misses an edit deep inside a long
  // message), else the sampled one (sealed under the key, or bare), once.
  const matches =
    compaction.prefixContentHash === undefined || sealKey === undefined
      ? storedFingerprintMatches(
          compaction.prefixFingerprint,
          fingerprintMessages(messages, covered),
          sealKey,
        )
      : sealHash(contentFingerprint(messages, covered), sealKey) === compaction.prefixContentHash;
  if (!matches) return false;
  compaction.coveredRaw = messages.slice(0, covered);
  return true;
}

/**
 * The raw message count the state's compaction replaces, when the request still starts with the
 * history it covered. Without a store, conversations sharing a key (the same first message, or an
 * edited history) keep their own compactions: the one whose prefix matches becomes current.
 */
export function matchingCompaction(
  state: SessionState,
  messages: readonly ModelMessage[],
  sealKey?: Uint8Array,
): number | undefined {
  const compaction = state.compaction;
  if (compaction === undefined) return undefined;
  if (coversPrefix(compaction, messages, sealKey)) return compaction.coveredRawCount;
  if (state.headId !== undefined) return undefined;
  const index = state.otherCompactions.findIndex((other) => coversPrefix(other, messages, sealKey));
  if (index < 0) return undefined;
  const [found] = state.otherCompactions.splice(index, 1);
  if (found === undefined) return undefined;
  state.otherCompactions.unshift(compaction);
  state.compaction = found;
  return found.coveredRawCount;
}

/**
 * The current system messages, the compacted history, then the raw messages after `spliceAt`.
 * The compaction kept every system message of the history it covered verbatim; matching skips
 * system messages (apps rebuild them per call), so the ones sent are the request's own: an app
 * that edits a policy message mid-conversation has the edit sent, not the version compacted.
 */
export function splicedMessages(
  messages: readonly ModelMessage[],
  compacted: readonly ModelMessage[],
  spliceAt: number,
): ModelMessage[] {
  const lead = leadingSystemCount(messages);
  const body = withoutLeadingSystem(compacted);
  const output = messages.slice(0, lead);
  let kept = 0;
  for (const message of body) if (message.role === 'system') kept++;
  const current: ModelMessage[] = [];
  if (kept > 0) {
    for (let index = lead; index < spliceAt; index++) {
      if (messages[index]!.role === 'system') current.push(messages[index]!);
    }
  }
  // Only the same number can be paired in order (matching lines up every other message).
  const replace = kept > 0 && current.length === kept;
  let next = 0;
  for (const message of body) {
    output.push(replace && message.role === 'system' ? current[next++]! : message);
  }
  for (let index = spliceAt; index < messages.length; index++) output.push(messages[index]!);
  return output;
}
