import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SummarizerRequest } from '@baton/compressor';
import type { SessionStore } from '@baton/sessions';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, fixBugsHandoff, textResult } from './test-utils/conversation.js';
import { memoryStore } from './test-utils/memory-store.js';
import type { BatonProviderMetadata } from './types.js';

/**
 * Attack (outside): the user stops a call (the chat's stop button, a closed request) while the
 * compaction it triggered waits for the summariser. The summariser was aborted and its receipt
 * fallback committed as the conversation's compaction: in memory, and with a store as a child
 * session, so every later call resumed from the receipt and the summariser was never asked again.
 * One press of "stop" at the wrong moment degraded the conversation's memory for good, for a call
 * whose reply nobody wanted. An aborted call must leave no compaction behind.
 */
const history: ModelMessage[] = [
  ...agentHistory(30, 30, 350),
  { role: 'user', content: 'Now list what changed, please.' },
];

/**
 * Each call waits until `answer()` or the caller's abort; `abortOnCall` aborts the given controller
 * as soon as the summariser is asked (so the abort lands mid-compaction, not before it).
 */
function pendingSummarizer() {
  const requests: SummarizerRequest[] = [];
  let abortOnCall: AbortController | undefined;
  return {
    requests,
    abortNextCall(controller: AbortController) {
      abortOnCall = controller;
    },
    summarizer: (request: SummarizerRequest) =>
      new Promise<string>((resolve, reject) => {
        requests.push(request);
        if (request.abortSignal.aborted) return reject(request.abortSignal.reason);
        request.abortSignal.addEventListener('abort', () => reject(request.abortSignal.reason), {
          once: true,
        });
        const controller = abortOnCall;
        abortOnCall = undefined;
        if (controller !== undefined) queueMicrotask(() => controller.abort());
        else resolve(fixBugsHandoff);
      }),
  };
}

function compactingModel(
  summarizer: ReturnType<typeof pendingSummarizer>,
  store?: SessionStore,
  sessionId?: string,
) {
  let providerCalls = 0;
  const inner = new MockLanguageModelV4({
    doGenerate: async (options) => {
      providerCalls++;
      // As a real provider does: an aborted call fails before the request is sent.
      options.abortSignal?.throwIfAborted();
      return textResult('ok');
    },
  });
  const model = wrapLanguageModel({
    model: inner,
    middleware: compactionMiddleware({
      contextWindow: 16_000,
      strategy: 'summarize',
      summarizer: summarizer.summarizer,
      ...(store === undefined ? {} : { store, sessionId }),
    }),
  });
  return { model, providerCalls: () => providerCalls };
}

const baton = (result: { providerMetadata?: Record<string, unknown> }) =>
  result.providerMetadata?.baton as BatonProviderMetadata | undefined;

const openStore = memoryStore();

describe('attack: the caller aborts while the compaction waits for the summariser', () => {
  it('premise: without the abort the same call compacts with the summary', async () => {
    const summarizer = pendingSummarizer();
    const { model } = compactingModel(summarizer);
    const result = await generateText({ model, instructions: 'Be brief.', messages: history });
    expect(baton(result)).toMatchObject({
      compacted: true,
      strategy: 'summarize',
      usedFallback: false,
    });
  });

  it('no receipt is kept in memory: the next call compacts with the summary', async () => {
    const summarizer = pendingSummarizer();
    const { model } = compactingModel(summarizer);
    const controller = new AbortController();
    summarizer.abortNextCall(controller);
    await expect(
      generateText({
        model,
        instructions: 'Be brief.',
        messages: history,
        abortSignal: controller.signal,
        maxRetries: 0,
      }),
    ).rejects.toThrow();
    expect(summarizer.requests).toHaveLength(1);

    const next = await generateText({ model, instructions: 'Be brief.', messages: history });
    expect(summarizer.requests).toHaveLength(2);
    expect(baton(next)).toMatchObject({
      compacted: true,
      strategy: 'summarize',
      usedFallback: false,
    });
  });

  it('no child session is stored: the lineage is untouched and the next call summarises', async () => {
    const store = openStore();
    const sessionId = `abort-${crypto.randomUUID()}`;
    await store.createSession({ id: sessionId });
    const summarizer = pendingSummarizer();
    const { model, providerCalls } = compactingModel(summarizer, store, sessionId);
    const controller = new AbortController();
    summarizer.abortNextCall(controller);
    await expect(
      generateText({
        model,
        instructions: 'Be brief.',
        messages: history,
        abortSignal: controller.signal,
        maxRetries: 0,
      }),
    ).rejects.toThrow();
    expect(providerCalls()).toBe(0);
    expect(await store.getCompaction(sessionId)).toBeUndefined();

    const next = await generateText({ model, instructions: 'Be brief.', messages: history });
    expect(baton(next)).toMatchObject({
      compacted: true,
      strategy: 'summarize',
      usedFallback: false,
    });
    const compaction = await store.getCompaction(sessionId);
    expect(compaction?.strategy).toBe('summarize');
    expect(compaction?.childSessionId).toBe(baton(next)?.childSessionId);
  });
});
