import type { ModelMessage } from '@ai-sdk/provider-utils';
import { InvalidInputError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromOpenAIChat, toOpenAIChat } from './index.js';

describe('fromOpenAIChat', () => {
  it('converts tool calls, results and developer messages', () => {
    const messages = fromOpenAIChat([
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } },
          { id: 'c2', type: 'function', function: { name: 'echo', arguments: 'not json' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'found' },
      {
        role: 'tool',
        tool_call_id: 'c2',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: { q: 'x' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'echo', input: 'not json' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'search',
            output: { type: 'text', value: 'found' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'echo',
            output: { type: 'text', value: 'a\nb' },
          },
        ],
      },
    ]);
  });

  it('rejects unknown roles and malformed calls with a path', () => {
    expect(() => fromOpenAIChat([{ role: 'function', content: 'x' }])).toThrow(
      /messages\[0\]\.role/,
    );
    try {
      fromOpenAIChat([{ role: 'assistant', content: '', tool_calls: [{ id: 1 }] }]);
      expect.unreachable();
    } catch (error) {
      expect(InvalidInputError.isInstance(error)).toBe(true);
      expect((error as InvalidInputError).path).toBe('messages[0].tool_calls[0]');
    }
  });

  it('round-trips through toOpenAIChat (property)', () => {
    const id = fc.stringMatching(/^call_[a-z0-9]{1,8}$/);
    const text = fc.string({ minLength: 1 });
    const turn = fc.record({
      user: text,
      reply: fc.option(text, { nil: undefined }),
      calls: fc.uniqueArray(
        fc.record({
          id,
          name: fc.constantFrom('read', 'bash'),
          input: fc.dictionary(fc.string(), fc.integer()),
          result: fc.string(),
        }),
        {
          selector: (call) => call.id,
          maxLength: 3,
        },
      ),
    });
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 5 }), (turns) => {
        // Call ids are unique per conversation, as providers require.
        const seen = new Set<string>();
        const messages: ModelMessage[] = [];
        for (const { user, reply, calls } of turns) {
          const fresh = calls.filter((call) => !seen.has(call.id));
          for (const call of fresh) seen.add(call.id);
          messages.push({ role: 'user', content: user });
          if (reply === undefined && fresh.length === 0) continue;
          messages.push({
            role: 'assistant',
            content: [
              ...(reply === undefined ? [] : [{ type: 'text' as const, text: reply }]),
              ...fresh.map((call) => ({
                type: 'tool-call' as const,
                toolCallId: call.id,
                toolName: call.name,
                input: call.input,
              })),
            ],
          });
          if (fresh.length > 0) {
            messages.push({
              role: 'tool',
              content: fresh.map((call) => ({
                type: 'tool-result' as const,
                toolCallId: call.id,
                toolName: call.name,
                output: { type: 'text' as const, value: call.result },
              })),
            });
          }
        }
        expect(fromOpenAIChat(toOpenAIChat(messages))).toEqual(messages);
      }),
    );
  });
});
