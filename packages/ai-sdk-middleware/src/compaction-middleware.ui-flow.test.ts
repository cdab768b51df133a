import type { LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CompressionStrategy } from '@baton/compressor';
import { toolPairProblems } from '@baton/compressor/test';
import { createSessionStore } from '@baton/sessions';
import {
  convertToModelMessages,
  generateText,
  readUIMessageStream,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  toUIMessageStream,
  type UIMessage,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compactionMiddleware } from './compaction-middleware.js';
import { filler, promptText, usage } from './test-utils/conversation.js';
import type { BatonProviderMetadata, MiddlewareCompactionEvent } from './types.js';

const turns = 15;
const contextWindow = 12_000;
const handoff = [
  '## Goal',
  'Fix the bugs the user reports, file by file.',
  '## Completed actions',
  '1. READ and fixed the earlier files',
  '## Active state',
  '- working through the list of files',
].join('\n');

const ask = (turn: number) => `Ask ${turn}: inspect src/file-${turn}.ts and fix the bug.`;

const tools = {
  readFile: tool({
    description: 'Reads a file',
    inputSchema: z.object({ path: z.string() }),
    // A JSON object, as most real tools return: a `json` tool output, not `text`.
    execute: async ({ path }) => ({ path, lines: 120, content: filler(900, path.length) }),
  }),
  runTests: tool({
    description: 'Runs the test suite',
    inputSchema: z.object({ filter: z.string() }),
    execute: async ({ filter }): Promise<{ passed: number }> => {
      throw new Error(`test runner crashed on ${filter}`);
    },
  }),
};

/**
 * A model that, per user turn, reasons, calls `readFile`, then (on odd turns) `runTests` which
 * fails, then answers in text; every part carries provider metadata, as real providers' do.
 */
function agentModel(prompts: LanguageModelV4Prompt[]) {
  let turn = 0;
  /** The reply for a prompt: reasoning, then a tool call or the final text. */
  function reply(prompt: LanguageModelV4Prompt) {
    prompts.push(prompt);
    const lastUser = prompt.findLastIndex((message) => message.role === 'user');
    const steps = prompt.slice(lastUser).filter((message) => message.role === 'tool').length;
    const providerMetadata = { mock: { signature: `sig-${turn}-${steps}` } };
    const reasoning = `Thinking about step ${steps}.`;
    const wantsTests = turn % 2 === 1 && steps === 1;
    if (steps === 0 || wantsTests) {
      const toolName = steps === 0 ? 'readFile' : 'runTests';
      const input = steps === 0 ? { path: `src/file-${turn}.ts` } : { filter: `file-${turn}` };
      return {
        providerMetadata,
        reasoning,
        text: `Calling ${toolName}.`,
        toolCall: { toolCallId: `call-${turn}-${steps}`, toolName, input: JSON.stringify(input) },
      };
    }
    return {
      providerMetadata,
      reasoning,
      text: `Fixed src/file-${turn}.ts: ${filler(60, turn)}`,
      toolCall: undefined,
    };
  }
  const finishReason = (toolCall: unknown) =>
    toolCall === undefined
      ? ({ unified: 'stop', raw: 'stop' } as const)
      : ({ unified: 'tool-calls', raw: 'tool_calls' } as const);
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const { providerMetadata, reasoning, text, toolCall } = reply(prompt);
      return {
        content: [
          { type: 'reasoning', text: reasoning, providerMetadata },
          { type: 'text', text, providerMetadata },
          ...(toolCall === undefined
            ? []
            : [{ type: 'tool-call' as const, ...toolCall, providerMetadata }]),
        ],
        finishReason: finishReason(toolCall),
        usage: usage(),
        providerMetadata,
        warnings: [],
      };
    },
    doStream: async ({ prompt }) => {
      const { providerMetadata, reasoning, text, toolCall } = reply(prompt);
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'r1', providerMetadata },
        { type: 'reasoning-delta', id: 'r1', delta: reasoning },
        { type: 'reasoning-end', id: 'r1', providerMetadata },
        { type: 'text-start', id: 't1', providerMetadata },
        ...text.split(/(?<= )/).map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
        { type: 'text-end', id: 't1', providerMetadata },
        ...(toolCall === undefined
          ? []
          : [{ type: 'tool-call' as const, ...toolCall, providerMetadata }]),
        { type: 'finish', finishReason: finishReason(toolCall), usage: usage(), providerMetadata },
      ];
      return { stream: simulateReadableStream({ chunks: parts }) };
    },
  });
  return {
    model,
    nextTurn: (value: number) => {
      turn = value;
    },
  };
}

async function setup(sessionId: string, strategy: CompressionStrategy = 'auto') {
  const store = await createSessionStore();
  const prompts: LanguageModelV4Prompt[] = [];
  const events: MiddlewareCompactionEvent[] = [];
  let summarizerCalls = 0;
  const inner = agentModel(prompts);
  const model = wrapLanguageModel({
    model: inner.model,
    middleware: compactionMiddleware({
      contextWindow,
      strategy,
      store,
      sessionId,
      summarizer: async () => {
        summarizerCalls++;
        return handoff;
      },
      onCompaction: (event) => void events.push(event),
    }),
  });
  return {
    store,
    prompts,
    events,
    model,
    nextTurn: inner.nextTurn,
    summarizerCalls: () => summarizerCalls,
  };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** The invariants both app styles must keep; returns the figures for the report. */
async function checkFlow(flow: Setup, metadata: BatonProviderMetadata[], askAt: number[]) {
  const { store, prompts, events } = flow;
  // Every prompt the model received is valid and holds the ask of its turn.
  prompts.forEach((prompt, index) => {
    expect(toolPairProblems(prompt), `call ${index}`).toEqual([]);
    expect(promptText(prompt), `call ${index}`).toContain(ask(askAt[index] as number));
  });
  expect(metadata).toHaveLength(prompts.length);
  const compactions = metadata.filter((entry) => entry.compacted);
  expect(compactions.length).toBe(events.length);
  // Compaction happened, but a handful of times, never in two calls running, and each time only
  // because the history grew past the trigger again since the previous one.
  expect(compactions.length).toBeGreaterThanOrEqual(1);
  expect(compactions.length).toBeLessThanOrEqual(4);
  let previousAfter: number | undefined;
  metadata.forEach((entry, index) => {
    if (!entry.compacted) return;
    expect(metadata[index - 1]?.compacted, `calls ${index - 1} and ${index}`).not.toBe(true);
    expect(entry.tokensBefore).toBeGreaterThan(entry.triggerTokens);
    expect(entry.tokensAfter).toBeLessThanOrEqual(entry.triggerTokens);
    if (previousAfter !== undefined) expect(entry.tokensBefore).toBeGreaterThan(previousAfter);
    previousAfter = entry.tokensAfter ?? undefined;
  });
  // After the first compaction every call is sent on the compacted context.
  const first = metadata.findIndex((entry) => entry.compacted);
  for (const entry of metadata.slice(first)) expect(entry.usedCompactedContext).toBe(true);
  // The summariser runs at most once per compaction (its handoff is valid: no retries, no loop).
  const attempts = events.reduce((sum, event) => sum + event.summarizerAttempts, 0);
  expect(flow.summarizerCalls()).toBe(attempts);
  expect(flow.summarizerCalls()).toBeLessThanOrEqual(compactions.length);
  for (const event of events) expect(event.usedFallback).toBe(false);
  const sessions = await store.listSessions({ includeEnded: true });
  const branched = sessions.filter((session) => session.endReason === 'branched');
  expect(branched).toEqual([]);
  // The root plus one child per compaction: no extra sessions.
  expect(sessions).toHaveLength(1 + compactions.length);
  return {
    calls: prompts.length,
    compactions: compactions.length,
    compactedAtCall: metadata.flatMap((entry, index) => (entry.compacted ? [index] : [])),
    summarizerCalls: flow.summarizerCalls(),
    forks: branched.length,
  };
}

/** A chat route: UI messages in, `convertToModelMessages`, `streamText` with tools, UI message out. */
async function uiChatTurn(
  flow: Setup,
  uiMessages: UIMessage[],
  onStep: (metadata: BatonProviderMetadata) => void,
  onError?: (error: unknown) => string,
): Promise<UIMessage> {
  // What a route handler does: rebuild the model messages from the client's UI messages.
  const messages = await convertToModelMessages(uiMessages, { tools });
  const result = streamText({
    model: flow.model,
    messages,
    tools,
    stopWhen: stepCountIs(5),
    onStepEnd: (step) => onStep(step.providerMetadata?.baton as unknown as BatonProviderMetadata),
  });
  // What the client keeps: the assistant UI message assembled from the stream.
  let assistant: UIMessage | undefined;
  for await (const message of readUIMessageStream({
    stream: toUIMessageStream({
      stream: result.stream,
      tools,
      ...(onError === undefined ? {} : { onError }),
    }),
  })) {
    assistant = message;
  }
  if (assistant === undefined) throw new Error('no assistant message');
  return assistant;
}

async function uiFlow(flow: Setup, onError?: (error: unknown) => string) {
  const uiMessages: UIMessage[] = [];
  const metadata: BatonProviderMetadata[] = [];
  const askAt: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    flow.nextTurn(turn);
    uiMessages.push({
      id: `user-${turn}`,
      role: 'user',
      parts: [{ type: 'text', text: ask(turn) }],
    });
    const assistant = await uiChatTurn(
      flow,
      uiMessages,
      (entry) => {
        metadata.push(entry);
        askAt.push(turn);
      },
      onError,
    );
    expect(assistant.parts.some((part) => part.type === 'tool-runTests')).toBe(turn % 2 === 1);
    uiMessages.push(assistant);
  }
  const figures = await checkFlow(flow, metadata, askAt);
  // The error result of `runTests` reached the model on the turns that ran it (in the UI's words
  // on later turns when the app redacts errors).
  const lastPrompt = promptText(flow.prompts.at(-1) as LanguageModelV4Prompt);
  expect(lastPrompt).toContain(
    onError === undefined ? 'test runner crashed on file-13' : onError(undefined),
  );
  return { uiMessages, figures };
}

describe('compactionMiddleware in an AI SDK UI app flow', () => {
  it('streamText + convertToModelMessages each turn: compacts a few times, never forks or loops', async () => {
    const flow = await setup('ui-chat');
    const { uiMessages, figures } = await uiFlow(flow);
    console.info('ui flow', { turns, ...figures });

    // The comparison still sees a real edit: regenerating the last answer to an edited ask forks once.
    const edited = uiMessages.slice(0, -1);
    edited[edited.length - 1] = {
      id: 'user-edited',
      role: 'user',
      parts: [{ type: 'text', text: ask(99) }],
    };
    flow.nextTurn(99);
    await uiChatTurn(flow, edited, () => undefined);
    const sessions = await flow.store.listSessions({ includeEnded: true });
    expect(sessions.filter((session) => session.endReason === 'branched')).toHaveLength(1);
  });

  it('the summarize strategy in the same UI flow: one summariser call per compaction', async () => {
    const flow = await setup('ui-chat-summarize', 'summarize');
    const { figures } = await uiFlow(flow);
    expect(figures.summarizerCalls).toBe(figures.compactions);
    console.info('ui flow, summarize', { turns, ...figures });
  });

  it('a UI that redacts tool errors (onError) is not an edited history: no fork, no re-compaction', async () => {
    const flow = await setup('ui-chat-redacted', 'summarize');
    // The AI SDK warns that the UI's error text differs from the model's; that is this test's point.
    const logWarnings = (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS;
    (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
    try {
      const { figures } = await uiFlow(flow, () => 'The tool failed.');
      expect(figures.summarizerCalls).toBe(figures.compactions);
      console.info('ui flow, redacted tool errors', { turns, ...figures });
    } finally {
      (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = logWarnings;
    }
  });

  it('generateText + responseMessages appended as model messages: the same invariants', async () => {
    const flow = await setup('model-chat');
    const messages: ModelMessage[] = [];
    const metadata: BatonProviderMetadata[] = [];
    const askAt: number[] = [];
    for (let turn = 0; turn < turns; turn++) {
      flow.nextTurn(turn);
      messages.push({ role: 'user', content: ask(turn) });
      const result = await generateText({
        model: flow.model,
        messages,
        tools,
        stopWhen: stepCountIs(5),
        onStepEnd: (step) => {
          metadata.push(step.providerMetadata?.baton as unknown as BatonProviderMetadata);
          askAt.push(turn);
        },
      });
      messages.push(...result.responseMessages);
    }
    const figures = await checkFlow(flow, metadata, askAt);
    console.info('model-message flow', { turns, ...figures });
  });
});
