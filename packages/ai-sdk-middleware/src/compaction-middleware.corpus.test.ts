import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { validateToolPairs } from '@baton/compressor';
import { corpusSkipReason, loadTranscripts } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { ContextWindowExceededError } from './index.js';
import { toModelMessages } from './to-model-messages.js';
import { toProviderPrompt } from './to-provider-prompt.js';
import type { BatonProviderMetadata } from './types.js';

/** Text of the last user message, the ask the model must still see. */
function latestUserText(prompt: LanguageModelV4Prompt): string | undefined {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index];
    if (message?.role !== 'user') continue;
    const text = message.content
      .flatMap((part) => (part.type === 'text' ? [part.text] : []))
      .join('\n');
    if (text.trim() !== '') return text;
  }
  return undefined;
}

describe.skipIf(corpusSkipReason !== undefined)(
  'compactionMiddleware on the real transcripts',
  () => {
    it('compacts every transcript to a valid prompt under the trigger that keeps the latest ask', async () => {
      const counter = createTokenCounter({ model: 'gpt-4o' });
      const transcripts = loadTranscripts();
      expect(transcripts.length).toBeGreaterThan(0);
      let compacted = 0;
      const overTrigger: string[] = [];
      for (const transcript of transcripts) {
        const prompt = toProviderPrompt(transcript.messages as ModelMessage[]);
        if (!validateToolPairs(toModelMessages(prompt)).valid) continue;
        const tokens = counter.countMessages(prompt);
        // A window the transcript overflows at the default threshold.
        const contextWindow = Math.max(8_192, Math.round(tokens * 0.6));
        const middleware = compactionMiddleware({ contextWindow, counter });
        const model = new MockLanguageModelV4({ modelId: 'gpt-4o' });
        let sent: LanguageModelV4Prompt;
        let metadata: BatonProviderMetadata;
        try {
          const params = await middleware.transformParams?.({
            type: 'generate',
            params: { prompt },
            model,
          });
          if (params === undefined) throw new Error('no params');
          sent = params.prompt;
          const result = await middleware.wrapGenerate?.({
            doGenerate: async () => ({
              content: [],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: {
                  total: undefined,
                  noCache: undefined,
                  cacheRead: undefined,
                  cacheWrite: undefined,
                },
                outputTokens: { total: 0, text: 0, reasoning: undefined },
              },
              warnings: [],
            }),
            doStream: async () => {
              throw new Error('not used');
            },
            params,
            model,
          });
          metadata = result?.providerMetadata?.baton as BatonProviderMetadata;
        } catch (error) {
          // Only a latest turn bigger than the window may refuse, and then before any provider call.
          expect(
            ContextWindowExceededError.isInstance(error),
            `${transcript.name}: ${String(error)}`,
          ).toBe(true);
          continue;
        }
        const context = `${transcript.name} (${tokens} tokens, window ${contextWindow})`;
        expect(validateToolPairs(toModelMessages(sent)).valid, context).toBe(true);
        expect(metadata.inputTokens, context).toBeLessThanOrEqual(contextWindow);
        if (metadata.compacted) {
          compacted++;
          // Over the trigger only when head + latest turn alone are that big.
          if (metadata.inputTokens > metadata.triggerTokens) overTrigger.push(context);
          const ask = latestUserText(prompt);
          if (ask !== undefined)
            expect(JSON.stringify(sent), context).toContain(JSON.stringify(ask).slice(1, 200));
        }
      }
      expect(compacted).toBeGreaterThan(transcripts.length / 2);
      expect(overTrigger.length, overTrigger.join('\n')).toBeLessThanOrEqual(compacted / 4);
    });
  },
);
