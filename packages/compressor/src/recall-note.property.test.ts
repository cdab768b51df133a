import type { ModelMessage } from '@ai-sdk/provider-utils';
import { InvalidInputError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CompactionNotEffectiveError,
  type CompressionStrategy,
  ContextBudgetError,
  ContextCompressor,
  type ContextCompressorOptions,
  validateToolPairs,
} from './index.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * The `recall` option: every handoff and receipt names the span it replaced and the tool that reads
 * it back; receipt items name the message they came from. Without the option nothing is promised.
 * Over generated histories and repeated compactions (a compacted history compacted again).
 */
const counter = createSimpleCounter();
const toolName = 'baton_recall';
const notePattern = /\(Messages (\d+)–(\d+) of the history this compaction received/;
const seed = 4_242;

function insertText(messages: readonly ModelMessage[]): string[] {
  return messages.flatMap((message) => {
    const options = message.providerOptions?.baton as { inserted?: unknown } | undefined;
    if (typeof options?.inserted !== 'string') return [];
    return [
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    ];
  });
}

async function compressOr(
  compressor: ContextCompressor,
  input: ModelMessage[],
  ratio: number,
  strategy: CompressionStrategy,
) {
  const target = Math.max(1, Math.floor(counter.countMessages(input) * ratio));
  try {
    return await compressor.compress(input, { targetTokens: target, strategy });
  } catch (error) {
    if (CompactionNotEffectiveError.isInstance(error) || ContextBudgetError.isInstance(error)) {
      return undefined;
    }
    throw error;
  }
}

describe('recall note in inserts', () => {
  for (const strategy of ['summarize', 'receipt'] as const) {
    it(`${strategy}: names the replaced span and the tool; receipt items name their message; twice over`, async () => {
      let noted = 0;
      await fc.assert(
        fc.asyncProperty(
          historyArbitrary,
          historyArbitrary,
          fc.double({ min: 0.3, max: 0.8, noNaN: true }),
          fc.integer({ min: 0, max: 1_500 }),
          async (history, more, ratio, protectLastNTokens) => {
            const options: ContextCompressorOptions = {
              counter,
              protectLastNTokens,
              summaryTargetTokens: 200,
              retryDelayMs: 0,
              summarizer: async () => structuredSummary(),
            };
            const withRecall = new ContextCompressor({ ...options, recall: { toolName } });
            const without = new ContextCompressor(options);
            let messages = history;
            // Each compressor goes on from its own output: a later handoff builds on the earlier
            // one, so the plain one fed the recall one's insert would carry its notes forward.
            let plainMessages = history;
            for (const next of [[], more.filter((message) => message.role !== 'system')]) {
              const input = [...messages, ...next];
              const result = await compressOr(withRecall, input, ratio, strategy);
              const plain = await compressOr(without, [...plainMessages, ...next], ratio, strategy);
              if (plain !== undefined) {
                for (const text of insertText(plain.messages)) {
                  expect(text).not.toContain(toolName);
                  expect(text).not.toMatch(/\(msg \d+\)/);
                }
                if (plain.strategy !== 'none') plainMessages = plain.messages;
              }
              if (result === undefined || result.strategy === 'none') continue;
              // No problem a provider would reject that the input did not already have: a history
              // ending on calls still running, continued by `more`, leaves them unanswered.
              const known = new Set(
                validateToolPairs(input).problems.map(
                  (problem) => `${problem.code} ${problem.toolCallId}`,
                ),
              );
              for (const problem of validateToolPairs(result.messages).problems) {
                expect(known).toContain(`${problem.code} ${problem.toolCallId}`);
              }
              if (result.withinBudget) {
                expect(result.tokensAfter).toBeLessThanOrEqual(
                  Math.max(1, Math.floor(counter.countMessages(input) * ratio)),
                );
              }
              const removed = result.event.removedMessageIndexes;
              const [insert] = insertText(result.messages);
              if (insert === undefined || removed.length === 0 || result.strategy !== strategy) {
                messages = result.messages;
                continue;
              }
              const match = notePattern.exec(insert);
              expect(match, insert.slice(0, 300)).not.toBeNull();
              const [from, to] = [Number(match![1]), Number(match![2])];
              expect(insert).toContain(`\`${toolName}\``);
              // The span covers every removed message and lies inside the input.
              expect(Math.min(...removed)).toBeGreaterThanOrEqual(from);
              expect(Math.max(...removed)).toBeLessThanOrEqual(to);
              expect(to).toBeLessThan(input.length);
              for (const found of insert.matchAll(/\(msg (\d+)\)/g)) {
                const index = Number(found[1]);
                expect(index).toBeGreaterThanOrEqual(from);
                expect(index).toBeLessThanOrEqual(to);
              }
              noted++;
              messages = result.messages;
            }
          },
        ),
        { numRuns: 60, seed },
      );
      // The property must mostly exercise real compactions that carry the note.
      expect(noted).toBeGreaterThan(20);
    }, 120_000);
  }

  it('receipt items carry the index of the message they came from', async () => {
    const messages: ModelMessage[] = [{ role: 'user', content: 'Fix the build.' }];
    for (let step = 0; step < 12; step++) {
      messages.push(
        {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              toolCallId: `c${step}`,
              toolName: 'readFile',
              input: { path: `src/module-${step}.ts` },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: `c${step}`,
              toolName: 'readFile',
              output: { type: 'text', value: `export const v${step} = ${'1 + '.repeat(60)}1;` },
            },
          ],
        },
      );
    }
    messages.push({ role: 'user', content: 'Now run the tests.' });
    const compressor = new ContextCompressor({
      counter,
      protectLastNTokens: 50,
      recall: { toolName },
    });
    const result = await compressor.compress(messages, {
      targetTokens: Math.floor(counter.countMessages(messages) * 0.5),
      strategy: 'receipt',
    });
    const [insert] = insertText(result.messages);
    // `src/module-3.ts` was read by the call at message 7 (1 + 2 * 3); its result is message 8.
    expect(insert).toMatch(/src\/module-3\.ts[^\n]*\(msg [78]\)/);
  });

  it('rejects a tool name that is not one', () => {
    for (const name of ['', 'has space', 'back`tick', 'x'.repeat(65)]) {
      expect(() => new ContextCompressor({ recall: { toolName: name } })).toThrow(
        InvalidInputError,
      );
    }
  });
});
