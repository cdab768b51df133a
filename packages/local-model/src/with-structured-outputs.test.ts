import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
} from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createContextCompressor } from '@baton/compressor';
import { createTokenCounter } from '@baton/tokens';
import { type LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalModel } from './create-local-model.js';
import { withStructuredOutputs } from './with-structured-outputs.js';

// A real LocalLanguageModel on a stand-in file: the recording middleware answers every call itself,
// so the weights are never loaded and the test needs neither node-llama-cpp's runtime nor the model.
const folder = mkdtempSync(join(tmpdir(), 'baton-structured-'));
const standIn = join(folder, 'stand-in.gguf');
writeFileSync(standIn, '');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const counter = createTokenCounter({ model: 'gpt-4o' });

function reply(text: string): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: 0 },
    },
    warnings: [],
  };
}

/**
 * A middleware that records each request and answers it without calling the model: a JSON handoff
 * when JSON was asked for, else a markdown one.
 */
function recorder(goal: string) {
  const calls: LanguageModelV4CallOptions[] = [];
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v4',
    wrapGenerate: async ({ params }) => {
      calls.push(params);
      return reply(
        params.responseFormat?.type === 'json'
          ? JSON.stringify({
              goal,
              completedActions: [],
              files: [],
              blockers: [],
              decisions: [],
              remainingWork: [],
              criticalContext: [],
            })
          : `## Goal\n${goal}`,
      );
    },
  };
  return { calls, middleware };
}

/** A history whose middle must be summarised to reach 60 % of it. */
function history(nonce: string): ModelMessage[] {
  const log = `build log ${nonce}\n${'compiling module and linking objects\n'.repeat(120)}`;
  const turn = (index: number): ModelMessage[] => [
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: `call-${index}`,
          toolName: 'bash',
          input: { command: `make part-${index}` },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `call-${index}`,
          toolName: 'bash',
          output: { type: 'text', value: log },
        },
      ],
    },
  ];
  return [
    { role: 'user', content: `Fix the build of src/${nonce}/main.ts.` },
    { role: 'assistant', content: 'Looking at it.' },
    ...turn(1),
    ...turn(2),
    ...turn(3),
    ...turn(4),
    { role: 'user', content: 'Now update the changelog.' },
    { role: 'assistant', content: 'On it.' },
  ];
}

async function summarise(summarizer: LanguageModelV4, nonce: string) {
  const messages = history(nonce);
  return createContextCompressor({
    summarizer,
    counter,
    protectLastNTokens: 40,
    summaryTargetTokens: 120,
    maxAttempts: 1,
  }).compress(messages, {
    targetTokens: Math.floor(counter.countMessages(messages) * 0.6),
    strategy: 'summarize',
  });
}

describe('a local model wrapped with wrapLanguageModel, used as the summariser', () => {
  it('loses supportsStructuredOutputs in the AI SDK wrapper, so the compressor asks for free text (what the README warns about)', async () => {
    const local = createLocalModel({ modelPath: standIn });
    expect(local.supportsStructuredOutputs).toBe(true);
    const { calls, middleware } = recorder('Fix the build.');
    const wrapped = wrapLanguageModel({ model: local, middleware });
    // If this fails, the SDK now carries the flag itself: the README's advice can be relaxed.
    expect((wrapped as { supportsStructuredOutputs?: unknown }).supportsStructuredOutputs).toBe(
      undefined,
    );
    const result = await summarise(wrapped, 'plain');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.responseFormat).toBeUndefined();
    expect(result.strategy).toBe('summarize');
  });

  it('keeps the structured path with withStructuredOutputs: the wrapped local model is asked for the JSON handoff through its schema', async () => {
    const local = createLocalModel({ modelPath: standIn });
    const nonce = Math.random().toString(36).slice(2, 10);
    const goal = `Fix the build of ${nonce}.`;
    const { calls, middleware } = recorder(goal);
    const wrapped = withStructuredOutputs(wrapLanguageModel({ model: local, middleware }), {
      from: local,
    });
    expect(wrapped.supportsStructuredOutputs).toBe(true);
    expect(wrapped.modelId).toBe(local.modelId);
    const result = await summarise(wrapped, nonce);
    expect(calls).toHaveLength(1);
    const format = calls[0]!.responseFormat;
    expect(format?.type).toBe('json');
    expect(format?.type === 'json' && format.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
    });
    // The JSON reply was read as the handoff (rendered into sections, not quoted as JSON).
    expect(result.strategy).toBe('summarize');
    expect(result.usedFallback).toBe(false);
    expect(result.summary).toContain(goal);
    expect(result.summary).not.toContain('"completedActions"');
    expect(result.event.summarizerModel).toBe(local.modelId);
  });

  it('for any stack of middlewares and any flag on the wrapped model, asks for JSON exactly when that model supports it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<'local' | 'without' | 'false'>('local', 'without', 'false'),
        fc.integer({ min: 1, max: 3 }),
        fc.stringMatching(/^[a-z][a-z0-9]{3,11}$/),
        async (kind, depth, nonce) => {
          const base: LanguageModelV4 =
            kind === 'local'
              ? createLocalModel({ modelPath: standIn })
              : kind === 'without'
                ? new MockLanguageModelV4()
                : Object.assign(new MockLanguageModelV4(), { supportsStructuredOutputs: false });
          const { calls, middleware } = recorder(`Fix the build of ${nonce}.`);
          // Outer middlewares pass through; the innermost one answers.
          const passThrough: LanguageModelMiddleware = { specificationVersion: 'v4' };
          const wrapped = withStructuredOutputs(
            wrapLanguageModel({
              model: base,
              middleware: [...Array.from({ length: depth - 1 }, () => passThrough), middleware],
            }),
            { from: base as { supportsStructuredOutputs?: boolean } },
          );
          const expected = kind === 'local';
          expect(wrapped.supportsStructuredOutputs).toBe(expected);
          const result = await summarise(wrapped, nonce);
          expect(calls).toHaveLength(1);
          expect(calls[0]!.responseFormat?.type === 'json').toBe(expected);
          expect(result.fallbackReason).toBeUndefined();
          expect(result.strategy).toBe('summarize');
        },
      ),
      { numRuns: 60 },
    );
  });
});
