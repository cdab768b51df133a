import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { BatonError } from '@baton/tokens';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { textResult } from './test-utils/conversation.js';
import { toProviderPrompt } from './to-provider-prompt.js';
import type { CompactionMiddlewareOptions } from './types.js';

/**
 * A secret in the wrong field must not come back in a middleware error. Secret-shaped values are
 * generated per run.
 */
const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const secret = fc
  .tuple(
    fc.constantFrom('sk-proj-', 'ghp_', 'AKIA', 'xoxb-', 'sk-ant-api03-', ''),
    fc.string({ unit: fc.constantFrom(...alphabet), minLength: 20, maxLength: 40 }),
  )
  .map(([prefix, body]) => `${prefix}${body}`);

function exposed(error: unknown): string {
  const record = error as Record<string, unknown>;
  return [String(error), JSON.stringify(error), String(record.message), String(record.path)].join(
    '\n',
  );
}

async function rejection(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('middleware errors never echo the offending value', () => {
  it('options: a secret as a number option', async () => {
    await fc.assert(
      fc.asyncProperty(
        secret,
        fc.constantFrom('threshold', 'targetRatio', 'reservedOutputTokens', 'contextWindow'),
        async (value, option) => {
          const error = await rejection(() =>
            compactionMiddleware({ [option]: value } as unknown as CompactionMiddlewareOptions),
          );
          expect(BatonError.isInstance(error), String(error)).toBe(true);
          expect(exposed(error)).not.toContain(value.slice(-16));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('prompts: a secret as a role, part type or tool output type', async () => {
    await fc.assert(
      fc.asyncProperty(secret, async (value) => {
        const bad: unknown[][] = [
          [{ role: value, content: 'x' }],
          [{ role: 'user', content: [{ type: value }] }],
          [
            {
              role: 'tool',
              content: [
                { type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: value } },
              ],
            },
          ],
        ];
        for (const messages of bad) {
          const error = await rejection(() => toProviderPrompt(messages as ModelMessage[]));
          expect(BatonError.isInstance(error), String(error)).toBe(true);
          expect(exposed(error)).not.toContain(value.slice(-16));
        }
        // Through the middleware: a malformed provider prompt over the trigger.
        const middleware = compactionMiddleware({ contextWindow: 2_000 });
        const model = new MockLanguageModelV4({ doGenerate: textResult('ok') });
        const prompt = [
          { role: 'user', content: [{ type: 'text', text: 'word '.repeat(3_000) }] },
          { role: value, content: [{ type: 'text', text: 'x' }] },
        ] as unknown as LanguageModelV4Prompt;
        const error = await rejection(() =>
          middleware.transformParams?.({ type: 'generate', params: { prompt }, model }),
        );
        expect(exposed(error)).not.toContain(value.slice(-16));
      }),
      { numRuns: 40 },
    );
  });
});
