import { InvalidInputError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ContextCompressor,
  fromOpenAIChat,
  type OpenAIChatMessage,
  toOpenAIChat,
  validateToolPairs,
} from './index.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';

const openai: OpenAIChatMessage[] = [
  { role: 'system', content: 'You are helpful.' },
  { role: 'user', content: 'Read the config.' },
  {
    role: 'assistant',
    content: 'Reading it.',
    tool_calls: [
      {
        id: 'call_a',
        type: 'function',
        function: { name: 'read', arguments: '{"path":"config.json"}' },
      },
      {
        id: 'call_b',
        type: 'function',
        function: { name: 'stat', arguments: '{"path":"config.json"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_a', content: '{"debug":true}' },
  { role: 'tool', tool_call_id: 'call_b', content: '120 bytes' },
  { role: 'assistant', content: 'Debug is on.' },
];

describe('OpenAI chat adapters', () => {
  it('converts to AI SDK messages, naming tool results after their calls', () => {
    const messages = fromOpenAIChat(openai);
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading it.' },
        {
          type: 'tool-call',
          toolCallId: 'call_a',
          toolName: 'read',
          input: { path: 'config.json' },
        },
        {
          type: 'tool-call',
          toolCallId: 'call_b',
          toolName: 'stat',
          input: { path: 'config.json' },
        },
      ],
    });
    // The two consecutive `tool` messages become one AI SDK tool message.
    expect(messages).toHaveLength(5);
    expect(messages[3]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_a',
          toolName: 'read',
          output: { type: 'text', value: '{"debug":true}' },
        },
        {
          type: 'tool-result',
          toolCallId: 'call_b',
          toolName: 'stat',
          output: { type: 'text', value: '120 bytes' },
        },
      ],
    });
    expect(messages[4]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Debug is on.' }],
    });
  });

  it('maps developer to system, keeps non-JSON arguments as text and empty ones as {}', () => {
    const messages = fromOpenAIChat([
      { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'echo', arguments: 'not json' } },
          { id: 'c2', type: 'function', function: { name: 'list', arguments: '' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'tool', tool_call_id: 'c2', content: 'x' },
      { role: 'tool', tool_call_id: 'orphan', name: 'named', content: 'y' },
    ]);
    expect(messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: 'not json' },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'list', input: {} },
      ],
    });
    expect(messages).toHaveLength(4);
    const results = messages[3]!.content as Array<{ toolName: string; output: unknown }>;
    expect(results.map((part) => part.toolName)).toEqual(['echo', 'list', 'named']);
    expect(results[0]!.output).toEqual({ type: 'text', value: 'a\nb' });
  });

  it('rejects untrusted JSON field by field with InvalidInputError naming the path', () => {
    const cases: Array<[unknown, string]> = [
      [[{ role: 'function', content: 'x' }], 'messages[0].role'],
      [['text'], 'messages[0]'],
      [
        [
          { role: 'user', content: 'ok' },
          { role: 'assistant', tool_calls: [{ id: 1 }] },
        ],
        'messages[1].tool_calls[0]',
      ],
      [[{ role: 'assistant', tool_calls: 'x' }], 'messages[0].tool_calls'],
      [
        [{ role: 'assistant', tool_calls: [{ id: 'a', function: { name: 3, arguments: '{}' } }] }],
        'messages[0].tool_calls[0].function.name',
      ],
      [[{ role: 'tool', content: 'x' }], 'messages[0].tool_call_id'],
      [[{ role: 'user', content: 5 }], 'messages[0].content'],
      [[{ role: 'user', content: [{ type: 'text', text: 5 }] }], 'messages[0].content[0].text'],
      [[{ role: 'system', content: [{ type: 'image_url' }] }], 'messages[0].content[0]'],
      ['nope', 'messages'],
    ];
    for (const [input, path] of cases) {
      try {
        fromOpenAIChat(input as never);
        expect.unreachable(path);
      } catch (error) {
        expect(InvalidInputError.isInstance(error), path).toBe(true);
        expect((error as InvalidInputError).path).toBe(path);
      }
    }
  });

  it('round-trips OpenAI messages', () => {
    expect(toOpenAIChat(fromOpenAIChat(openai))).toEqual(openai);
  });

  it('keeps generated histories valid both ways', () => {
    fc.assert(
      fc.property(historyArbitrary, (messages) => {
        const chat = toOpenAIChat(messages);
        expect(validateToolPairs(chat).valid).toBe(true);
        expect(validateToolPairs(fromOpenAIChat(chat)).valid).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('is stable after one round trip (property)', () => {
    fc.assert(
      fc.property(historyArbitrary, (messages) => {
        const chat = toOpenAIChat(messages);
        expect(toOpenAIChat(fromOpenAIChat(chat))).toEqual(chat);
      }),
      { numRuns: 300 },
    );
  });

  it('lets OpenAI SDK users compress', async () => {
    const long: OpenAIChatMessage[] = [...openai];
    for (let turn = 0; turn < 20; turn++) {
      long.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `c${turn}`,
            type: 'function',
            function: { name: 'bash', arguments: '{"cmd":"make"}' },
          },
        ],
      });
      long.push({ role: 'tool', tool_call_id: `c${turn}`, content: 'build output\n'.repeat(100) });
    }
    long.push({ role: 'user', content: 'Status?' }, { role: 'assistant', content: 'All good.' });
    const compressor = new ContextCompressor({
      counter: createSimpleCounter(),
      protectLastNTokens: 200,
    });
    const result = await compressor.compress(fromOpenAIChat(long), {
      targetTokens: 2_000,
      strategy: 'receipt',
    });
    const back = toOpenAIChat(result.messages);
    expect(validateToolPairs(back).problems).toEqual([]);
    expect(back.at(-1)).toEqual({ role: 'assistant', content: 'All good.' });
    expect(back.length).toBeLessThan(long.length);
  });
});
