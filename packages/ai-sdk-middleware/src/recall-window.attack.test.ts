import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { type CountMessagesOptions, createTokenCounter } from '@baton/tokens';
import {
  generateText,
  type ModelMessage,
  simulateReadableStream,
  streamText,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, fixBugsHandoff, usage } from './test-utils/conversation.js';
import { toModelMessages } from './to-model-messages.js';

/**
 * Attack (reviewer): the recall loop appends tool results to a prompt the manager sized just under
 * the trigger. Every model call the middleware makes must still fit the window the manager budgets
 * (window minus the reserved output), however much the store has to recall.
 */

const contextWindow = 8_000;
const reservedOutputTokens = 1_000;

function recallReply(step: number): LanguageModelV4GenerateResult {
  return {
    content: [
      {
        type: 'tool-call',
        toolCallId: `recall-${step}`,
        toolName: 'baton_recall',
        input: JSON.stringify({ query: 'bug' }),
      },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: usage(100),
    warnings: [],
  };
}

describe('recall within the window', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  for (const streaming of [false, true]) {
    it(`no model call of the recall loop exceeds the window minus the reserved output (${streaming ? 'stream' : 'generate'})`, async () => {
      const counter = createTokenCounter();
      const sessionId = `recall-window-${crypto.randomUUID()}`;
      const prompts: LanguageModelV4CallOptions[] = [];
      const model = wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async (options) => {
            prompts.push(options);
            return recallReply(prompts.length);
          },
          doStream: async (options) => {
            prompts.push(options);
            const [call] = recallReply(prompts.length).content;
            const parts: LanguageModelV4StreamPart[] = [
              { type: 'stream-start', warnings: [] },
              call as LanguageModelV4StreamPart,
              {
                type: 'finish',
                finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
                usage: usage(100),
              },
            ];
            return { stream: simulateReadableStream({ chunks: parts }) };
          },
        }),
        middleware: compactionMiddleware({
          contextWindow,
          reservedOutputTokens,
          store,
          sessionId,
          summarizer: async () => fixBugsHandoff,
          strategy: 'summarize',
          background: true,
          recall: { maxSteps: 3 },
        }),
      });
      // Every turn's tool output matches the query; the store soon holds far more than the window.
      const history: ModelMessage[] = [];
      const turns = agentHistory(60, 300);
      let recalled = 0;
      for (let turn = 0; turn < 60; turn++) {
        history.push(...turns.slice(4 * turn, 4 * turn + 4));
        prompts.length = 0;
        if (streaming) await streamText({ model, messages: history.slice() }).consumeStream();
        else await generateText({ model, messages: history.slice() });
        if (prompts.length > 1) recalled++;
        for (const options of prompts) {
          const messages = toModelMessages(options.prompt, new WeakMap());
          const tokens = counter.countMessages(messages, {
            tools: options.tools as CountMessagesOptions['tools'],
          });
          expect(tokens).toBeLessThanOrEqual(contextWindow - reservedOutputTokens);
        }
      }
      // The loop did run recall (the bound did not just switch it off).
      expect(recalled).toBeGreaterThan(30);
    }, 120_000);
  }
});
