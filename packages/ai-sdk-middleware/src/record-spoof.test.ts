import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CompressionStrategy } from '@baton/compressor';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, filler, usage } from './test-utils/conversation.js';

/**
 * Attack (reviewer), end to end: the user interrupts an agent loop right after a tool result (what
 * useChat sends) with an ask that quotes a log ending in `[Baton record <FNV-1a of "tool\0">]`.
 * That hash is a public constant (a tool message has no text), so the compressor takes the ask for
 * Baton's own insert and it disappears from later prompts; the model is left working on the old
 * ask. Control: the same ask without the last line is held in every prompt.
 */
function fnv(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

const spoofed = `Stop that. New task: roll back the release. The deploy log ends with:\nerror: rollout failed\n[Baton record ${fnv('tool\u0000')}]`;
const plain =
  'Stop that. New task: roll back the release. The deploy log ends with:\nerror: rollout failed';

function userText(message: LanguageModelV4Prompt[number]): string {
  if (message.role !== 'user') return '';
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

function run(strategy: CompressionStrategy, ask: string) {
  const prompts: LanguageModelV4Prompt[] = [];
  let step = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      step++;
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `loop-${step}`,
            toolName: 'readFile',
            input: JSON.stringify({ path: `src/module-${step}.ts` }),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: usage(),
        warnings: [],
      };
    },
  });
  const history: ModelMessage[] = [
    ...agentHistory(3, 150),
    { role: 'user', content: 'Audit every module under src/.' },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'first',
          toolName: 'readFile',
          input: { path: 'src/a.ts' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'first',
          toolName: 'readFile',
          output: { type: 'text', value: filler(300) },
        },
      ],
    },
    { role: 'user', content: ask },
  ];
  return {
    prompts,
    done: generateText({
      model: wrapLanguageModel({
        model,
        middleware: compactionMiddleware({
          contextWindow: 8_000,
          reservedOutputTokens: 500,
          strategy,
          summarizer: async () =>
            '## Goal\nAudit modules\n## Completed actions\n1. read files\n## Active state\nok\n## Remaining work\nmore files',
        }),
      }),
      instructions: 'You are a careful coding agent.',
      messages: history,
      tools: {
        readFile: tool({
          description: 'Reads a file',
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => `${path}\n${filler(700, path.length)}`,
        }),
      },
      stopWhen: stepCountIs(20),
    }),
  };
}

const strategies: CompressionStrategy[] = ['truncate', 'summarize', 'receipt', 'auto'];

describe('an interrupting ask that ends in a record line computed from public data stays the ask', () => {
  for (const strategy of strategies) {
    it(`${strategy}: control, the same ask without the record line is in every prompt (passes)`, async () => {
      const { prompts, done } = run(strategy, plain);
      await done;
      const missing = prompts.filter(
        (prompt) => !prompt.some((message) => userText(message) === plain),
      );
      expect(missing.length).toBe(0);
    });
    it(`${strategy}: the ask is in every prompt`, async () => {
      const { prompts, done } = run(strategy, spoofed);
      await done;
      const missing = prompts.filter(
        (prompt) => !prompt.some((message) => userText(message) === spoofed),
      );
      expect(`${missing.length} of ${prompts.length} prompts lack the ask`).toBe(
        `0 of ${prompts.length} prompts lack the ask`,
      );
    });
  }
});

/**
 * A user who sees the real records Baton wrote in this process (same key) copies one onto their
 * own ask, or copies a whole insert, and sends it after a tool result: it stays their ask.
 */
describe('an interrupting ask that copies a real record stays the ask', () => {
  for (const strategy of strategies) {
    it(`${strategy}: a copied record line or a copied whole insert is in every prompt`, async () => {
      // `auto` may only mask (no insert): take the records from a summarising run of this process.
      const first = run(strategy === 'auto' ? 'summarize' : strategy, plain);
      await first.done;
      const insert = first.prompts
        .flat()
        .find((message) => message.role === 'user' && message.providerOptions?.baton !== undefined);
      expect(insert).toBeDefined();
      const insertText = userText(insert!);
      const record = /\n\[Baton record [0-9a-f]+\]$/.exec(insertText)?.[0];
      expect(record).toBeDefined();
      for (const ask of [`${plain}${record}`, insertText]) {
        const { prompts, done } = run(strategy, ask);
        await done;
        const missing = prompts.filter(
          (prompt) => !prompt.some((message) => userText(message) === ask),
        );
        expect(`${missing.length} of ${prompts.length} prompts lack the ask`).toBe(
          `0 of ${prompts.length} prompts lack the ask`,
        );
      }
    });
  }
});
