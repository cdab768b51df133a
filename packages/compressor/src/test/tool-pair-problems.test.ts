import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateToolPairs } from '../index.js';
import { historyArbitrary } from '../test-utils/history-arbitrary.js';
import { toolPairProblems } from './index.js';

const call = (id: string, providerExecuted?: boolean) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: 'run',
  input: {},
  ...(providerExecuted ? { providerExecuted } : {}),
});
const result = (id: string) => ({
  type: 'tool-result' as const,
  toolCallId: id,
  toolName: 'run',
  output: { type: 'text' as const, value: 'done' },
});

describe('toolPairProblems', () => {
  it('accepts answered calls, in AI SDK and OpenAI chat shapes', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [call('a'), call('b')] },
      { role: 'tool', content: [result('a')] },
      { role: 'tool', content: [result('b')] },
      { role: 'assistant', content: [call('c', true), result('c')] },
    ];
    expect(toolPairProblems(messages)).toEqual([]);
    const chat = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a' }] },
      { role: 'tool', content: 'done', tool_call_id: 'a' },
    ];
    expect(toolPairProblems(chat)).toEqual([]);
  });

  it('names each kind of broken pairing', () => {
    expect(toolPairProblems([{ role: 'tool', content: [result('a')] }])).toEqual([
      '#0: tool message without a preceding call',
    ]);
    expect(toolPairProblems([{ role: 'user', content: [result('a')] }])).toEqual([
      '#0: result a outside a tool message',
    ]);
    const broken: ModelMessage[] = [
      { role: 'assistant', content: [call('a'), call('b')] },
      { role: 'tool', content: [result('a'), result('a'), result('x')] },
      { role: 'user', content: 'next' },
    ];
    expect(toolPairProblems(broken)).toEqual([
      '#1: result a twice',
      '#1: result x without its call',
      '#0: call b never answered',
    ]);
    // A result after an unrelated user message no longer answers its call.
    expect(
      toolPairProblems([
        { role: 'assistant', content: [call('a')] },
        { role: 'user', content: 'interrupt' },
        { role: 'tool', content: [result('a')] },
      ]),
    ).toEqual(['#0: call a never answered', '#2: tool message without a preceding call']);
  });

  it('lets the last assistant message wait for its results only when asked', () => {
    const open: ModelMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [call('a')] },
    ];
    expect(toolPairProblems(open)).toEqual(['#1: call a never answered']);
    expect(toolPairProblems(open, { allowOpenCalls: true })).toEqual([]);
    // Only at the end: an open call that anything but tool messages follows is still reported.
    expect(
      toolPairProblems([...open, { role: 'user', content: 'and?' }], { allowOpenCalls: true }),
    ).toEqual(['#1: call a never answered']);
  });

  it('agrees with validateToolPairs on generated histories, before and after breaking one', () => {
    fc.assert(
      fc.property(historyArbitrary, fc.nat(), (history, cut) => {
        const messages = history as ModelMessage[];
        const agree = (list: ModelMessage[]) => {
          const production = validateToolPairs(list).problems.filter(
            // The production check also asks that systems lead and a user opens: not pairing.
            (problem) => problem.code !== 'system_not_leading' && problem.code !== 'first_not_user',
          );
          expect(toolPairProblems(list, { allowOpenCalls: true }).length > 0).toBe(
            production.length > 0,
          );
        };
        agree(messages);
        if (messages.length > 0)
          agree(messages.filter((_, index) => index !== cut % messages.length));
      }),
    );
  });
});
