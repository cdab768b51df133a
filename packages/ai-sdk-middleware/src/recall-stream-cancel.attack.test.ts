import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { usage } from './test-utils/conversation.js';

/**
 * Attack (reviewer): the app cancels a streamed reply while the model is asking to recall. The
 * middleware kept reading the provider's stream and, once the recall ran, called the model again
 * for a reply nobody would read.
 */
const token = () => crypto.randomUUID().replaceAll('-', '').slice(0, 12);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let store: SessionStore;
beforeAll(async () => {
  store = await createSessionStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

it('cancelling the stream mid-recall cancels the provider stream and makes no further model call', async () => {
  const upstreamCancelled: unknown[] = [];
  const recallId = `r-${token()}`;
  const inner = new MockLanguageModelV4({
    doStream: async () => {
      let step = 0;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async pull(controller) {
            step++;
            if (step === 1) controller.enqueue({ type: 'stream-start', warnings: [] });
            else if (step === 2) {
              await pause(100 + Math.floor(Math.random() * 50));
              controller.enqueue({
                type: 'tool-call',
                toolCallId: recallId,
                toolName: 'baton_recall',
                input: JSON.stringify({ query: token() }),
              });
              controller.enqueue({
                type: 'finish',
                finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
                usage: usage(10),
              });
              controller.close();
            }
          },
          cancel(reason) {
            upstreamCancelled.push(reason ?? 'cancelled');
          },
        }),
      };
    },
  });
  const model = wrapLanguageModel({
    model: inner,
    middleware: compactionMiddleware({
      contextWindow: 16_000,
      store,
      sessionId: `c-${token()}`,
      recall: true,
    }),
  });
  const params: LanguageModelV4CallOptions = {
    prompt: [{ role: 'user', content: [{ type: 'text', text: `what failed? ${token()}` }] }],
  };
  const { stream } = await model.doStream(params);
  const reader = stream.getReader();
  expect((await reader.read()).value?.type).toBe('stream-start');
  await reader.cancel('user left');
  await pause(600);
  expect(inner.doStreamCalls).toHaveLength(1);
  expect(upstreamCancelled).toHaveLength(1);
}, 60_000);
