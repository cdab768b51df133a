import { createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { conversation, loadCorpus } from './arbitraries.ts';
import { extractFacts } from './facts.ts';
import { type Message, userText } from './messages.ts';
import { headOf, providerProblems, score } from './score.ts';
import { FAILURE_MARKER, FAILURE_MESSAGE } from './summarizers.ts';

const counter = createTokenCounter({ encoding: 'o200k_base' });
const codes = (problems: string[]) => problems.map((problem) => problem.split('@')[0]);

function scoreOf(input: Message[], output: Message[] | undefined, targetTokens = 1_000_000) {
  return score({
    input,
    inputFacts: extractFacts(input),
    output,
    threw: output === undefined,
    targetTokens,
    counter,
    failureMarker: FAILURE_MARKER,
    failureMessageLength: FAILURE_MESSAGE.length,
  });
}

const orphan = (id: string): Message => ({
  role: 'tool',
  content: [
    {
      type: 'tool-result',
      toolCallId: id,
      toolName: 'read_file',
      output: { type: 'text', value: 'x' },
    },
  ],
});

describe('providerProblems (what a provider would reject)', () => {
  test('a well-formed conversation has none', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        expect(providerProblems(messages, true)).toEqual([]);
      }),
    );
  });

  test('a tool result inserted at any position with no call is an orphan', () => {
    fc.assert(
      fc.property(conversation, fc.nat(), (messages, at) => {
        const position = at % (messages.length + 1);
        const broken = [
          ...messages.slice(0, position),
          orphan('nobody-called-this'),
          ...messages.slice(position),
        ];
        expect(codes(providerProblems(broken, true))).toContain('orphan_tool_result');
      }),
    );
  });

  test('removing the assistant message of any tool call orphans its results', () => {
    const withCalls = conversation.filter((messages) =>
      messages.some(
        (m) =>
          m.role === 'assistant' &&
          Array.isArray(m.content) &&
          m.content.some((p) => p.type === 'tool-call'),
      ),
    );
    fc.assert(
      fc.property(withCalls, fc.nat(), (messages, pick) => {
        const callers = messages.flatMap((m, index) =>
          m.role === 'assistant' &&
          Array.isArray(m.content) &&
          m.content.some((p) => p.type === 'tool-call')
            ? [index]
            : [],
        );
        const drop = callers[pick % callers.length]!;
        const broken = messages.filter((_, index) => index !== drop);
        expect(codes(providerProblems(broken, true))).toContain('orphan_tool_result');
      }),
    );
  });

  test('a call whose result is removed is missing its result, unless it is the final message', () => {
    const withResults = conversation.filter((messages) => messages.some((m) => m.role === 'tool'));
    fc.assert(
      fc.property(withResults, fc.nat(), (messages, pick) => {
        const tools = messages.flatMap((m, index) => (m.role === 'tool' ? [index] : []));
        const drop = tools[pick % tools.length]!;
        const broken = messages.filter((_, index) => index !== drop);
        // The owning call is final when nothing but its own results followed the dropped message.
        let owner = drop - 1;
        while (messages[owner]!.role === 'tool') owner--;
        const final = broken.slice(owner + 1).every((m) => m.role === 'tool');
        const found = codes(providerProblems(broken, true));
        if (final) expect(found).not.toContain('missing_tool_result');
        else expect(found).toContain('missing_tool_result');
      }),
    );
  });

  test('role order: a system message after the start, an empty message, a first turn not the user', () => {
    fc.assert(
      fc.property(conversation, fc.nat(), (messages, at) => {
        const position = 1 + (at % messages.length);
        const late = [
          ...messages.slice(0, position),
          { role: 'system', content: 'late' } as Message,
          ...messages.slice(position),
        ];
        const starts = late.findIndex((m) => m.role !== 'system');
        if (starts < position)
          expect(codes(providerProblems(late, true))).toContain('system_not_leading');
        const empty = [
          ...messages.slice(0, position),
          { role: 'user', content: '  ' } as Message,
          ...messages.slice(position),
        ];
        expect(codes(providerProblems(empty, true))).toContain('empty_message');
      }),
    );
    const assistantFirst: Message[] = [
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'hi' },
    ];
    expect(codes(providerProblems(assistantFirst, true))).toContain('first_not_user');
    expect(codes(providerProblems(assistantFirst, false))).not.toContain('first_not_user');
  });
});

describe('score', () => {
  test('the input itself: accepted, head and latest ask kept, every fact kept, unchanged', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const result = scoreOf(messages, structuredClone(messages));
        expect(result).toMatchObject({
          accepted: true,
          headKept: true,
          latestAskKept: true,
          behaviour: 'unchanged',
        });
        expect(result.tokensAfter).toBe(result.tokensBefore);
        expect(result.facts).toEqual({ files: 1, errors: 1, tools: 1, asks: 1 });
      }),
      { numRuns: 50 },
    );
  });

  test('losing the head or changing the latest ask by one character is caught', () => {
    fc.assert(
      fc.property(conversation, fc.string({ minLength: 1, maxLength: 1 }), (messages, extra) => {
        const firstUser = messages.findIndex((m) => m.role === 'user');
        const withoutHead = messages.filter((_, index) => index !== firstUser);
        const asks = messages.flatMap((m, index) => (m.role === 'user' ? [index] : []));
        if (
          asks.length > 1 &&
          userText(messages[asks[asks.length - 1]!]!) !== userText(messages[firstUser]!)
        ) {
          expect(scoreOf(messages, withoutHead).headKept).toBe(false);
        }
        const last = asks[asks.length - 1]!;
        const changed = messages.map((m, index) =>
          index === last ? ({ role: 'user', content: `${userText(m)}${extra}` } as Message) : m,
        );
        const ask = userText(messages[last]!)!;
        // Only a miss when no other user message has the same text.
        if (!messages.some((m, index) => index !== last && userText(m) === ask)) {
          expect(scoreOf(messages, changed).latestAskKept).toBe(false);
        }
      }),
      { numRuns: 50 },
    );
  });

  test('on summariser failure: exception, error text as summary, fallback, silent loss', () => {
    const input: Message[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix the failing test in src/app.ts' },
      { role: 'assistant', content: 'Running the tests. '.repeat(40) },
      { role: 'user', content: 'Error: expected 2 got 3 in tests/app.test.ts' },
      { role: 'assistant', content: 'Patched src/app.ts. '.repeat(40) },
      { role: 'user', content: 'Now update README.md' },
    ];
    expect(scoreOf(input, undefined).behaviour).toBe('exception');
    const head = headOf(input);
    const tail = input.slice(-1);
    const errorSummary: Message = { role: 'user', content: `Summary: ${FAILURE_MESSAGE}` };
    expect(scoreOf(input, [...head, errorSummary, ...tail]).behaviour).toBe(
      'error text as summary',
    );
    const receipt: Message = {
      role: 'user',
      content: `Earlier work, not summarised (${FAILURE_MARKER}): ${'step '.repeat(200)}`,
    };
    expect(scoreOf(input, [...head, receipt, ...tail]).behaviour).toBe('notice or fallback');
    const lost = scoreOf(input, [...head, ...tail]);
    expect(lost.behaviour).toBe('silent loss');
    expect(lost.facts.errors).toBe(0);
    expect(lost.facts.files).toBeLessThan(1);
  });

  test('on the dev transcripts, an unchanged output keeps everything and a tail-only output loses the head', () => {
    const corpus = loadCorpus();
    if (corpus.length === 0)
      return console.log('score: ../shared/corpus absent, corpus case skipped');
    for (const { id, messages } of corpus) {
      const same = scoreOf(messages, structuredClone(messages));
      expect(same.facts, id).toEqual({ files: 1, errors: 1, tools: 1, asks: 1 });
      expect([same.headKept, same.latestAskKept, same.behaviour], id).toEqual([
        true,
        true,
        'unchanged',
      ]);
      const tail = messages.slice(-1);
      if (tail[0]!.role !== 'user' && !messages.slice(0, 2).some((m) => tail.includes(m))) {
        expect(scoreOf(messages, tail).headKept, id).toBe(false);
      }
    }
  }, 60_000);
});
