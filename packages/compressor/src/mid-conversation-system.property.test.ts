import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeMessages } from './analyze-messages.js';
import {
  CompactionNotEffectiveError,
  type CompressionStrategy,
  type CompressResult,
  ContextBudgetError,
  ContextCompressor,
  validateToolPairs,
} from './index.js';
import { deepFreeze } from './test-utils/deep-freeze.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Apps insert system messages mid-conversation (rotated credentials, mode switches, reminders).
 * Every strategy keeps each of them verbatim and in order, counts them in the budget, and throws
 * `ContextBudgetError` (never drops one) when they cannot fit. Seeded for CI (`seed`).
 */
const seed = 2_024;
const counter = createSimpleCounter();
const strategies: CompressionStrategy[] = ['truncate', 'mask', 'summarize', 'receipt', 'auto'];

/** `history` with system messages placed at the given cut points after the first user message. */
function withSystems(history: ModelMessage[], picks: number[], sizes: number[]): ModelMessage[] {
  const { cutAllowed } = analyzeMessages(history);
  const first = history.findIndex((message) => message.role === 'user');
  const cuts: number[] = [];
  for (let index = first + 1; index <= history.length; index++)
    if (cutAllowed[index]) cuts.push(index);
  if (cuts.length === 0) return history;
  const chosen = new Set(picks.map((pick) => cuts[pick % cuts.length]!));
  const output: ModelMessage[] = [];
  let note = 0;
  for (let index = 0; index <= history.length; index++) {
    if (chosen.has(index)) {
      const size = sizes[note % sizes.length] ?? 0;
      output.push({
        role: 'system',
        content: `System note ${++note}: credentials rotated; use the new key. ${'Reminder. '.repeat(size)}`,
      });
    }
    if (index < history.length) output.push(history[index]!);
  }
  return output;
}

function checkSystems(input: readonly ModelMessage[], result: CompressResult<ModelMessage>) {
  const systems = input.filter((message) => message.role === 'system');
  const kept = result.messages.filter((message) => message.role === 'system');
  // Verbatim (the very objects) and in order.
  expect(kept).toEqual(systems);
  for (const [index, message] of kept.entries()) expect(message).toBe(systems[index]);
  expect(result.tokensAfter).toBe(counter.countMessages(result.messages));
  // Nothing else breaks: no pairing problem the input did not have.
  const inputProblems = new Set(validateToolPairs(input).problems.map((problem) => problem.code));
  for (const problem of validateToolPairs(result.messages).problems)
    expect(inputProblems.has(problem.code), problem.message).toBe(true);
}

describe('system messages in the middle of a conversation', () => {
  const outcomes: Record<string, number> = {};
  afterAll(() => {
    console.info(`mid-conversation system outcomes: ${JSON.stringify(outcomes)}`);
    expect(outcomes.compacted ?? 0).toBeGreaterThan(500);
    expect(outcomes.ContextBudgetError ?? 0).toBeGreaterThan(0);
  });

  const property = (strategy: CompressionStrategy) =>
    fc.asyncProperty(
      historyArbitrary,
      fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
      fc.array(fc.integer({ min: 0, max: 80 }), { minLength: 1, maxLength: 4 }),
      fc.double({ min: 0.15, max: 0.9, noNaN: true }),
      fc.integer({ min: 0, max: 2_000 }),
      async (history, picks, sizes, ratio, protectLastNTokens) => {
        const input = deepFreeze(withSystems(history, picks, sizes));
        const target = Math.max(1, Math.floor(counter.countMessages(input) * ratio));
        const compressor = new ContextCompressor({
          counter,
          protectLastNTokens,
          summaryTargetTokens: 300,
          retryDelayMs: 0,
          summarizer: async () => structuredSummary(),
        });
        try {
          const result = await compressor.compress(input, { targetTokens: target, strategy });
          checkSystems(input, result);
          if (strategy !== 'mask') expect(result.tokensAfter).toBeLessThanOrEqual(target);
          const kind = result.strategy === 'none' ? 'none' : 'compacted';
          outcomes[kind] = (outcomes[kind] ?? 0) + 1;
        } catch (error) {
          const kind = error instanceof Error ? error.name : 'other';
          outcomes[kind] = (outcomes[kind] ?? 0) + 1;
          if (CompactionNotEffectiveError.isInstance(error)) {
            checkSystems(input, error.result as CompressResult<ModelMessage>);
          } else if (ContextBudgetError.isInstance(error)) {
            // Typed, with numbers that really exceed the target: the system messages alone (all
            // of them, wherever they sit) plus the latest turn leave no room.
            expect(error.requiredTokens).toBeGreaterThan(target);
            const systemTokens = input
              .filter((message) => message.role === 'system')
              .reduce((sum, message) => sum + counter.countMessage(message), 0);
            expect(error.headTokens + error.protectedTokens).toBeGreaterThanOrEqual(systemTokens);
          } else throw error;
        }
      },
    );

  for (const strategy of strategies) {
    it(`${strategy}: keeps every system message verbatim, in order, within budget (or a typed error)`, async () => {
      await fc.assert(property(strategy), { numRuns: 400, seed });
    });
  }
});
