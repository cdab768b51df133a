import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CompressionStrategy } from '@baton/compressor';
import { toolPairProblems } from '@baton/compressor/test';
import { createSessionStore } from '@baton/sessions';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, filler, fixBugsHandoff, usage } from './test-utils/conversation.js';
import type { MiddlewareCompactionEvent } from './types.js';

/**
 * One user ask, then an agent loop of many tool steps with no further user message (the normal
 * case): every compaction after the first compacts a history holding Baton's own earlier insert.
 * The ask must reach the model verbatim, as the latest real user message, in every prompt.
 */
const instructions = 'You are a careful coding agent.';
const ask = 'Audit every module under src/ and fix each failing test, one file at a time.';
/** Earlier turns, so the ask is not the first user message (which the head keeps anyway). */
const earlier: ModelMessage[] = agentHistory(3, 150);

type Session = { store: Awaited<ReturnType<typeof createSessionStore>>; sessionId: string };

function userText(message: LanguageModelV4Prompt[number]): string {
  if (message.role !== 'user') return '';
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

function isBatonInsert(message: LanguageModelV4Prompt[number]): boolean {
  return (
    message.role === 'user' &&
    (message.providerOptions?.baton !== undefined || userText(message).startsWith('[Baton'))
  );
}

/** The ask is present verbatim and no real user message follows it (only Baton's records may). */
export function expectAskHeld(prompt: LanguageModelV4Prompt, askText: string, label: string) {
  const at = prompt.findLastIndex(
    (message) => message.role === 'user' && userText(message) === askText,
  );
  expect(at, `${label}: the ask is missing`).toBeGreaterThanOrEqual(0);
  for (const message of prompt.slice(at + 1)) {
    if (message.role === 'user') expect(isBatonInsert(message), label).toBe(true);
  }
}

function loopModel(prompts: LanguageModelV4Prompt[]) {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      step++;
      return {
        content: [
          { type: 'text', text: `Step ${step}: reading the next file.` },
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
}

const tools = {
  readFile: tool({
    description: 'Reads a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `${path}\n${filler(700, path.length)}`,
  }),
};

function wrapped(
  strategy: CompressionStrategy,
  prompts: LanguageModelV4Prompt[],
  events: MiddlewareCompactionEvent[],
  session?: Session,
) {
  return wrapLanguageModel({
    model: loopModel(prompts),
    middleware: compactionMiddleware({
      contextWindow: 8_000,
      reservedOutputTokens: 500,
      strategy,
      summarizer: async () => fixBugsHandoff,
      onCompaction: (event) => void events.push(event),
      ...(session === undefined ? {} : session),
    }),
  });
}

const strategies: CompressionStrategy[] = ['truncate', 'summarize', 'receipt', 'auto'];

describe('an agent loop after one ask, across several compactions', () => {
  for (const strategy of strategies) {
    it(`${strategy}: every prompt of 24 tool steps holds the ask`, async () => {
      const prompts: LanguageModelV4Prompt[] = [];
      const events: MiddlewareCompactionEvent[] = [];
      await generateText({
        model: wrapped(strategy, prompts, events),
        instructions,
        messages: [...earlier, { role: 'user', content: ask }],
        tools,
        stopWhen: stepCountIs(24),
      });
      expect(prompts).toHaveLength(24);
      expect(events.length, 'compactions').toBeGreaterThanOrEqual(3);
      prompts.forEach((prompt, index) => {
        expectAskHeld(prompt, ask, `${strategy} step ${index}`);
        expect(toolPairProblems(prompt), `${strategy} step ${index}`).toEqual([]);
        // The app's system prompt stays first, unchanged.
        expect(prompt[0]).toEqual({ role: 'system', content: instructions });
      });
    });
  }

  it('holds the ask across a restart on a session store (a new middleware on the same lineage)', async () => {
    const store = await createSessionStore();
    const session = { store, sessionId: 'agent-loop-restart' };
    const prompts: LanguageModelV4Prompt[] = [];
    const events: MiddlewareCompactionEvent[] = [];
    const first = await generateText({
      model: wrapped('truncate', prompts, events, session),
      instructions,
      messages: [...earlier, { role: 'user', content: ask }],
      tools,
      stopWhen: stepCountIs(12),
    });
    expect(events.length).toBeGreaterThanOrEqual(1);
    // "Process 2": nothing in memory, the lineage (with the compacted history) read back.
    const messages: ModelMessage[] = [
      ...earlier,
      { role: 'user', content: ask },
      ...first.responseMessages,
    ];
    await generateText({
      model: wrapped('truncate', prompts, events, session),
      instructions,
      messages,
      tools,
      stopWhen: stepCountIs(12),
    });
    expect(prompts).toHaveLength(24);
    expect(events.length).toBeGreaterThanOrEqual(3);
    prompts.forEach((prompt, index) => {
      expectAskHeld(prompt, ask, `restart step ${index}`);
      expect(toolPairProblems(prompt), `restart step ${index}`).toEqual([]);
    });
    await store.close();
  }, 60_000);
});
