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

describe('validateToolPairs on many parallel calls', () => {
  /** CPU ms of validating one assistant message with `count` parallel calls and their results. */
  function cpuOf(count: number, salt: string): { ms: number; valid: boolean } {
    const ids = Array.from({ length: count }, (_, index) => `${salt}-${index}`);
    const messages: ModelMessage[] = [
      { role: 'user', content: 'run every check' },
      {
        role: 'assistant',
        content: ids.map((toolCallId) => ({
          type: 'tool-call' as const,
          toolCallId,
          toolName: 'check',
          input: {},
        })),
      },
      {
        role: 'tool',
        content: ids.map((toolCallId) => ({
          type: 'tool-result' as const,
          toolCallId,
          toolName: 'check',
          output: { type: 'text' as const, value: 'ok' },
        })),
      },
    ];
    const started = process.cpuUsage();
    const { valid } = validateToolPairs(messages);
    const spent = process.cpuUsage(started);
    return { ms: (spent.user + spent.system) / 1000, valid };
  }

  // Each result looked its id up in the list of the message's calls: 80,000 calls took 14 s.
  it('stays linear in the number of calls of one message (10,000 vs 40,000)', () => {
    const salt = Math.random().toString(36).slice(2, 8);
    cpuOf(2000, salt);
    const small = cpuOf(10_000, salt);
    const large = cpuOf(40_000, salt);
    expect(small.valid && large.valid).toBe(true);
    expect(large.ms, `${small.ms} ms at 10,000, ${large.ms} ms at 40,000`).toBeLessThan(
      Math.max(400, small.ms * 8),
    );
  }, 60_000);
});
