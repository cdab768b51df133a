import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompressionStrategy,
  ContextWindowExceededError,
  createContextManager,
  type SummarizerRequest,
  validateToolPairs,
} from './index.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Sequences of `prepare` calls with background compaction on: the loop grows, the user asks
 * again, the app edits an earlier message, summariser calls answer (or fail) at arbitrary points.
 * After any number of compactions, swapped in or computed on the spot, every prepared request keeps
 * tool calls and results paired, the latest real ask verbatim, and every system message.
 *
 * Seeded so CI runs the same cases every time; change it locally to explore.
 */
const seed = 4_242;

type Operation =
  | { kind: 'step'; outputs: number[] }
  | { kind: 'ask' }
  | { kind: 'edit'; at: number }
  | { kind: 'answer'; fail: boolean };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('step' as const),
      outputs: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ask' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('edit' as const), at: fc.nat({ max: 10_000 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('answer' as const), fail: fc.boolean() }),
  },
);

/** Histories that a loop can continue: no call left unanswered. */
const startArbitrary = historyArbitrary.filter(
  (history) => validateToolPairs([...history, { role: 'user', content: 'next' }]).valid,
);

let unique = 0;

function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The message with its text (or tool output) replaced, ids and roles kept. */
function edited(message: ModelMessage): ModelMessage {
  const text = `edited #${++unique}`;
  switch (message.role) {
    case 'user':
      return { role: 'user', content: text };
    case 'assistant':
      return typeof message.content === 'string'
        ? { role: 'assistant', content: text }
        : {
            role: 'assistant',
            content: message.content.map((part) =>
              part.type === 'text' ? { ...part, text } : part,
            ),
          };
    case 'tool':
      return {
        role: 'tool',
        content: message.content.map((part) =>
          part.type === 'tool-result' ? { ...part, output: { type: 'text', value: text } } : part,
        ),
      };
    default:
      return message;
  }
}

function loopStep(outputs: number[]): ModelMessage[] {
  const ids = outputs.map(() => `loop_${++unique}`);
  return [
    {
      role: 'assistant',
      content: ids.map((toolCallId) => ({
        type: 'tool-call' as const,
        toolCallId,
        toolName: 'bash',
        input: { command: 'run' },
      })),
    },
    {
      role: 'tool',
      content: ids.map((toolCallId, index) => ({
        type: 'tool-result' as const,
        toolCallId,
        toolName: 'bash',
        output: {
          type: 'text' as const,
          value: `out ${toolCallId} ${'line '.repeat(outputs[index] ?? 0)}`,
        },
      })),
    },
  ];
}

describe('background compaction over sequences of prepare calls (property)', () => {
  it('keeps tool pairs, the latest ask and every system message after any number of compactions', async () => {
    const outcomes: Record<string, number> = { compacted: 0, fromBackground: 0, wasted: 0 };
    await fc.assert(
      fc.asyncProperty(
        startArbitrary,
        fc.array(operation, { minLength: 5, maxLength: 45 }),
        fc.constantFrom<CompressionStrategy>('auto', 'summarize', 'receipt'),
        fc.constantFrom(0.5, 0.7, 0.9),
        async (start, operations, strategy, backgroundThreshold) => {
          const waiting: Array<(fail: boolean) => void> = [];
          const summarizer = (request: SummarizerRequest) =>
            new Promise<string>((resolve, reject) => {
              request.abortSignal.addEventListener('abort', () => reject(new Error('aborted')), {
                once: true,
              });
              waiting.push((fail) =>
                fail ? reject(new Error('down')) : resolve(structuredSummary(`s${++unique}`)),
              );
            });
          const manager = createContextManager({
            counter: createSimpleCounter(),
            contextWindow: 6_000,
            reservedOutputTokens: 500,
            threshold: 700,
            strategy,
            summarizer,
            compressor: { maxAttempts: 1 },
            background: true,
            backgroundThreshold,
          });
          const history = start.slice();
          for (const op of operations) {
            if (op.kind === 'step') history.push(...loopStep(op.outputs));
            else if (op.kind === 'ask')
              history.push({ role: 'user', content: `Next ask #${++unique}` });
            else if (op.kind === 'edit') {
              const at = op.at % history.length;
              history[at] = edited(history[at] as ModelMessage);
            } else {
              for (const answer of waiting.splice(0)) answer(op.fail);
              await new Promise((resolve) => setImmediate(resolve));
              continue;
            }
            // A synchronous compaction waits for its summariser: answer whatever asks meanwhile.
            const answering = setInterval(() => {
              for (const answer of waiting.splice(0)) answer(false);
            }, 1);
            let prepared: Awaited<ReturnType<typeof manager.prepare>>;
            try {
              prepared = await manager.prepare(history);
            } catch (error) {
              // A latest turn larger than the window: the only allowed failure.
              if (ContextWindowExceededError.isInstance(error)) return;
              throw error;
            } finally {
              clearInterval(answering);
            }
            if (prepared.report.compacted) outcomes.compacted = (outcomes.compacted ?? 0) + 1;
            if (prepared.event?.fromBackground === true)
              outcomes.fromBackground = (outcomes.fromBackground ?? 0) + 1;
            outcomes.wasted = (outcomes.wasted ?? 0) + (prepared.event?.backgroundWasted ?? 0);
            const sent = prepared.messages;
            expect(validateToolPairs(sent).problems).toEqual([]);
            for (const message of history.filter((message) => message.role === 'system'))
              expect(sent).toContainEqual(message);
            const ask = history.findLast((message) => message.role === 'user');
            if (ask !== undefined)
              expect(sent.some((message) => textOf(message) === textOf(ask))).toBe(true);
          }
          for (const answer of waiting.splice(0)) answer(false);
          await manager.close();
        },
      ),
      { seed, numRuns: 60 },
    );
    // The property must have exercised both paths, not only the easy one.
    expect(outcomes.fromBackground).toBeGreaterThan(0);
    expect((outcomes.compacted ?? 0) - (outcomes.fromBackground ?? 0)).toBeGreaterThan(0);
  });
});
