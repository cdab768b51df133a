import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CompactionNotEffectiveError,
  ContextBudgetError,
  ContextCompressor,
  type SummarizerRequest,
} from './index.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { structuredSummary } from './test-utils/structured-summary.js';

const counter = createTokenCounter({ encoding: 'o200k_base' });

/** What one compression sent and returned, timings and signals left out. */
async function outcome(messages: ModelMessage[], summaryNote: string) {
  const requests: Array<Omit<SummarizerRequest, 'abortSignal'>> = [];
  const compressor = new ContextCompressor({
    counter,
    summarizerInputBudget: 2_000,
    summarizer: async ({ abortSignal: _signal, ...request }) => {
      requests.push(request);
      return structuredSummary(summaryNote);
    },
  });
  const targetTokens = Math.floor(counter.countMessages(messages) / 2);
  try {
    const result = await compressor.compress(messages, { targetTokens, strategy: 'summarize' });
    return {
      requests,
      messages: result.messages,
      strategy: result.strategy,
      // The event, its timings and time stamp left out.
      event: JSON.parse(
        JSON.stringify(result.event, (key, value) => (/Ms$|At$/.test(key) ? undefined : value)),
      ),
    };
  } catch (error) {
    // A history that cannot fit is an outcome too; any other failure fails the test.
    if (!ContextBudgetError.isInstance(error) && !CompactionNotEffectiveError.isInstance(error))
      throw error;
    return { requests, error: String(error) };
  }
}

/** A copy of `message` with other text: `tag` put in front of its strings. */
function edited(message: ModelMessage, tag: string): ModelMessage {
  const copy = structuredClone(message) as { content: unknown };
  if (typeof copy.content === 'string') copy.content = `${tag} ${copy.content}`;
  else
    for (const part of copy.content as Array<Record<string, unknown>>) {
      if (typeof part.text === 'string') part.text = `${tag} ${part.text}`;
      const output = part.output as { value?: unknown } | undefined;
      if (output !== undefined && typeof output.value === 'string')
        output.value = `${tag} ${output.value}`;
    }
  return copy as ModelMessage;
}

describe('a span summarised again', () => {
  it('sends and returns what fresh copies of the same messages give, after earlier messages were edited in place of others', async () => {
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary,
        fc.nat(),
        fc.constantFrom(
          'please check src/deploy/edited-script.ts',
          'Error: src/other/edited-file.ts failed',
        ),
        async (history, at, tag) => {
          // Summarised once: the memos now hold this span, keyed by its messages' identity.
          const first = await outcome(history, 'first');
          // The same objects again, and fresh copies of them: identical requests and results.
          expect(await outcome(history, 'first')).toEqual(first);
          expect(await outcome(structuredClone(history), 'first')).toEqual(first);
          // One earlier message replaced (every other object, the last one included, the same).
          // In the first half, where the summarised middle lies (the head and the tail stay).
          const index = 1 + (at % Math.max(1, Math.floor(history.length / 2)));
          const changed = history.map((message, position) =>
            position === index ? edited(message, tag) : message,
          );
          expect(await outcome(changed, 'second')).toEqual(
            await outcome(structuredClone(changed), 'second'),
          );
        },
      ),
      { numRuns: 100, seed: 20_261_126 },
    );
  }, 240_000);
});
