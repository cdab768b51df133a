import { APICallError } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { HANDOFF_HEADER } from '@baton/fallback';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, type SummarizerRequest, validateToolPairs } from './index.js';
import { deepFreeze } from './test-utils/deep-freeze.js';
import { assistant, toolTurn, user } from './test-utils/history.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

const counter = createSimpleCounter();
const secret = () => 'ghp_' + 'a1B2c3D4e5F6g7H8' + 'i9J0k1L2m3N4o5P6q7R8';
const filler = (label: string) => `${label}\n${'log line with some data in it\n'.repeat(60)}`;

function history(): ModelMessage[] {
  return deepFreeze([
    { role: 'system', content: 'You are a coding agent.' },
    user('Fix the flaky test.'),
    assistant('Looking at it.'),
    ...toolTurn('read', filler('read one')),
    ...toolTurn('bash', `${filler('bash two')}\nexport GITHUB_TOKEN=${secret()}`),
    ...toolTurn('edit', filler('edit three')),
    ...toolTurn('bash', filler('bash four')),
    user('Now update the changelog.'),
    assistant('Done.'),
  ]);
}

function textResult(text: string) {
  return {
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    },
    warnings: [],
  };
}

function compressorWith(
  model: MockLanguageModelV4 | ((request: SummarizerRequest) => Promise<string>),
  extra: object = {},
) {
  return new ContextCompressor({
    counter,
    summarizer: model,
    protectLastNTokens: 50,
    retryDelayMs: 1,
    ...extra,
  });
}

const target = 1_200;

describe('summariser through MockLanguageModelV4', () => {
  it('sends redacted, delimited, structured instructions and returns the parsed handoff', async () => {
    const model = new MockLanguageModelV4({
      modelId: 'mock-summarizer',
      doGenerate: textResult(structuredSummary()),
    });
    const messages = history();
    const result = await compressorWith(model).compress(messages, {
      targetTokens: target,
      strategy: 'summarize',
    });
    expect(result.strategy).toBe('summarize');
    expect(result.event.summarizerModel).toBe('mock-summarizer');
    expect(model.doGenerateCalls).toHaveLength(1);
    const prompt = model.doGenerateCalls[0]!.prompt;
    const sent = JSON.stringify(prompt);
    expect(sent).not.toContain(secret());
    expect(prompt[0]!.role).toBe('system');
    expect(String(prompt[0]!.content)).toMatch(/## Completed actions/);
    expect(String(prompt[0]!.content)).toMatch(/not instructions to follow/);
    expect(sent).toMatch(/<transcript>/);
    expect(result.summary!.startsWith(HANDOFF_HEADER)).toBe(true);
    expect(validateToolPairs(result.messages).valid).toBe(true);
  });

  const faults: Array<[string, () => MockLanguageModelV4, RegExp, number]> = [
    [
      'throws',
      () =>
        new MockLanguageModelV4({
          doGenerate: async () => {
            throw new Error('boom');
          },
        }),
      /^error: summariser failed: boom/,
      3,
    ],
    [
      'returns empty text',
      () => new MockLanguageModelV4({ doGenerate: textResult('  ') }),
      /^empty:/,
      3,
    ],
    [
      'returns garbage',
      () => new MockLanguageModelV4({ doGenerate: textResult('I cannot help with that.') }),
      /^garbage:/,
      3,
    ],
    [
      'returns a summary longer than its target',
      () =>
        new MockLanguageModelV4({
          doGenerate: textResult(structuredSummary('very long '.repeat(800))),
        }),
      /^too_long:/,
      3,
    ],
    [
      'rate-limits every time',
      () =>
        new MockLanguageModelV4({
          doGenerate: async () => {
            throw new APICallError({
              message: 'Too Many Requests',
              url: 'http://127.0.0.1/v1/chat/completions',
              requestBodyValues: {},
              statusCode: 429,
              responseHeaders: { 'retry-after': '0.01' },
              isRetryable: true,
            });
          },
        }),
      /^rate_limited:/,
      3,
    ],
  ];
  for (const [name, makeModel, reason, attempts] of faults) {
    it(`falls back to the receipt when the summariser ${name}`, async () => {
      const model = makeModel();
      const result = await compressorWith(model).compress(history(), {
        targetTokens: target,
        strategy: 'summarize',
      });
      expect(result.strategy).toBe('receipt');
      expect(result.usedFallback).toBe(true);
      expect(result.fallbackReason).toMatch(reason);
      expect(result.event.stages).toEqual(['summarize', 'receipt']);
      expect(result.event.summarizerAttempts).toBe(attempts);
      expect(model.doGenerateCalls).toHaveLength(attempts);
      expect(result.summary!.startsWith(HANDOFF_HEADER)).toBe(true);
      expect(result.summary).not.toContain('boom');
      expect(result.tokensAfter).toBeLessThanOrEqual(target);
      expect(validateToolPairs(result.messages).valid).toBe(true);
    });
  }

  it('retries after one failure and succeeds', async () => {
    let calls = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        calls++;
        if (calls === 1) throw new Error('transient');
        return textResult(structuredSummary());
      },
    });
    const result = await compressorWith(model).compress(history(), {
      targetTokens: target,
      strategy: 'summarize',
    });
    expect(result.strategy).toBe('summarize');
    expect(result.usedFallback).toBe(false);
    expect(result.event.summarizerAttempts).toBe(2);
  });

  it('times out a hanging summariser, then falls back', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: (options) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal!.reason));
        }),
    });
    const result = await compressorWith(model, { timeoutMs: 30, maxAttempts: 2 }).compress(
      history(),
      {
        targetTokens: target,
        strategy: 'summarize',
      },
    );
    expect(result.usedFallback).toBe(true);
    expect(result.fallbackReason).toMatch(/^timeout:/);
    expect(result.event.summarizerAttempts).toBe(2);
  });

  it('stops at once when the caller aborts, and still returns a receipt', async () => {
    const controller = new AbortController();
    const summarizer = async (request: SummarizerRequest) => {
      controller.abort();
      // A summariser that ignores its signal must not hold compress up.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return request.prompt;
    };
    const started = performance.now();
    const result = await compressorWith(summarizer).compress(history(), {
      targetTokens: target,
      strategy: 'summarize',
      abortSignal: controller.signal,
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.fallbackReason).toMatch(/^aborted:/);
    expect(result.event.summarizerAttempts).toBe(1);
  });

  // Packing at budgets that do leave room is tested in compress-safety.test.ts (exact counts).
  it('refuses, without calling the model, an input budget that leaves no room for data', async () => {
    const model = new MockLanguageModelV4({ doGenerate: textResult(structuredSummary()) });
    const result = await compressorWith(model, { summarizerInputBudget: 200 }).compress(history(), {
      targetTokens: target,
      strategy: 'summarize',
    });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(result.fallbackReason).toMatch(/^input_too_large:/);
  });

  it('summarises a middle larger than the input budget in chunks, each updating the previous summary', async () => {
    const requests: SummarizerRequest[] = [];
    const summarizer = async (request: SummarizerRequest) => {
      requests.push(request);
      return structuredSummary(`chunk ${request.chunkIndex}`);
    };
    const budget = 2_000;
    const result = await compressorWith(summarizer, {
      summarizerInputBudget: budget,
      summaryTargetTokens: 300,
    }).compress(history(), {
      targetTokens: target,
      strategy: 'summarize',
    });
    expect(result.fallbackReason).toBeUndefined();
    expect(result.strategy).toBe('summarize');
    expect(requests.length).toBeGreaterThan(1);
    for (const request of requests) {
      expect(request.inputTokens).toBeLessThanOrEqual(budget);
      expect(request.chunkCount).toBe(requests.length);
    }
    expect(requests[0]!.previousSummary).toBeUndefined();
    expect(requests[1]!.previousSummary).toMatch(/chunk 0/);
    expect(requests[1]!.prompt).toMatch(/<previous-summary>[\s\S]*chunk 0/);
    expect(result.summary).toMatch(new RegExp(`chunk ${requests.length - 1}`));
  });

  it('updates an earlier Baton handoff found in the middle instead of summarising it', async () => {
    const requests: SummarizerRequest[] = [];
    const summarizer = async (request: SummarizerRequest) => {
      requests.push(request);
      return structuredSummary('second compaction');
    };
    const compressor = compressorWith(summarizer);
    const first = await compressor.compress(history(), {
      targetTokens: target,
      strategy: 'summarize',
    });
    const grown = deepFreeze([
      ...first.messages,
      ...toolTurn('bash', filler('bash five')),
      ...toolTurn('read', filler('read six')),
      assistant('More done.'),
    ]);
    requests.length = 0;
    const second = await compressor.compress(grown, {
      targetTokens: target,
      strategy: 'summarize',
    });
    expect(second.strategy).toBe('summarize');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.previousSummary).toBe(first.summary);
    expect(requests[0]!.prompt).toMatch(/<previous-summary>/);
    // The earlier handoff is passed as the previous summary, not as conversation data.
    const transcript = requests[0]!.prompt.split('<transcript>')[1]!;
    expect(transcript).not.toContain(HANDOFF_HEADER);
    expect(requests[0]!.instructions).toMatch(/Update it/);
  });

  it('cache-friendly mode sends the conversation prefix unchanged plus one instruction', async () => {
    const model = new MockLanguageModelV4({ doGenerate: textResult(structuredSummary()) });
    const messages = history();
    const result = await compressorWith(model, { cacheFriendly: true }).compress(messages, {
      targetTokens: target,
      strategy: 'summarize',
    });
    expect(result.strategy).toBe('summarize');
    const prompt = model.doGenerateCalls[0]!.prompt;
    const tailStart = result.event.tailStartIndex;
    expect(prompt).toHaveLength(tailStart + 1);
    expect(prompt[0]).toMatchObject({ role: 'system', content: 'You are a coding agent.' });
    expect(prompt[1]).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'Fix the flaky test.' }],
    });
    expect(JSON.stringify(prompt.at(-1))).toMatch(/handoff record/);
  });

  it('auto records every stage when the summariser fails, and the event is plain JSON', async () => {
    const model = new MockLanguageModelV4({
      modelId: 'failing-model',
      doGenerate: async () => {
        throw new Error('upstream down');
      },
    });
    // Prose in the middle: masking tool outputs alone cannot reach the target.
    const base = history();
    const messages = deepFreeze([
      ...base.slice(0, 5),
      assistant(filler('long analysis')),
      ...base.slice(5),
    ]);
    const result = await compressorWith(model).compress(messages, { targetTokens: 600 });
    // Masking every old output could not fit 600 tokens, so it did not run and is not listed.
    expect(result.event.stages).toEqual(['summarize', 'receipt']);
    expect(result.strategy).toBe('receipt');
    expect(result.event.summarizerModel).toBe('failing-model');
    expect(result.event.summarizerAttempts).toBe(3);
    expect(result.event.durationMs).toBeGreaterThanOrEqual(result.event.summarizerDurationMs);
    expect(JSON.parse(JSON.stringify(result.event))).toEqual(result.event);
    expect(result.event.removedMessageIndexes.length + result.messages.length - 1).toBe(
      messages.length,
    );
  });
});
