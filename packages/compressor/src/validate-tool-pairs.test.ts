import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateToolPairs } from './index.js';
import { assistant, calls, results, toolTurn, user } from './test-utils/history.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';

const codes = (messages: ModelMessage[]) =>
  validateToolPairs(messages).problems.map((problem) => problem.code);

describe('validateToolPairs', () => {
  it('accepts a valid history with parallel calls and a trailing unanswered call', () => {
    const parallel = calls(['read', 'grep']);
    const trailing = calls(['bash']);
    expect(
      validateToolPairs([
        { role: 'system', content: 'rules' },
        user('go'),
        parallel.message,
        results([parallel.ids[1]!], ['grep'], 'b'),
        results([parallel.ids[0]!], ['read'], 'a'),
        assistant('ok'),
        trailing.message,
      ]),
    ).toEqual({ valid: true, problems: [] });
  });

  it('reports each kind of problem with its index', () => {
    const [call, result] = toolTurn('read', 'x') as [ModelMessage, ModelMessage];
    expect(codes([user('go'), result])).toEqual([
      'tool_message_out_of_place',
      'orphan_tool_result',
    ]);
    expect(codes([user('go'), call, assistant('later')])).toEqual(['missing_tool_result']);
    expect(codes([user('go'), call, user('interrupt'), result])).toEqual([
      'missing_tool_result',
      'tool_message_out_of_place',
      'result_not_adjacent',
    ]);
    expect(codes([user('go'), call, result, result])).toEqual(['duplicate_tool_result']);
    expect(codes([user('go'), { role: 'system', content: 'late' }])).toEqual([
      'system_not_leading',
    ]);
    expect(codes([assistant('hi'), user('go')])).toEqual(['first_not_user']);
    const problem = validateToolPairs([user('go'), call, assistant('later')]).problems[0]!;
    expect(problem.index).toBe(1);
    expect(problem.toolCallId).toBeDefined();
  });

  it('reads OpenAI chat messages too', () => {
    const openai = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'tool', tool_call_id: 'c9', content: 'stray' },
    ];
    expect(validateToolPairs(openai).problems.map((problem) => problem.code)).toEqual([
      'orphan_tool_result',
    ]);
  });

  it('holds for generated valid histories and catches a dropped result', () => {
    fc.assert(
      fc.property(historyArbitrary, fc.nat(), (messages, pick) => {
        expect(validateToolPairs(messages).valid).toBe(true);
        // Drop one tool message that answers a call of a non-final assistant message.
        const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
        const candidates = messages
          .map((message, index) => ({ message, index }))
          .filter(({ message, index }) => message.role === 'tool' && index < lastAssistant);
        fc.pre(candidates.length > 0);
        const { index } = candidates[pick % candidates.length]!;
        const broken = messages.filter((_, position) => position !== index);
        expect(validateToolPairs(broken).valid).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
