import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { validateToolPairs } from '@baton/compressor';
import { createTokenCounter } from '@baton/tokens';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { ContextWindowExceededError, resolveBudget } from './index.js';
import { agentHistory } from './test-utils/conversation.js';
import { toModelMessages } from './to-model-messages.js';
import { toProviderPrompt } from './to-provider-prompt.js';

const counter = createTokenCounter({ model: 'gpt-4o' });
const model = new MockLanguageModelV4({ modelId: 'gpt-4o' });

describe('compactionMiddleware (property)', () => {
  it('passes through under the trigger, else sends a valid prompt that fits and keeps the latest ask', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          turns: fc.integer({ min: 1, max: 40 }),
          toolOutputTokens: fc.integer({ min: 5, max: 600 }),
          replyTokens: fc.integer({ min: 5, max: 300 }),
          contextWindow: fc.integer({ min: 2_000, max: 60_000 }),
          threshold: fc.double({ min: 0.3, max: 1, noNaN: true }),
          maxOutputTokens: fc.option(fc.integer({ min: 100, max: 2_000 }), { nil: undefined }),
        }),
        async ({
          turns,
          toolOutputTokens,
          replyTokens,
          contextWindow,
          threshold,
          maxOutputTokens,
        }) => {
          const ask = `Latest ask ${turns}-${toolOutputTokens}: what is left to do?`;
          const history: ModelMessage[] = [
            { role: 'system', content: 'You are a careful coding agent.' },
            ...agentHistory(turns, toolOutputTokens, replyTokens),
            { role: 'user', content: ask },
          ];
          const prompt = toProviderPrompt(history);
          const params = maxOutputTokens === undefined ? { prompt } : { prompt, maxOutputTokens };
          const middleware = compactionMiddleware({ contextWindow, threshold, counter });
          const budget = resolveBudget({
            contextWindow,
            requestedOutputTokens: maxOutputTokens,
            modelMaxOutputTokens: 16_384,
            threshold,
            targetRatio: 0.6,
          });
          const tokens = counter.countMessages(prompt);
          let sent: LanguageModelV4Prompt;
          try {
            const result = await middleware.transformParams?.({ type: 'generate', params, model });
            if (result === undefined) throw new Error('no result');
            if (tokens <= budget.triggerTokens) {
              expect(result).toBe(params);
              return;
            }
            sent = result.prompt;
          } catch (error) {
            if (!ContextWindowExceededError.isInstance(error)) throw error;
            // Refusing is only right when the system prompt, first and latest turns cannot fit.
            expect(error.requiredTokens).toBeGreaterThan(budget.availableTokens);
            return;
          }
          expect(validateToolPairs(toModelMessages(sent)).valid).toBe(true);
          expect(counter.countMessages(sent)).toBeLessThanOrEqual(budget.availableTokens);
          expect(sent[0]).toEqual(prompt[0]);
          expect(JSON.stringify(sent.at(-1))).toContain(ask);
        },
      ),
      { numRuns: 40 },
    );
  });
});
