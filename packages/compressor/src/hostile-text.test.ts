import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createTokenCounter } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { type CompressionStrategy, ContextCompressor, validateToolPairs } from './index.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Ordinary hostile text in a tool output (a minified bundle, a base64 blob, a CJK document) must
 * not crash `compress` nor cost more than linear time, with the exact o200k counter. These depend
 * on `@baton/tokens` counting any input in linear time without a WASM crash; the timeouts are
 * generous guards (the budgets themselves live in the tokens bench), not performance targets.
 * Inputs are generated at test time.
 */
// 10 s: far more than linear counting needs here, even on a loaded machine; the quadratic
// counting of the first release took 18-35 s per test.
const timeout = 10_000;
const strategies: CompressionStrategy[] = ['truncate', 'mask', 'receipt', 'summarize', 'auto'];

// Lower-case letters only: the o200k pre-tokenizer splits at case changes and digit groups.
const letters = 'abcdefghijklmnopqrstuvwxyz';
const hostile: Record<string, () => string> = {
  // 1 MB of letters with no whitespace, punctuation or case change: one unbroken pre-token.
  'a 1 MB unbroken run': () => {
    const parts: string[] = [];
    let state = 7;
    for (let index = 0; index < 1_048_576; index++) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      parts.push(letters[state % letters.length]!);
    }
    return parts.join('');
  },
  'a 100 KB run of one letter': () => 'a'.repeat(102_400),
  '40,000 CJK characters': () => {
    const parts: string[] = [];
    for (let index = 0; index < 40_000; index++)
      parts.push(String.fromCodePoint(0x4e00 + ((index * 7_919) % 20_000)));
    return parts.join('');
  },
};

function history(output: string): ModelMessage[] {
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
  return [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Inspect the bundle.' },
    ...call('hostile', output),
    { role: 'user', content: 'Now summarise what you found.' },
    ...call('small', 'ok'),
    { role: 'assistant', content: 'Done.' },
  ];
}

describe('compress on hostile tool output (exact counter)', () => {
  const counter = createTokenCounter({ encoding: 'o200k_base' });
  for (const [name, make] of Object.entries(hostile)) {
    it(
      `${name}: every strategy compacts it without a crash`,
      async () => {
        const messages = history(make());
        const compressor = new ContextCompressor({
          counter,
          summarizer: async () => structuredSummary(),
          retryDelayMs: 0,
        });
        for (const strategy of strategies) {
          const result = await compressor.compress(messages, { targetTokens: 2_000, strategy });
          expect(validateToolPairs(result.messages).problems, strategy).toEqual([]);
          // The latest ask stays; the hostile output is gone or masked (mask may stay over budget,
          // and then says why).
          expect(result.messages, strategy).toContain(messages[4]);
          if (strategy !== 'mask') expect(result.tokensAfter, strategy).toBeLessThanOrEqual(2_000);
          else expect(result.withinBudget || result.shortfallReason !== undefined).toBe(true);
        }
      },
      timeout,
    );
  }
});
