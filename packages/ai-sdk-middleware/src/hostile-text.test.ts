import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { toolPairProblems } from '@baton/compressor/test';
import { createTokenCounter } from '@baton/tokens';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { fixBugsHandoff, textResult } from './test-utils/conversation.js';

/**
 * One hostile tool output (a minified bundle, a base64 blob, a CJK document) must not crash a
 * middleware call nor block it for more than linear time, with the model's exact counter. These
 * depend on `@baton/tokens` counting any input in linear time without a WASM crash; the timeouts
 * are generous guards (budgets live in the tokens bench), not performance targets. Inputs are
 * generated at test time.
 */
// 10 s: far more than linear counting needs here, even on a loaded machine; the quadratic
// counting of the first release took 18-35 s per test.
const timeout = 10_000;

// Lower-case letters only: the o200k pre-tokenizer splits at case changes and digit groups.
const letters = 'abcdefghijklmnopqrstuvwxyz';
/** `variant` gives each test its own text, so no count cached by an earlier test hides the cost. */
const hostile: Record<string, (variant: number) => string> = {
  'a 1 MB unbroken run': (variant) => {
    const parts: string[] = [];
    let state = 11 + variant;
    for (let index = 0; index < 1_048_576; index++) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      parts.push(letters[state % letters.length]!);
    }
    return parts.join('');
  },
  'a 100 KB run of one letter': (variant) => String.fromCharCode(97 + variant).repeat(102_400),
  '40,000 CJK characters': (variant) => {
    const parts: string[] = [];
    for (let index = 0; index < 40_000; index++)
      parts.push(String.fromCodePoint(0x4e00 + ((index * 7_919 + variant) % 20_000)));
    return parts.join('');
  },
};

function conversation(output: string, latest: boolean): ModelMessage[] {
  const call = (id: string, value: string): ModelMessage[] => [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'read', input: { path: id } }],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: id, toolName: 'read', output: { type: 'text', value } },
      ],
    },
  ];
  const ask: ModelMessage = { role: 'user', content: 'Now summarise what you found.' };
  return latest
    ? [
        { role: 'user', content: 'Inspect the bundle.' },
        ...call('small', 'ok'),
        ask,
        ...call('hostile', output),
      ]
    : [
        { role: 'user', content: 'Inspect the bundle.' },
        ...call('hostile', output),
        ask,
        ...call('small', 'ok'),
      ];
}

describe('middleware on hostile tool output (exact counter)', () => {
  for (const [name, make] of Object.entries(hostile)) {
    for (const latest of [false, true]) {
      it(
        `${name}, ${latest ? 'in the latest turn (clipped)' : 'in the middle (compacted)'}`,
        async () => {
          // A counter per test: a count memoised by the previous test must not hide the cost.
          const counter = createTokenCounter({ encoding: 'o200k_base' });
          const prompts: LanguageModelV4Prompt[] = [];
          const model = wrapLanguageModel({
            model: new MockLanguageModelV4({
              doGenerate: async ({ prompt }) => {
                prompts.push(prompt);
                return textResult('ok');
              },
            }),
            middleware: compactionMiddleware({
              contextWindow: 16_000,
              counter,
              strategy: 'auto',
              summarizer: async () => fixBugsHandoff,
            }),
          });
          const messages = conversation(make(latest ? 1 : 0), latest);
          const result = await generateText({ model, instructions: 'Be careful.', messages });
          expect(result.providerMetadata?.baton?.exactCount).toBe(true);
          // In the middle it is compacted away; in the latest turn it is sent as is when the
          // window takes it, else clipped.
          if (!latest) expect(result.providerMetadata?.baton?.compacted).toBe(true);
          const [prompt] = prompts;
          expect(toolPairProblems(prompt!)).toEqual([]);
          expect(JSON.stringify(prompt)).toContain('Now summarise what you found.');
          expect(result.providerMetadata?.baton?.inputTokens as number).toBeLessThanOrEqual(16_000);
        },
        timeout,
      );
    }
  }
});
