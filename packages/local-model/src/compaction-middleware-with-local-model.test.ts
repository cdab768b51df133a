import { compactionMiddleware, type MiddlewareCompactionEvent } from '@baton/ai-sdk-middleware';
import { createContextCompressor } from '@baton/compressor';
import { corpusSkipReason } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { streamText, wrapLanguageModel } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalModel } from './create-local-model.js';
import { summarizerInputBudget } from './summarizer-input-budget.js';
import { type CorpusWindow, corpusWindows } from './test-utils/corpus-windows.js';
import { realModel } from './test-utils/real-model.js';

const { modelPath, skipReason } = await realModel();
const contextSize = 4096;
const summaryTargetTokens = 128;

describe.skipIf(skipReason !== undefined || corpusSkipReason !== undefined)(
  'compactionMiddleware with the real local model as summariser and as the answering model',
  () => {
    const local = createLocalModel({ modelPath, contextSize });
    afterAll(() => local.dispose());
    const counter = createTokenCounter({ model: 'gpt-4o' });

    it('compacts an over-window corpus conversation with a local summary (or a stated fallback) and streams the answer', async () => {
      // A window whose compaction to the middleware's target is possible at all (the receipt fits).
      let chosen: { window: CorpusWindow; contextWindow: number } | undefined;
      for (const window of corpusWindows(Number.POSITIVE_INFINITY, 1_000, counter)) {
        const contextWindow = Math.ceil(window.tokens * 1.1);
        const target = Math.floor(0.6 * 0.8 * (contextWindow - 16));
        try {
          await createContextCompressor({ counter }).compress(window.messages, {
            targetTokens: target,
            strategy: 'receipt',
          });
          chosen = { window, contextWindow };
          break;
        } catch {
          // Its tail alone is over the target: try the next window.
        }
      }
      expect(chosen).toBeDefined();
      const { window, contextWindow } = chosen!;
      const events: MiddlewareCompactionEvent[] = [];
      const model = wrapLanguageModel({
        model: local,
        middleware: compactionMiddleware({
          contextWindow,
          counter,
          summarizer: local,
          summaryTargetTokens,
          protectLastNTokens: 200,
          compressor: {
            maxAttempts: 1,
            timeoutMs: 120_000,
            summarizerInputBudget: summarizerInputBudget({ contextSize, summaryTargetTokens }),
          },
          onCompaction: (event) => {
            events.push(event);
          },
        }),
      });
      const result = streamText({ model, messages: window.messages, maxOutputTokens: 16 });
      let text = '';
      let deltas = 0;
      for await (const delta of result.textStream) {
        text += delta;
        deltas++;
      }
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(event!.requestTokensBefore).toBeGreaterThan(event!.triggerTokens);
      expect(event!.requestTokensAfter).toBeLessThanOrEqual(event!.targetTokens);
      expect(event!.stages).toContain('summarize');
      if (event!.usedFallback) {
        expect(event!.strategy).toBe('receipt');
        // A stated reason; `timeout` when a loaded machine keeps the one-thread model past 120 s.
        expect(event!.fallbackReason).toMatch(
          /^(garbage: summary rejected as (truncated|refusal|off-topic) |empty: |too_long: |timeout: )/,
        );
      } else {
        expect(event!.strategy).toBe('summarize');
        expect(event!.summarizerModel).toBe(local.modelId);
      }
      console.info(
        `[local-model] middleware on ${window.name}: ${event!.strategy}${event!.usedFallback ? ` (${event!.fallbackReason})` : ''}, ${event!.requestTokensBefore} -> ${event!.requestTokensAfter} tokens`,
      );
      // The compacted prompt went to the local model and its answer streamed back.
      expect(text.length).toBeGreaterThan(0);
      expect(deltas).toBeGreaterThan(0);
      const metadata = (await result.providerMetadata)?.baton;
      expect(metadata?.compacted).toBe(true);
      expect((await result.usage).inputTokens).toBeLessThan(contextSize);
    }, 300_000);
  },
);
