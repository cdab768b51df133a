import type { LanguageModelV4 } from '@ai-sdk/provider';
import { InvalidInputError } from '@baton/tokens';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withStructuredOutputs } from './index.js';

const passThrough = { specificationVersion: 'v4' as const };

describe('withStructuredOutputs on odd models', () => {
  it('a frozen (or sealed) wrapped model: still gets the flag, its calls still reach the model', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.constantFrom('freeze', 'seal', 'preventExtensions'),
        async (flag, lock) => {
          const inner = new MockLanguageModelV4({
            doGenerate: async () => ({
              content: [{ type: 'text', text: `reply ${flag}` }],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
                outputTokens: { total: 1, text: 1, reasoning: 0 },
              },
              warnings: [],
            }),
          });
          const wrapped = (Object[lock] as (value: object) => object)(
            wrapLanguageModel({ model: inner, middleware: passThrough }),
          ) as LanguageModelV4;
          const result = withStructuredOutputs(wrapped, {
            from: { supportsStructuredOutputs: flag },
          });
          expect(result.supportsStructuredOutputs).toBe(flag);
          expect(result.modelId).toBe(wrapped.modelId);
          const generated = await result.doGenerate({
            prompt: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
          });
          expect(generated.content).toEqual([{ type: 'text', text: `reply ${flag}` }]);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('a missing or non-object `from`: a typed error, not a TypeError', () => {
    const model = wrapLanguageModel({ model: new MockLanguageModelV4(), middleware: passThrough });
    for (const from of [undefined, null, 'local', 1]) {
      expect(() =>
        withStructuredOutputs(model, { from } as unknown as Parameters<
          typeof withStructuredOutputs
        >[1]),
      ).toThrow(InvalidInputError);
    }
  });
});
