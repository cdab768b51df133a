import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextCompressor } from './index.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

const counter = createSimpleCounter();
const words = (count: number, salt: number) =>
  Array.from({ length: count }, (_, index) => `w${salt}x${index}`).join(' ');

// A conversation whose first exchange was given up (a huge first ask, its reply removed by an
// earlier compaction) holds only user messages past the head. The run of unanswered asks was then
// not the smallest tail at all: every earlier ask was summarised even when the run fitted, and kept
// only if `protectLastNTokens` allowed. It is now the smallest tail, as after an assistant's reply.
describe('unanswered asks with no reply after the head', () => {
  it('stay verbatim when they fit, whatever protectLastNTokens is', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1_200, max: 3_000 }),
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 0, max: 200 }),
        fc.constantFrom('summarize' as const, 'truncate' as const, 'receipt' as const),
        async (firstAskWords, asks, protectLastNTokens, strategy) => {
          const compressor = new ContextCompressor({
            counter,
            protectLastNTokens,
            minimumSavingsRatio: 0,
            maxAttempts: 1,
            retryDelayMs: 0,
            summarizer: async () => structuredSummary('Summary.'),
          });
          const run: ModelMessage[] = Array.from({ length: asks }, (_, index) => ({
            role: 'user',
            content: `ask ${index}: ${words(3, index)}`,
          }));
          const messages: ModelMessage[] = [
            { role: 'user', content: words(firstAskWords, 99) },
            ...run,
          ];
          const result = await compressor.compress(messages, { targetTokens: 1_000, strategy });
          for (const ask of run) expect(result.messages).toContain(ask);
          expect(result.tokensAfter).toBeLessThanOrEqual(1_000);
        },
      ),
      { numRuns: 40 },
    );
  });
});
