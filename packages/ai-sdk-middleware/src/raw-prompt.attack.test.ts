import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { filler, usage } from './test-utils/conversation.js';

/**
 * Found by an outside attack: raw V4 prompts (as another middleware or a direct `doGenerate` caller
 * passes them) that are malformed. Each must fail with a typed BatonError (a `code`), never a
 * TypeError, and never echo a credential-looking value.
 */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const secret = () =>
  `ghp_${Array.from({ length: 36 }, () => alnum[Math.floor(Math.random() * 62)]).join('')}`;

function model(window: number) {
  return wrapLanguageModel({
    model: new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(),
        warnings: [],
      }),
    }),
    middleware: compactionMiddleware({ contextWindow: window, reservedOutputTokens: 200 }),
  });
}

const big = filler(3000, 1);
const cases: [string, (s: string) => unknown[]][] = [
  ['null message', () => [null]],
  ['user content string', (s) => [{ role: 'user', content: s }]],
  ['user content null', () => [{ role: 'user', content: null }]],
  ['unknown role', (s) => [{ role: s, content: [] }]],
  ['unknown user part', (s) => [{ role: 'user', content: [{ type: s, text: 'x' }] }]],
  ['null part', () => [{ role: 'user', content: [null] }]],
  ['system content array', (s) => [{ role: 'system', content: [{ type: 'text', text: s }] }]],
  ['tool content not array', (s) => [{ role: 'tool', content: s }]],
  ['tool part unknown', (s) => [{ role: 'tool', content: [{ type: s }] }]],
  [
    'tool result output missing',
    (s) => [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: s, toolName: 't' }] }],
  ],
];

describe('raw malformed V4 prompts', () => {
  for (const window of [1_000_000, 2_000]) {
    for (const [name, build] of cases) {
      it(`${name} (window ${window})`, async () => {
        const s = secret();
        const prompt = [
          { role: 'user', content: [{ type: 'text', text: `ask ${big}` }] },
          ...build(s),
          { role: 'user', content: [{ type: 'text', text: `latest ${big}` }] },
        ] as unknown as LanguageModelV4Prompt;
        let caught: unknown;
        try {
          await model(window).doGenerate({ prompt });
        } catch (error) {
          caught = error;
        }
        if (caught === undefined) return; // accepted: fine as long as it did not crash
        const error = caught as { name?: string; code?: unknown; message?: string };
        const described = `${error.name}: ${String(error.message).replaceAll(s, '<SECRET>')}`;
        expect(String(error.message).includes(s), `echoes the secret: ${described}`).toBe(false);
        expect(typeof error.code, `untyped error: ${described}`).toBe('string');
      });
    }
  }
});
