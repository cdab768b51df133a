import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { ContextCompressor, type SummarizerRequest, validateToolPairs } from '@baton/compressor';
import { toolPairProblems } from '@baton/compressor/test';
import { createTokenCounter } from '@baton/tokens';
import {
  generateText,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { compactionMiddleware } from './compaction-middleware.js';
import { ContextWindowExceededError } from './index.js';
import {
  agentHistory,
  filler,
  promptText,
  textResult,
  textStreamParts,
  toolCallResult,
  usage,
} from './test-utils/conversation.js';
import { toModelMessages } from './to-model-messages.js';
import type { MiddlewareCompactionEvent } from './types.js';

const instructions = 'You are a careful coding agent.';
const latestAsk = 'Now please summarise what changed in src/file-final.ts';

/**
 * The smallest `size` whose messages the middleware's default counter for the mock model (an
 * estimate) puts at `tokens` or more: sizes come from the counter at test time, not from a guess
 * of how many tokens a filler word costs (which moves whenever the estimate is refitted).
 */
function sizeFor(tokens: number, messagesOf: (size: number) => ModelMessage[]): number {
  const counter = createTokenCounter({ model: 'mock-model-id' });
  const count = (size: number) =>
    counter.countMessages([{ role: 'system', content: instructions }, ...messagesOf(size)]);
  let low = 1;
  let high = 2;
  while (count(high) < tokens) high *= 2;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (count(middle) < tokens) low = middle + 1;
    else high = middle;
  }
  return low;
}

function summarizer() {
  const requests: SummarizerRequest[] = [];
  const summarize = async (request: SummarizerRequest) => {
    requests.push(request);
    return [
      '## Goal',
      'Fix the bugs in the files.',
      '## Completed actions',
      '1. READ src files — bugs fixed [tool: readFile]',
      '## Relevant files',
      '- src/file-0.ts',
    ].join('\n');
  };
  return { summarize, requests };
}

function assertValid(prompt: LanguageModelV4Prompt): void {
  expect(toolPairProblems(prompt)).toEqual([]);
  expect(validateToolPairs(toModelMessages(prompt)).valid).toBe(true);
}

const history = (turns: number): ModelMessage[] => [
  ...agentHistory(turns),
  { role: 'user', content: latestAsk },
];
/** Long replies, short tool outputs: masking tool outputs is not enough, the middle must be summarised. */
const chattyHistory = (turns: number): ModelMessage[] => [
  ...agentHistory(turns, 30, 350),
  { role: 'user', content: latestAsk },
];

describe('compactionMiddleware with generateText', () => {
  it('passes a request under the threshold through untouched (same params object, byte-identical prompt)', async () => {
    const plain = new MockLanguageModelV4({ doGenerate: textResult('ok') });
    const inner = new MockLanguageModelV4({ doGenerate: textResult('ok') });
    const middleware = compactionMiddleware({ contextWindow: 1_000_000 });
    const model = wrapLanguageModel({ model: inner, middleware });
    const messages = history(3);
    await generateText({ model: plain, instructions, messages });
    const result = await generateText({ model, instructions, messages });
    expect(JSON.stringify(inner.doGenerateCalls[0]?.prompt)).toBe(
      JSON.stringify(plain.doGenerateCalls[0]?.prompt),
    );
    expect(result.providerMetadata?.baton).toMatchObject({
      compacted: false,
      usedCompactedContext: false,
    });

    const params = {
      prompt: plain.doGenerateCalls[0]?.prompt ?? [],
    } satisfies LanguageModelV4CallOptions;
    const transformed = await middleware.transformParams?.({
      type: 'generate',
      params,
      model: inner,
    });
    expect(transformed).toBe(params);
  });

  it('compacts a long history: valid tool pairs, latest ask kept, system prompt first, metadata and event', async () => {
    const inner = new MockLanguageModelV4({ doGenerate: textResult('done') });
    const { summarize, requests } = summarizer();
    const events: MiddlewareCompactionEvent[] = [];
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 16_000,
        summarizer: summarize,
        onCompaction: (event) => {
          events.push(event);
        },
      }),
    });
    const messages = chattyHistory(30);
    const result = await generateText({ model, instructions, messages });
    const sent = inner.doGenerateCalls[0]?.prompt ?? [];
    assertValid(sent);
    expect(sent[0]).toEqual({ role: 'system', content: instructions });
    expect(promptText(sent)).toContain(latestAsk);
    expect(promptText(sent)).toContain('Fix the bugs in the files.');
    expect(sent.length).toBeLessThan(messages.length);
    expect(requests.length).toBeGreaterThan(0);
    expect(events).toHaveLength(1);
    const event = events[0] as MiddlewareCompactionEvent;
    expect(event.requestTokensAfter).toBeLessThan(event.triggerTokens);
    expect(event.requestTokensBefore).toBeGreaterThan(event.triggerTokens);
    expect(result.providerMetadata?.baton).toMatchObject({
      compacted: true,
      usedCompactedContext: true,
      strategy: event.strategy,
      usedFallback: false,
      tokensBefore: event.requestTokensBefore,
      tokensAfter: event.requestTokensAfter,
    });
    expect(result.text).toBe('done');
  });

  it('falls back to the receipt when the summariser fails, and the call still succeeds', async () => {
    const inner = new MockLanguageModelV4({ doGenerate: textResult('still fine') });
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 16_000,
        summarizer: async () => {
          throw new Error('summariser is down');
        },
        compressor: { maxAttempts: 1, retryDelayMs: 0 },
      }),
    });
    const result = await generateText({ model, instructions, messages: chattyHistory(30) });
    expect(result.text).toBe('still fine');
    const sent = inner.doGenerateCalls[0]?.prompt ?? [];
    assertValid(sent);
    expect(promptText(sent)).toContain(latestAsk);
    expect(promptText(sent)).not.toContain('summariser is down');
    expect(result.providerMetadata?.baton).toMatchObject({ compacted: true, usedFallback: true });
  });

  it('raises ContextWindowExceededError before calling the provider when head + latest turn cannot fit', async () => {
    const inner = new MockLanguageModelV4({ doGenerate: textResult('never') });
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({ contextWindow: 2_000 }),
    });
    const messages: ModelMessage[] = [...agentHistory(4), { role: 'user', content: filler(3_000) }];
    const error = await generateText({ model, instructions, messages }).catch(
      (caught: unknown) => caught,
    );
    expect(ContextWindowExceededError.isInstance(error)).toBe(true);
    expect(inner.doGenerateCalls).toHaveLength(0);
  });

  it('works the same for a 32k and a 1M window with defaults scaled to the window', async () => {
    for (const [modelId, turns] of [
      ['unknown-small-model', 60],
      ['gpt-4.1', 1_800],
    ] as const) {
      const inner = new MockLanguageModelV4({ modelId, doGenerate: textResult('ok') });
      const events: MiddlewareCompactionEvent[] = [];
      const model = wrapLanguageModel({
        model: inner,
        middleware: compactionMiddleware({
          summarizer: summarizer().summarize,
          onCompaction: (event) => void events.push(event),
        }),
      });
      await generateText({ model, instructions, messages: history(turns) });
      expect(events).toHaveLength(1);
      const event = events[0] as MiddlewareCompactionEvent;
      expect(event.contextWindow).toBe(modelId === 'gpt-4.1' ? 1_047_576 : 32_768);
      expect(event.requestTokensAfter).toBeLessThanOrEqual(event.triggerTokens);
      const sent = inner.doGenerateCalls[0]?.prompt ?? [];
      assertValid(sent);
      expect(promptText(sent)).toContain(latestAsk);
    }
  });

  it('calibrates an inexact counter from reported usage so the trigger stays where it was set', async () => {
    // The provider reports twice the estimate: after one call, a prompt at 60 % of the trigger by
    // raw count is really at 120 % and must compact.
    let reportedRatio = 2;
    const inner = new MockLanguageModelV4({
      doGenerate: async (options) => {
        const { createTokenCounter } = await import('@baton/tokens');
        const counted = createTokenCounter({ model: 'mock-model-id' }).countMessages(
          options.prompt,
        );
        return textResult('ok', Math.round(counted * reportedRatio));
      },
    });
    const events: MiddlewareCompactionEvent[] = [];
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 40_000,
        onCompaction: (event) => void events.push(event),
      }),
    });
    const small = await generateText({ model, instructions, messages: history(3) });
    expect(small.providerMetadata?.baton).toMatchObject({ compacted: false, calibrationRatio: 1 });
    // About 70 % of the trigger by the estimate: under it, over it once doubled.
    const trigger = Number(small.providerMetadata?.baton?.triggerTokens);
    expect(trigger).toBeGreaterThan(0);
    const messages = history(sizeFor(0.7 * trigger, history));
    const second = await generateText({ model, instructions, messages });
    const baton = second.providerMetadata?.baton as Record<string, number | boolean>;
    expect(baton.calibrationRatio).toBeCloseTo(2, 1);
    expect(baton.requestTokens).toBeGreaterThan(baton.triggerTokens as number);
    expect(events).toHaveLength(1);
    // Without calibration the same request stays under the trigger.
    reportedRatio = 1;
    const uncalibrated = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({ contextWindow: 40_000, calibrate: false }),
    });
    const third = await generateText({ model: uncalibrated, instructions, messages });
    expect(third.providerMetadata?.baton).toMatchObject({ compacted: false, calibrationRatio: 1 });
  });
});

describe('compactionMiddleware with streamText', () => {
  it('compacts the streamed call and reports on the finish part only, never in the text', async () => {
    const inner = new MockLanguageModelV4({
      doStream: async () => ({
        stream: simulateReadableStream({ chunks: textStreamParts('streamed answer here') }),
      }),
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 16_000,
        summarizer: summarizer().summarize,
      }),
    });
    const result = streamText({ model, instructions, messages: history(30) });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('streamed answer here');
    const sent = inner.doStreamCalls[0]?.prompt ?? [];
    assertValid(sent);
    expect(promptText(sent)).toContain(latestAsk);
    expect(await result.providerMetadata).toMatchObject({ baton: { compacted: true } });
  });
});

describe('compactionMiddleware in a streamed multi-step tool loop', () => {
  it('compacts the streamed step that crosses the threshold; every streamed prompt stays valid', async () => {
    const steps = 6;
    let call = 0;
    const inner = new MockLanguageModelV4({
      doStream: async () => {
        call++;
        const chunks: LanguageModelV4StreamPart[] =
          call < steps
            ? [
                { type: 'stream-start', warnings: [] },
                {
                  type: 'tool-call',
                  toolCallId: `stream-${call}`,
                  toolName: 'readFile',
                  input: JSON.stringify({ path: `src/stream-${call}.ts` }),
                },
                {
                  type: 'finish',
                  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
                  usage: usage(),
                },
              ]
            : textStreamParts('streamed loop done');
        return { stream: simulateReadableStream({ chunks }) };
      },
    });
    const events: MiddlewareCompactionEvent[] = [];
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 10_000,
        summarizer: summarizer().summarize,
        onCompaction: (event) => void events.push(event),
      }),
    });
    const result = streamText({
      model,
      instructions,
      messages: history(2),
      tools: {
        readFile: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => `contents of ${path}\n${filler(1_500, path.length)}`,
        }),
      },
      stopWhen: stepCountIs(steps),
    });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('streamed loop done');
    expect(inner.doStreamCalls).toHaveLength(steps);
    expect(events.length).toBeGreaterThan(0);
    const metadata = (await result.steps).map((step) => step.providerMetadata?.baton);
    expect(metadata.some((entry) => entry?.compacted === true)).toBe(true);
    for (const params of inner.doStreamCalls) {
      assertValid(params.prompt);
      expect(promptText(params.prompt)).toContain(latestAsk);
    }
  });
});

describe('compactionMiddleware in a multi-step tool loop', () => {
  it('compacts at the step that crosses the threshold and splices later steps onto it', async () => {
    const steps = 8;
    let call = 0;
    const inner = new MockLanguageModelV4({
      doGenerate: async () => {
        call++;
        return call < steps
          ? toolCallResult(`loop-${call}`, 'readFile', { path: `src/loop-${call}.ts` })
          : textResult('all done');
      },
    });
    const events: MiddlewareCompactionEvent[] = [];
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 12_000,
        summarizer: summarizer().summarize,
        onCompaction: (event) => void events.push(event),
      }),
    });
    const readFile = vi.fn(
      async ({ path }: { path: string }) => `contents of ${path}\n${filler(1_500, path.length)}`,
    );
    const result = await generateText({
      model,
      instructions,
      messages: history(2),
      tools: {
        readFile: tool({
          description: 'Reads a file',
          inputSchema: z.object({ path: z.string() }),
          execute: readFile,
        }),
      },
      stopWhen: stepCountIs(steps),
    });
    expect(result.text).toBe('all done');
    expect(readFile).toHaveBeenCalledTimes(steps - 1);
    const baton = result.steps.map(
      (step) => step.providerMetadata?.baton as Record<string, unknown>,
    );
    const firstCompaction = baton.findIndex((metadata) => metadata.compacted === true);
    expect(firstCompaction).toBeGreaterThan(0);
    // Steps before it were passed through; later steps build on the compacted context.
    for (const metadata of baton.slice(0, firstCompaction))
      expect(metadata.usedCompactedContext).toBe(false);
    for (const metadata of baton.slice(firstCompaction))
      expect(metadata.usedCompactedContext).toBe(true);
    // Far fewer compactions than steps after the first: the target leaves headroom.
    expect(events.length).toBeLessThan(steps - firstCompaction);
    for (const [index, params] of inner.doGenerateCalls.entries()) {
      assertValid(params.prompt);
      expect(promptText(params.prompt)).toContain(latestAsk);
      const metadata = baton[index] as Record<string, number>;
      expect(metadata.inputTokens).toBeLessThanOrEqual(metadata.triggerTokens as number);
    }
    // The latest tool result always reaches the model.
    const last = inner.doGenerateCalls.at(-1)?.prompt ?? [];
    expect(promptText(last)).toContain(`contents of src/loop-${steps - 1}.ts`);
  });
});

describe('compactionMiddleware provider objects across steps', () => {
  it('sends kept history as the very objects it received and converts a summary once', async () => {
    const plain = new MockLanguageModelV4({ doGenerate: textResult('ok') });
    await generateText({ model: plain, instructions, messages: chattyHistory(30) });
    const first = plain.doGenerateCalls[0]?.prompt ?? [];
    const middleware = compactionMiddleware({
      contextWindow: 16_000,
      summarizer: summarizer().summarize,
    });
    const received = new Set<object>();
    const sentBefore: LanguageModelV4Prompt[] = [];
    const send = async (prompt: LanguageModelV4Prompt) => {
      for (const message of prompt) received.add(message);
      const params = { prompt } satisfies LanguageModelV4CallOptions;
      const sent = await middleware.transformParams?.({ type: 'generate', params, model: plain });
      sentBefore.push(sent?.prompt ?? []);
      return sent?.prompt ?? [];
    };
    const compacted = await send(first);
    expect(compacted.length).toBeLessThan(first.length);
    // Premise: the compaction made messages of its own (the summary).
    const made = compacted.filter((message) => !received.has(message));
    expect(made.length).toBeGreaterThan(0);
    let prompt = first;
    for (let step = 0; step < 4; step++) {
      // The AI SDK hands over new objects every step: a deep copy plus the step's new turn.
      prompt = [
        ...structuredClone(prompt),
        { role: 'assistant', content: [{ type: 'text', text: `Step ${step} done.` }] },
        { role: 'user', content: [{ type: 'text', text: `Continue with step ${step + 1}.` }] },
      ];
      const sent = await send(prompt);
      assertValid(sent);
      expect(promptText(sent)).toContain(`Continue with step ${step + 1}.`);
      const bySerialised = new Map(prompt.map((message) => [JSON.stringify(message), message]));
      for (const message of sent) {
        // A message equal to one the app sent is an object the middleware was given, never a
        // conversion of its own (which could differ in a field the conversion normalises).
        if (bySerialised.has(JSON.stringify(message))) expect(received.has(message)).toBe(true);
      }
      // The summary is converted once and sent as the same object on every later step.
      for (const summary of made) expect(sent).toContain(summary);
    }
  });
});

describe('compactionMiddleware edge cases', () => {
  it('compacts once when two calls of one session race', async () => {
    const inner = new MockLanguageModelV4({ doGenerate: textResult('ok') });
    const events: MiddlewareCompactionEvent[] = [];
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 16_000,
        sessionId: 'race',
        summarizer: summarizer().summarize,
        onCompaction: (event) => void events.push(event),
      }),
    });
    const messages = chattyHistory(30);
    const results = await Promise.all([
      generateText({ model, instructions, messages }),
      generateText({ model, instructions, messages }),
    ]);
    expect(events).toHaveLength(1);
    expect(results.map((result) => result.providerMetadata?.baton?.compacted).sort()).toEqual([
      false,
      true,
    ]);
    expect(JSON.stringify(inner.doGenerateCalls[1]?.prompt)).toBe(
      JSON.stringify(inner.doGenerateCalls[0]?.prompt),
    );
  });

  it('compacts afresh when the app sends a history that diverged from the compacted one', async () => {
    const inner = new MockLanguageModelV4({ doGenerate: textResult('ok') });
    const events: MiddlewareCompactionEvent[] = [];
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 16_000,
        sessionId: 'diverged',
        summarizer: summarizer().summarize,
        onCompaction: (event) => void events.push(event),
      }),
    });
    await generateText({ model, instructions, messages: chattyHistory(30) });
    // An edited early message: the old compaction no longer describes this history.
    const edited = chattyHistory(30);
    edited[0] = { role: 'user', content: 'Ask 0, edited: look at src/other.ts instead.' };
    await generateText({ model, instructions, messages: edited });
    expect(events).toHaveLength(2);
    const sent = inner.doGenerateCalls[1]?.prompt ?? [];
    assertValid(sent);
    expect(promptText(sent)).toContain('Ask 0, edited');
  });

  it('passes a request the compressor cannot shrink while it fits, without retrying every step', async () => {
    const compress = vi.spyOn(ContextCompressor.prototype, 'compress');
    try {
      const inner = new MockLanguageModelV4({ doGenerate: textResult('ok') });
      const model = wrapLanguageModel({
        model: inner,
        middleware: compactionMiddleware({
          contextWindow: 16_000,
          summarizer: summarizer().summarize,
        }),
      });
      // One huge ask: over the trigger (11,200) but inside the window (14,000); nothing to drop.
      const ask = (words: number): ModelMessage[] => [
        { role: 'user', content: `${latestAsk}\n${filler(words)}` },
      ];
      const messages = ask(sizeFor(12_600, ask));
      const first = await generateText({ model, instructions, messages });
      expect(first.providerMetadata?.baton).toMatchObject({ compacted: false });
      expect(JSON.stringify(inner.doGenerateCalls[0]?.prompt)).toContain(latestAsk);
      const attempts = compress.mock.calls.length;
      expect(attempts).toBeGreaterThan(0);
      const again = await generateText({
        model,
        instructions,
        messages: [
          ...messages,
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: 'more' },
        ],
      });
      expect(again.providerMetadata?.baton).toMatchObject({ compacted: false });
      expect(compress.mock.calls.length).toBe(attempts);
    } finally {
      compress.mockRestore();
    }
  });

  it('works inside a ToolLoopAgent', async () => {
    const { ToolLoopAgent } = await import('ai');
    let call = 0;
    const inner = new MockLanguageModelV4({
      doGenerate: async () => {
        call++;
        return call < 6
          ? toolCallResult(`agent-${call}`, 'readFile', { path: `src/agent-${call}.ts` })
          : textResult('agent done');
      },
    });
    const events: MiddlewareCompactionEvent[] = [];
    const agent = new ToolLoopAgent({
      model: wrapLanguageModel({
        model: inner,
        middleware: compactionMiddleware({
          contextWindow: 10_000,
          summarizer: summarizer().summarize,
          onCompaction: (event) => void events.push(event),
        }),
      }),
      instructions,
      tools: {
        readFile: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => `contents of ${path}\n${filler(1_500, path.length)}`,
        }),
      },
      stopWhen: stepCountIs(6),
    });
    const result = await agent.generate({ prompt: latestAsk });
    expect(result.text).toBe('agent done');
    expect(events.length).toBeGreaterThan(0);
    for (const params of inner.doGenerateCalls) {
      assertValid(params.prompt);
      expect(promptText(params.prompt)).toContain(latestAsk);
    }
  });
});
