import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ContextCompressor,
  createContextManager,
  type SummarizerRequest,
  toJsonMessage,
} from './index.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Attack: the caller's array changes while a compaction waits for its summariser (a chat server
 * appends the user's next message to the conversation's array while the agent's step is being
 * prepared; an app trims its history). `compress` and `prepare` used to read the array again after
 * the summariser answered, so the result held messages that were never counted against the budget
 * or seen by the summariser, and a compaction was recorded as covering messages it never saw.
 * A call works on the messages as they were when it was made.
 */
const counter = createSimpleCounter();

type Mutation =
  | { kind: 'push'; count: number }
  | { kind: 'truncate'; keep: number }
  | { kind: 'replace'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat() }),
);

function mutate(messages: ModelMessage[], change: Mutation): void {
  if (change.kind === 'push') {
    for (let index = 0; index < change.count; index++)
      messages.push({ role: 'user', content: `A late message ${index}: ${'late '.repeat(80)}` });
  } else if (change.kind === 'truncate') {
    messages.length = change.keep % messages.length;
  } else {
    messages[change.at % messages.length] = { role: 'user', content: 'Replaced while waiting.' };
  }
}

/** One tool round trip whose output is `repeat` words long. */
function toolStep(index: number, repeat: number): ModelMessage[] {
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: `c${index}`, toolName: 'bash', input: {} }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `c${index}`,
          toolName: 'bash',
          output: { type: 'text', value: `step ${index} ${'listing '.repeat(repeat)}` },
        },
      ],
    },
  ];
}

/** Messages as plain JSON, Baton's record lines included (same process, same key). */
const shape = (messages: readonly ModelMessage[]) => JSON.stringify(messages.map(toJsonMessage));

describe('the caller changes its array while the summariser runs', () => {
  it('compress returns what it returns for the array as it was when called', async () => {
    let mutated = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary,
        mutation,
        fc.constantFrom('summarize' as const, 'auto' as const),
        async (history, change, strategy) => {
          runs++;
          const target = Math.floor(counter.countMessages(history) * 0.6);
          const run = async (onCall: (() => void) | undefined) => {
            const compressor = new ContextCompressor({
              counter,
              protectLastNTokens: 300,
              summarizer: async (_request: SummarizerRequest) => {
                onCall?.();
                return structuredSummary();
              },
            });
            try {
              return await compressor.compress(array, { targetTokens: target, strategy });
            } catch (error) {
              return error as Error;
            }
          };
          const array = history.slice();
          let changed = false;
          const attacked = await run(() => {
            if (changed) return;
            changed = true;
            mutate(array, change);
          });
          if (changed) mutated++;
          const expected = await (async () => {
            array.length = 0;
            array.push(...history);
            return run(undefined);
          })();
          if (attacked instanceof Error || expected instanceof Error) {
            expect(attacked instanceof Error && attacked.name).toBe(
              expected instanceof Error && expected.name,
            );
            return;
          }
          expect(shape(attacked.messages)).toBe(shape(expected.messages));
          expect(attacked.tokensAfter).toBe(expected.tokensAfter);
        },
      ),
      { numRuns: 60 },
    );
    // Premise: the array was changed mid-call in a good share of runs (the summariser ran; `auto`
    // often fits by masking alone). About half of the runs on average: more than half failed
    // about one seed in four, a quarter fails about one in ten thousand.
    expect(mutated).toBeGreaterThan(runs / 4);
  }, 120_000);

  it('prepare: a message the app appends meanwhile is not in this call, and is in the next', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 24, max: 40 }),
        fc.constantFrom('summarize' as const, 'auto' as const),
        async (steps, strategy) => {
          let late: ModelMessage | undefined;
          const history: ModelMessage[] = [
            { role: 'system', content: 'You are a coding agent.' },
            { role: 'user', content: 'Fix the parser.' },
          ];
          const manager = createContextManager({
            counter,
            contextWindow: 3_000,
            reservedOutputTokens: 300,
            strategy,
            summarizer: async () => {
              if (late === undefined) {
                late = { role: 'user', content: 'Stop: revert the last change instead.' };
                history.push(late);
              }
              return structuredSummary();
            },
          });
          for (let index = 0; index < steps; index++) {
            history.push(...toolStep(index, 60));
          }
          const prepared = await manager.prepare(history);
          // Premise: this call compacted and the summariser ran (so the app's push happened).
          expect(prepared.report.compacted).toBe(true);
          expect(late).toBeDefined();
          expect(prepared.messages).not.toContain(late);
          history.push({ role: 'assistant', content: 'Reverting.' });
          const next = await manager.prepare(history);
          // Control: the late ask is a real message of the conversation and the next call sends it.
          expect(next.messages).toContain(late);
          expect(next.messages.at(-1)).toBe(history.at(-1));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('prepare under the trigger: the app changing its array meanwhile sends nothing uncounted', async () => {
    let changedRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1_560, max: 2_080 }),
        mutation,
        fc.noBias(fc.integer({ min: 1, max: 40_000 })),
        async (size, change, lateSize) => {
          const history: ModelMessage[] = [
            { role: 'system', content: 'You are a coding agent.' },
            { role: 'user', content: 'Fix the parser.' },
          ];
          // Past the background threshold (1,512 tokens), under the trigger (2,160).
          for (let index = 0; counter.countMessages(history) < size; index++) {
            history.push(...toolStep(index, 30));
          }
          let changed = false;
          // A background job starts within the call (past the soft threshold, under the trigger);
          // the app changes its array while that call has not returned yet.
          const manager = createContextManager({
            counter,
            contextWindow: 3_000,
            reservedOutputTokens: 300,
            background: true,
            summarizer: async () => {
              if (!changed) {
                changed = true;
                if (change.kind === 'push')
                  history.push({ role: 'user', content: `Late: ${'word '.repeat(lateSize)}` });
                else mutate(history, change);
              }
              return structuredSummary();
            },
          });
          const passed = history.slice();
          const prepared = await manager.prepare(history);
          await manager.close();
          // Premise: the call passed the messages through (under the trigger) and the app's change
          // happened before it returned.
          expect(prepared.report.compacted).toBe(false);
          if (!changed) return;
          changedRuns++;
          expect(prepared.messages).toEqual(passed);
          expect(prepared.messages.every((message, at) => message === passed[at])).toBe(true);
          expect(counter.countMessages(prepared.messages)).toBe(prepared.report.inputTokens);
        },
      ),
      { numRuns: 60 },
    );
    expect(changedRuns).toBeGreaterThan(30);
  });

  it('control: an array left alone is returned as it is, not copied', async () => {
    const history: ModelMessage[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix the parser.' },
    ];
    const manager = createContextManager({ counter, contextWindow: 3_000 });
    expect((await manager.prepare(history)).messages).toBe(history);
  });
});
