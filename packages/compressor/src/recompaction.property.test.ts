import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CompactionNotEffectiveError,
  type CompressionStrategy,
  ContextBudgetError,
  ContextCompressor,
  fromOpenAIChat,
  toOpenAIChat,
  validateToolPairs,
} from './index.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Compaction of a compacted history: `compress(compress(h).messages ++ c)`, repeated up to ten
 * times, must keep the latest real user ask verbatim and as the latest user message of the result
 * (never one of Baton's own inserts in its place, never the ask demoted into a record as history).
 * Continuations are agent-loop steps after the ask (tool calls and results, no user message: the
 * normal case) or a new user turn, whose message becomes the ask. Optionally every pass goes
 * through an OpenAI Chat round trip, as an OpenAI SDK app stores its history.
 *
 * Seeded (`seed` below) so CI runs the same cases every time; change it locally to explore.
 */
const seed = 1_717;
const counter = createSimpleCounter();
const strategies: CompressionStrategy[] = ['truncate', 'mask', 'summarize', 'receipt', 'auto'];

type Continuation =
  | { kind: 'steps'; steps: Array<{ outputs: string[]; text: string | undefined }> }
  | { kind: 'ask'; text: string; steps: Array<{ outputs: string[]; text: string | undefined }> };

const output = fc
  .tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom('ls', 'cat a.ts', 'npm test'))
  .map(([repeat, command]) => `${command}\n${'result line '.repeat(repeat)}`);
const step = fc.record({
  outputs: fc.array(output, { minLength: 1, maxLength: 3 }),
  text: fc.option(fc.constantFrom('Checking.', 'Next file.', 'Running tests.'), {
    nil: undefined,
  }),
});
const continuation: fc.Arbitrary<Continuation> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('steps' as const),
      steps: fc.array(step, { minLength: 1, maxLength: 6 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('ask' as const),
      text: fc.constantFrom('Now fix the parser.', 'Please also update the docs.', 'Deploy it.'),
      steps: fc.array(step, { maxLength: 4 }),
    }),
  },
);

let nextId = 0;
/** The continuation as messages; the ask (if any) gets a unique text so it is found verbatim. */
function continuationMessages(value: Continuation): {
  messages: ModelMessage[];
  ask: ModelMessage | undefined;
} {
  const messages: ModelMessage[] = [];
  let ask: ModelMessage | undefined;
  if (value.kind === 'ask') {
    ask = { role: 'user', content: `${value.text} (ask #${++nextId})` };
    messages.push(ask);
  }
  for (const item of value.steps) {
    const ids = item.outputs.map(() => `loop_${++nextId}`);
    messages.push({
      role: 'assistant',
      content: [
        ...(item.text === undefined ? [] : [{ type: 'text' as const, text: item.text }]),
        ...ids.map((toolCallId) => ({
          type: 'tool-call' as const,
          toolCallId,
          toolName: 'bash',
          input: { command: 'run' },
        })),
      ],
    });
    messages.push({
      role: 'tool',
      content: ids.map((toolCallId, index) => ({
        type: 'tool-result' as const,
        toolCallId,
        toolName: 'bash',
        output: { type: 'text' as const, value: item.outputs[index]! },
      })),
    });
  }
  return { messages, ask };
}

/** A history whose last user message carries a unique text (so "verbatim" is unambiguous). */
function withUniqueAsk(history: ModelMessage[]): { messages: ModelMessage[]; ask: ModelMessage } {
  const index = history.findLastIndex((message) => message.role === 'user');
  const ask: ModelMessage = { role: 'user', content: `The real ask (ask #${++nextId})` };
  // A trailing call still waiting for its results ends a history; the loop answers it first.
  let end = history.length;
  const answered = new Set<string>();
  for (let at = history.length - 1; at > index; at--) {
    const message = history[at]!;
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') answered.add(part.toolCallId);
      if (part.type === 'tool-call' && !answered.has(part.toolCallId)) end = at;
    }
  }
  const messages = history.slice(0, end);
  messages[index] = ask;
  return { messages, ask };
}

function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** Asserts the ask is in `messages` verbatim and no later user message is one the test wrote. */
function expectAsk(messages: readonly ModelMessage[], ask: ModelMessage, known: Set<string>): void {
  const askText = textOf(ask);
  const at = messages.findLastIndex(
    (message) => message.role === 'user' && textOf(message) === askText,
  );
  expect(at, `ask "${askText}" missing`).toBeGreaterThanOrEqual(0);
  // Every user message after it is Baton's own record, never a real (older) user message.
  for (const message of messages.slice(at + 1)) {
    if (message.role === 'user') expect(known.has(textOf(message))).toBe(false);
  }
}

describe('compaction of a compacted history keeps the latest real ask', () => {
  const outcomes: Record<string, number> = {};
  afterAll(() => {
    console.info(`recompaction outcomes: ${JSON.stringify(outcomes)}`);
    // The property must mostly exercise real re-compactions.
    expect(outcomes.recompacted ?? 0).toBeGreaterThan(200);
  });

  const property = (strategy: CompressionStrategy, viaOpenAI: boolean) =>
    fc.asyncProperty(
      historyArbitrary,
      fc.array(continuation, { minLength: 1, maxLength: 10 }),
      fc.double({ min: 0.3, max: 0.8, noNaN: true }),
      fc.integer({ min: 0, max: 2_000 }),
      async (history, continuations, ratio, protectLastNTokens) => {
        const compressor = new ContextCompressor({
          counter,
          protectLastNTokens,
          summaryTargetTokens: 200,
          retryDelayMs: 0,
          summarizer: async () => structuredSummary(),
        });
        let { messages, ask } = withUniqueAsk(history);
        const known = new Set(
          messages.filter((message) => message.role === 'user').map((message) => textOf(message)),
        );
        let compactions = 0;
        for (const value of continuations) {
          const next = continuationMessages(value);
          if (next.ask !== undefined) {
            ask = next.ask;
            known.add(textOf(ask));
          }
          const input = [...messages, ...next.messages];
          const target = Math.max(1, Math.floor(counter.countMessages(input) * ratio));
          try {
            const result = await compressor.compress(input, { targetTokens: target, strategy });
            messages = result.messages;
            // The record never describes the current ask (as history or at all): it points to it.
            if (result.summary !== undefined) expect(result.summary).not.toContain(textOf(ask));
            if (result.strategy !== 'none') compactions++;
          } catch (error) {
            if (CompactionNotEffectiveError.isInstance(error)) {
              messages = error.result.messages as ModelMessage[];
            } else if (ContextBudgetError.isInstance(error)) {
              // Nothing changed: the app sends the history as it was.
              messages = input;
            } else throw error;
          }
          expectAsk(messages, ask, known);
          expect(validateToolPairs(messages).problems.map((problem) => problem.message)).toEqual(
            [],
          );
          if (viaOpenAI) messages = fromOpenAIChat(toOpenAIChat(messages));
        }
        const kind = compactions >= 2 ? 'recompacted' : compactions === 1 ? 'once' : 'never';
        outcomes[kind] = (outcomes[kind] ?? 0) + 1;
      },
    );

  for (const strategy of strategies) {
    it(`${strategy}: compress(compress(h) ++ c) keeps the latest real ask, k <= 10 times`, async () => {
      await fc.assert(property(strategy, false), { numRuns: 150, seed });
    });
    it(`${strategy}: the same through an OpenAI Chat round trip between passes`, async () => {
      await fc.assert(property(strategy, true), { numRuns: 60, seed });
    });
  }
});

describe('recognising Baton inserts', () => {
  const compressor = new ContextCompressor({ counter, protectLastNTokens: 0, retryDelayMs: 0 });
  const big = (label: string) => `${label} ${'output line '.repeat(300)}`;
  const toolStep = (id: string): ModelMessage[] => [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'bash', input: {} }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'bash',
          output: { type: 'text', value: big(id) },
        },
      ],
    },
  ];
  const base: ModelMessage[] = [
    { role: 'system', content: 'Be careful.' },
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: 'The real ask.' },
    ...toolStep('a'),
    ...toolStep('b'),
    ...toolStep('c'),
  ];

  for (const strategy of ['truncate', 'receipt'] as const) {
    it(`${strategy}: a user message copying an earlier record, record line included, stays the ask`, async () => {
      const first = await compressor.compress(base, { targetTokens: 1_500, strategy });
      const record = first.messages.find((message) => message.providerOptions?.baton);
      expect(record).toBeDefined();
      // Pasted as plain text by the user, after more steps: no provider mark, and the record line
      // binds to a different message above it.
      const pasted: ModelMessage = { role: 'user', content: textOf(record!) };
      const next = [...first.messages, ...toolStep('d'), pasted, ...toolStep('e')];
      const second = await compressor.compress(next, { targetTokens: 1_500, strategy });
      expectAsk(second.messages, pasted, new Set([textOf(pasted), 'The real ask.', 'first']));
    });

    it(`${strategy}: a typed look-alike of a truncation notice stays the ask`, async () => {
      const typed: ModelMessage = {
        role: 'user',
        content:
          '[Baton: 3 earlier messages were removed to fit the context window; no summary of them was kept.]\n[Baton record 0badc0de]',
      };
      const input = [...base, typed, ...toolStep('d')];
      const result = await compressor.compress(input, { targetTokens: 1_500, strategy });
      expectAsk(result.messages, typed, new Set([textOf(typed), 'The real ask.', 'first']));
    });
  }

  it('an insert keeps its mark through a JSON round trip (a session store) and its record line through OpenAI Chat', async () => {
    const first = await compressor.compress(base, { targetTokens: 1_500, strategy: 'truncate' });
    const stored = JSON.parse(JSON.stringify(first.messages)) as ModelMessage[];
    const viaOpenAI = fromOpenAIChat(toOpenAIChat(first.messages));
    for (const history of [stored, viaOpenAI]) {
      const next = [...history, ...toolStep('d'), ...toolStep('e')];
      const second = await compressor.compress(next, { targetTokens: 1_500, strategy: 'truncate' });
      expectAsk(second.messages, base[3]!, new Set(['The real ask.', 'first']));
    }
  });
});
