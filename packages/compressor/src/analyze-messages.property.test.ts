import { isRecord } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LooseMessage, type MessageFacts, messageFacts } from './analyze-messages.js';

// The reader as it was before its per-message set and lists were made only when needed: the
// reference the cut positions (tool pairs never split) are worked out from.
function referenceFacts(message: LooseMessage): MessageFacts {
  const callIds: string[] = [];
  const resultIds: string[] = [];
  const providerExecuted = new Set<string>();
  if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (!isRecord(part)) continue;
      if (part.type === 'tool-call' && typeof part.toolCallId === 'string') {
        if (part.providerExecuted === true) {
          providerExecuted.add(part.toolCallId);
          continue;
        }
        callIds.push(part.toolCallId);
      } else if (part.type === 'tool-result' && typeof part.toolCallId === 'string') {
        if (!providerExecuted.has(part.toolCallId)) resultIds.push(part.toolCallId);
      }
    }
  }
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (isRecord(call) && typeof call.id === 'string') callIds.push(call.id);
    }
  }
  if (typeof message.tool_call_id === 'string') resultIds.push(message.tool_call_id);
  return { role: message.role, callIds, resultIds };
}

const id = fc.constantFrom('a', 'b', 'c');
const part = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.constant('x') }),
  fc.record(
    { type: fc.constant('tool-call'), toolCallId: id, providerExecuted: fc.boolean() },
    { requiredKeys: ['type', 'toolCallId'] },
  ),
  fc.record({ type: fc.constant('tool-result'), toolCallId: id }),
  fc.constant(null),
);
const message: fc.Arbitrary<LooseMessage> = fc.record(
  {
    role: fc.constantFrom('assistant', 'tool', 'user'),
    content: fc.oneof(fc.constant('text'), fc.array(part, { maxLength: 5 })),
    tool_calls: fc.array(fc.oneof(fc.record({ id }), fc.constant(3)), { maxLength: 3 }),
    tool_call_id: id,
  },
  { requiredKeys: ['role'] },
);

describe('messageFacts', () => {
  it('reads the same calls and results as the reference, provider-executed pairs excluded', () => {
    fc.assert(
      fc.property(message, (item) => {
        expect(messageFacts(item)).toEqual(referenceFacts(item));
      }),
      { numRuns: 1_000 },
    );
  });
});
