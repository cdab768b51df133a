import type { ModelMessage } from '@ai-sdk/provider-utils';
import { extractHandoffFacts, measureRetention } from '@baton/fallback';
import { createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CompactionNotEffectiveError, ContextBudgetError, ContextCompressor } from './index.js';
import { structuredSummary } from './test-utils/structured-summary.js';

const counter = createTokenCounter({ encoding: 'o200k_base' });

const word = fc.constantFrom(
  'rename',
  'the',
  'parser',
  'and',
  'check',
  'config',
  'loader',
  'please',
  'migration',
  'tests',
  'deploy',
  'Staging',
  'ok',
  'why',
);
// Asks of every length: a two-word nudge, a sentence, and ones past the 200-character key.
const ask = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 70 }), fc.nat({ max: 9_999 }))
  .map(([words, tag]) => `${words.join(' ')} #${tag}`);
const path = fc.constantFrom('src/index.ts', 'packages/api/server.ts', 'lib/db.py', 'README.md');
const step = fc.oneof(
  ask.map((text): ModelMessage[] => [
    { role: 'user', content: text },
    { role: 'assistant', content: `Working on it: ${text.slice(0, 40)}` },
  ]),
  fc
    .tuple(fc.constantFrom('bash', 'read_file', 'edit'), path, fc.boolean(), fc.nat({ max: 999 }))
    .map(([tool, file, failed, n]): ModelMessage[] => {
      const id = `call-${tool}-${n}`;
      return [
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: id, toolName: tool, input: { path: file } }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: id,
              toolName: tool,
              output: {
                type: 'text',
                value: `${failed ? `Error: ${file}:${n} unexpected token\n` : ''}${'output line\n'.repeat(n % 40)}done`,
              },
            },
          ],
        },
      ];
    }),
);
// Many asks, competing with errors, files and tools for the handoff's room.
const history = fc
  .tuple(fc.array(step, { minLength: 12, maxLength: 40 }), ask)
  .map(([steps, last]): ModelMessage[] => [
    { role: 'system', content: 'You are a coding agent.' },
    ...steps.flat(),
    { role: 'user', content: last },
  ]);

function textOf(messages: readonly ModelMessage[]): string {
  return messages
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content
            .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : ''))
            .join('\n'),
    )
    .join('\n');
}

describe('verified summary: earlier asks', () => {
  const outcomes: Record<string, number> = {};
  afterAll(() => {
    console.info(`verified-asks outcomes: ${JSON.stringify(outcomes)}`);
    // The property must mostly compare real verified summaries, not receipt fallbacks.
    expect(outcomes.summarized ?? 0).toBeGreaterThan(50);
  });

  it('a summary missing every ask still holds at least the asks the receipt holds at the same budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        history,
        fc.double({ min: 0.3, max: 0.7, noNaN: true }),
        fc.integer({ min: 0, max: 400 }),
        async (messages, ratio, protectLastNTokens) => {
          const targetTokens = Math.floor(counter.countMessages(messages) * ratio);
          const options = { counter, protectLastNTokens, retryDelayMs: 0, maxAttempts: 1 };
          const facts = extractHandoffFacts(messages);
          const asksOf = async (strategy: 'receipt' | 'summarize') => {
            const compressor = new ContextCompressor({
              ...options,
              // Holds none of the span's asks: every one must come from the top-up.
              summarizer: async () => structuredSummary('Kept the build green.'),
            });
            try {
              const result = await compressor.compress(messages, { targetTokens, strategy });
              return {
                asks: measureRetention(textOf(result.messages), facts).userAsks ?? 0,
                fallback: result.usedFallback,
              };
            } catch (error) {
              // Not compactable to this budget: nothing to compare.
              if (
                CompactionNotEffectiveError.isInstance(error) ||
                ContextBudgetError.isInstance(error)
              )
                return undefined;
              throw error;
            }
          };
          const receipt = await asksOf('receipt');
          const verified = await asksOf('summarize');
          if (receipt === undefined || verified === undefined) {
            outcomes.skipped = (outcomes.skipped ?? 0) + 1;
            return;
          }
          const kind = verified.fallback ? 'fallback' : 'summarized';
          outcomes[kind] = (outcomes[kind] ?? 0) + 1;
          expect(verified.asks).toBeGreaterThanOrEqual(receipt.asks);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});
