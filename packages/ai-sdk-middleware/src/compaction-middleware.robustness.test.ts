import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SummarizerRequest } from '@baton/compressor';
import { toolPairProblems } from '@baton/compressor/test';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compactionMiddleware } from './compaction-middleware.js';
import { ContextWindowExceededError } from './index.js';
import {
  agentHistory,
  filler,
  promptText,
  textResult,
  toolCallResult,
} from './test-utils/conversation.js';
import type { MiddlewareCompactionEvent } from './types.js';

const handoff = [
  '## Goal',
  'Answer the asks.',
  '## Completed actions',
  '1. REPLIED to the asks',
  '## Critical context',
  '- nothing else',
].join('\n');

describe('conversations without a session id', () => {
  it('keep their own compaction when they share a first message', async () => {
    let summaries = 0;
    const inner = new MockLanguageModelV4({ doGenerate: textResult('ok') });
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 8_000,
        strategy: 'summarize',
        summarizer: async () => {
          summaries++;
          return handoff;
        },
      }),
    });
    const conversation = (tag: string): ModelMessage[] => {
      const messages: ModelMessage[] = [{ role: 'user', content: 'Hello' }];
      for (let turn = 0; turn < 20; turn++) {
        messages.push({ role: 'assistant', content: `${tag} reply ${turn} ${filler(300, turn)}` });
        messages.push({ role: 'user', content: `${tag} ask ${turn + 1}` });
      }
      return messages;
    };
    const conversations = { A: conversation('A'), B: conversation('B') };
    for (let round = 0; round < 6; round++) {
      for (const [tag, messages] of Object.entries(conversations)) {
        messages.push(
          { role: 'assistant', content: `${tag} more ${round}` },
          { role: 'user', content: `${tag} next ${round}` },
        );
        const result = await generateText({ model, messages });
        expect(result.providerMetadata?.baton?.usedCompactedContext).toBe(true);
        // Each conversation's prompt holds only its own history.
        const sent = promptText(inner.doGenerateCalls.at(-1)?.prompt ?? []);
        expect(sent).toContain(`${tag} next ${round}`);
        expect(sent).not.toContain(`${tag === 'A' ? 'B' : 'A'} next`);
      }
    }
    // One compaction per conversation (12 calls), not one per call.
    expect(summaries).toBe(2);
  });
});

describe('an oversized tool output in the latest turn', () => {
  const runLoop = async (outputTokens: number) => {
    const events: MiddlewareCompactionEvent[] = [];
    const inner = new MockLanguageModelV4({
      doGenerate: async (options: LanguageModelV4CallOptions) =>
        options.prompt.at(-1)?.role === 'user'
          ? toolCallResult('call-big', 'readLog', {})
          : textResult('done'),
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        contextWindow: 32_000,
        onCompaction: (event) => void events.push(event),
      }),
    });
    const bigOutput = `START-OF-LOG ${filler(outputTokens, 7)} END-OF-LOG`;
    const result = await generateText({
      model,
      messages: [...agentHistory(3), { role: 'user', content: 'Read the build log.' }],
      tools: {
        readLog: tool({ inputSchema: z.object({}), execute: async () => bigOutput }),
      },
      stopWhen: stepCountIs(3),
    });
    return { inner, result, events };
  };

  it('is clipped (start and end kept, marked) instead of failing the agent loop', async () => {
    const { inner, result, events } = await runLoop(29_000);
    expect(result.text).toBe('done');
    const prompt = inner.doGenerateCalls[1]?.prompt ?? [];
    const sent = promptText(prompt);
    expect(sent).toContain('START-OF-LOG');
    expect(sent).toContain('END-OF-LOG');
    expect(sent).toMatch(/\[Baton: \d+ tokens omitted\]/);
    expect(toolPairProblems(prompt)).toEqual([]);
    const baton = result.steps[1]?.providerMetadata?.baton;
    expect(baton).toMatchObject({ compacted: true, clippedToolOutputs: 1 });
    expect(baton?.omittedToolTokens).toBeGreaterThan(10_000);
    expect(baton?.inputTokens).toBeLessThanOrEqual(28_000);
    expect(events[0]).toMatchObject({ clippedToolOutputs: 1 });
  });

  it('still raises ContextWindowExceededError when there is nothing to clip', async () => {
    const inner = new MockLanguageModelV4({ doGenerate: textResult('ok') });
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({ contextWindow: 32_000 }),
    });
    await expect(
      generateText({ model, messages: [{ role: 'user', content: filler(40_000) }] }),
    ).rejects.toSatisfy((error) => ContextWindowExceededError.isInstance(error));
    expect(inner.doGenerateCalls).toHaveLength(0);
  });
});

describe('summariser defaults', () => {
  it('gives a failing summariser 2 attempts by default, and compressor options override it', async () => {
    const run = async (compressor: { maxAttempts?: number } | undefined) => {
      const requests: SummarizerRequest[] = [];
      const events: MiddlewareCompactionEvent[] = [];
      const model = wrapLanguageModel({
        model: new MockLanguageModelV4({ doGenerate: textResult('ok') }),
        middleware: compactionMiddleware({
          contextWindow: 16_000,
          strategy: 'summarize',
          // A refusal holding none of the span's facts is rejected as garbage and retried.
          summarizer: async (request) => {
            requests.push(request);
            return "I'm sorry, but I can't help with that.";
          },
          ...(compressor === undefined ? {} : { compressor: { ...compressor, retryDelayMs: 1 } }),
          onCompaction: (event) => void events.push(event),
        }),
      });
      await generateText({
        model,
        messages: [...agentHistory(30, 30, 350), { role: 'user', content: 'Next ask.' }],
      });
      return { requests, events };
    };
    const defaults = await run(undefined);
    expect(defaults.requests.map((request) => request.attempt)).toEqual([1, 2]);
    expect(defaults.events[0]).toMatchObject({ usedFallback: true, strategy: 'receipt' });
    const one = await run({ maxAttempts: 1 });
    expect(one.requests).toHaveLength(1);
  });
});
