import { isRecord } from '@baton/tokens';

/**
 * Structural facts about a conversation that every strategy needs: which messages hold tool calls and
 * results, and where a cut keeps each call with its results. Accepts AI SDK `ModelMessage`s and, for
 * the validator, OpenAI chat messages (`tool_calls` / `tool_call_id`).
 */

/** The minimal message shape Baton reads. */
export interface LooseMessage {
  role: string;
  content?: unknown;
  [key: string]: unknown;
}

export interface MessageFacts {
  role: string;
  /** Ids of tool calls whose results are expected in a later `tool` message. */
  callIds: readonly string[];
  /** Ids answered by tool results in this message. */
  resultIds: readonly string[];
}

export interface MessageAnalysis {
  facts: MessageFacts[];
  /**
   * `cutAllowed[i]` (0..n): a cut right before message `i` leaves no call on one side and its result on
   * the other, and does not leave a `tool` message first after the cut.
   */
  cutAllowed: boolean[];
}

/**
 * No ids: one list shared by every message without calls or results (most of a history), rather
 * than two empty lists per message. `withId` never appends to it. Not frozen: a frozen array has
 * its own elements kind, and `for...of` over it allocated an iterator per message.
 */
const noIds: readonly string[] = [];

/**
 * `ids` with `id` appended. The first id makes a one-element literal: pushing onto an empty list
 * reserves room for 17, per message of a 50,000-message history.
 */
function withId(ids: readonly string[], id: string): readonly string[] {
  if (ids.length === 0) return [id];
  // Not `noIds` (empty): a list this function made.
  (ids as string[]).push(id);
  return ids;
}

export function messageFacts(message: LooseMessage): MessageFacts {
  let callIds = noIds;
  let resultIds = noIds;
  // Made only when a message holds a provider-executed call (rare): one per message otherwise.
  let providerExecuted: Set<string> | undefined;
  if (Array.isArray(message.content)) {
    // Indexed: `for...of` made an iterator and its results per message of a long history.
    const parts: unknown[] = message.content;
    for (let position = 0; position < parts.length; position++) {
      const part = parts[position];
      if (!isRecord(part)) continue;
      if (part.type === 'tool-call' && typeof part.toolCallId === 'string') {
        if (part.providerExecuted === true) {
          // The provider ran it and its result sits in this same message.
          providerExecuted ??= new Set();
          providerExecuted.add(part.toolCallId);
          continue;
        }
        callIds = withId(callIds, part.toolCallId);
      } else if (part.type === 'tool-result' && typeof part.toolCallId === 'string') {
        if (providerExecuted?.has(part.toolCallId) !== true) {
          resultIds = withId(resultIds, part.toolCallId);
        }
      }
    }
  }
  // OpenAI chat shape.
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (isRecord(call) && typeof call.id === 'string') callIds = withId(callIds, call.id);
    }
  }
  if (typeof message.tool_call_id === 'string') {
    resultIds = withId(resultIds, message.tool_call_id);
  }
  return { role: message.role, callIds, resultIds };
}

export function analyzeMessages(messages: readonly LooseMessage[]): MessageAnalysis {
  const n = messages.length;
  const facts = messages.map(messageFacts);
  // Each result pairs with the nearest call of its id before it: some servers number calls per
  // turn (`call_0` in every turn), and pairing with the first call of an id made the whole history
  // from that first call to the last result one block no cut could enter.
  const callIndex = new Map<string, number>();
  // Difference array over cut positions: a call at c answered at r forbids cuts c+1..r. Each later
  // result adds its own range from c+1; together they forbid c+1..(the last result), as one range
  // per call did, without a second map of 'last result by id'.
  const blocked = new Int32Array(n + 2);
  // Indexed loops: iterators and entry pairs, per message and per call, were most of what this
  // allocated on a 50,000-message history.
  for (let index = 0; index < n; index++) {
    // A hole (a sparse list) is skipped, as `forEach` would.
    if (!(index in facts)) continue;
    const { callIds, resultIds } = facts[index]!;
    // Results first: a result in the message of a call of its id does not pair with it.
    for (let at = 0; at < resultIds.length; at++) {
      const call = callIndex.get(resultIds[at]!);
      if (call === undefined) continue;
      blocked[call + 1]! += 1;
      blocked[index + 1]! -= 1;
    }
    for (let at = 0; at < callIds.length; at++) callIndex.set(callIds[at]!, index);
  }
  const cutAllowed: boolean[] = new Array(n + 1);
  let open = 0;
  for (let cut = 0; cut <= n; cut++) {
    open += blocked[cut]!;
    cutAllowed[cut] = open === 0 && (cut === n || facts[cut]!.role !== 'tool');
  }
  return { facts, cutAllowed };
}
