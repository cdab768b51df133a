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
    expect(messages[4]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_b',
          toolName: 'stat',
          output: { type: 'text', value: '120 bytes' },
        },
      ],
    });
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
