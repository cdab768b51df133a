import type { ModelMessage } from '@ai-sdk/provider-utils';
import { corpusSkipReason, loadTranscripts } from '@baton/test-corpus';
import { createTokenCounter, type TokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { batonProviderOptionsKey } from './baton-insert.js';
import {
  type CompressionStrategy,
  type CompressResult,
  ContextCompressor,
  type ContextCompressorOptions,
  validateToolPairs,
} from './index.js';
import { deepFreeze } from './test-utils/deep-freeze.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Protect mode, `compress(messages)` without `targetTokens`: head and the last
 * `protectLastNTokens` verbatim, the whole middle replaced by one handoff within
 * `summaryTargetTokens`. Checked over generated histories with the compressor's counter, apart
 * from the compressor's own bookkeeping (cuts and suffix sums recomputed here by brute force).
 * Seeded so CI runs the same cases; change `seed` locally to explore.
 */
const seed = 4_242;
const simple = createSimpleCounter();

/** Cut positions recomputed here: no call before `c` answered at or after `c`, no tool message first. */
function allowedCuts(input: readonly ModelMessage[]): boolean[] {
  const resultAt = new Map<string, number>();
  input.forEach((message, index) => {
    if (message.role !== 'tool') return;
    for (const part of message.content) {
      if (part.type === 'tool-result') resultAt.set(part.toolCallId, index);
    }
  });
  const allowed: boolean[] = [];
  for (let cut = 0; cut <= input.length; cut++) {
    let ok = cut === input.length || input[cut]!.role !== 'tool';
    for (let index = 0; index < cut && ok; index++) {
      const message = input[index]!;
      if (message.role !== 'assistant' || typeof message.content === 'string') continue;
      for (const part of message.content) {
        if (part.type !== 'tool-call' || part.providerExecuted === true) continue;
        const result = resultAt.get(part.toolCallId);
        if (result !== undefined && result >= cut) ok = false;
      }
    }
    allowed.push(ok);
  }
  return allowed;
}

/** The invariants of a protect-mode result; returns whether it compacted. */
function checkProtect(
  input: readonly ModelMessage[],
  result: CompressResult<ModelMessage>,
  options: { counter: TokenCounter; protectLastNTokens: number; summaryTargetTokens: number },
): boolean {
  const { counter } = options;
  const output = result.messages;
  expect(result.mode).toBe('protect');
  expect(result.event.mode).toBe('protect');
  // No problem a provider would reject that the input did not already have.
  const known = new Set(
    validateToolPairs(input).problems.map((problem) => `${problem.code} ${problem.toolCallId}`),
  );
  for (const problem of validateToolPairs(output).problems) {
    expect(known).toContain(`${problem.code} ${problem.toolCallId}`);
  }
  expect(result.tokensBefore).toBe(counter.countMessages(input));
  expect(result.tokensAfter).toBe(counter.countMessages(output));
  expect(result.tokensSaved).toBe(result.tokensBefore - result.tokensAfter);
  // Every system message stays, verbatim and in order.
  const systems = input.filter((message) => message.role === 'system');
  expect(output.filter((message) => message.role === 'system')).toEqual(systems);
  for (const message of systems) expect(output).toContain(message);
  // The latest user ask stays, verbatim, as the latest non-insert user message. A compacted
  // history continued without a new ask ends its user messages with Baton's own handoff, which a
  // later compaction rebuilds: that is no ask (the fixed seed never drew such a continuation).
  const latestUser = input.findLast(
    (message) =>
      message.role === 'user' &&
      typeof (message.providerOptions?.[batonProviderOptionsKey] as { inserted?: unknown })
        ?.inserted !== 'string',
  );
  if (latestUser) expect(output).toContain(latestUser);
  if (result.strategy === 'none') {
    expect(result.unchangedReason).toBe('too-short');
    expect(result.event.unchangedReason).toBe('too-short');
    expect(output).toHaveLength(input.length);
    for (const [index, message] of output.entries()) expect(message).toBe(input[index]);
    return false;
  }
  expect(result.unchangedReason).toBeUndefined();
  expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
  expect(result.withinBudget).toBe(true);
  const { headMessageCount, tailStartIndex, removedMessageIndexes } = result.event;
  expect(result.event.headDemoted).toBe(false);
  // Head: the very input objects, at least the leading system messages and the first user message.
  for (let index = 0; index < headMessageCount; index++) expect(output[index]).toBe(input[index]);
  const firstUser = input.findIndex((message) => message.role === 'user');
  if (firstUser >= 0) expect(headMessageCount).toBeGreaterThan(firstUser);
  // Tail: the very input objects, at least every allowed suffix within protectLastNTokens.
  const tail = input.slice(tailStartIndex);
  for (const [offset, message] of tail.entries()) {
    expect(output[output.length - tail.length + offset]).toBe(message);
  }
  const allowed = allowedCuts(input);
  let suffix = 0;
  for (let cut = input.length - 1; cut >= headMessageCount; cut--) {
    suffix += counter.countMessage(input[cut]!);
    if (suffix > options.protectLastNTokens) break;
    if (allowed[cut]) expect(tailStartIndex).toBeLessThanOrEqual(cut);
  }
  // Only the middle is touched, and the whole middle (bar kept messages) is compressed.
  for (const index of removedMessageIndexes) {
    expect(index).toBeGreaterThanOrEqual(headMessageCount);
    expect(index).toBeLessThan(tailStartIndex);
  }
  if (result.strategy !== 'mask') {
    const expected: number[] = [];
    for (let index = headMessageCount; index < tailStartIndex; index++) {
      const message = input[index]!;
      if (message.role === 'system' || message === latestUser) continue;
      expected.push(index);
    }
    expect(removedMessageIndexes).toEqual(expected);
  }
  if (result.strategy === 'summarize' || result.strategy === 'receipt') {
    expect(result.summary).toBeDefined();
    expect(counter.count(result.summary!)).toBeLessThanOrEqual(options.summaryTargetTokens);
    expect(output).toContainEqual(expect.objectContaining({ role: 'user' }));
  }
  return true;
}

const settings = fc.record({
  protectLastNTokens: fc.integer({ min: 0, max: 2_500 }),
  summaryTargetTokens: fc.integer({ min: 200, max: 900 }),
});

/** A compressor with the generated settings and the simple counter; `extra` adds options. */
function compressorFor(
  settings: { protectLastNTokens: number; summaryTargetTokens: number },
  extra: ContextCompressorOptions = {},
): ContextCompressor {
  return new ContextCompressor({ counter: simple, ...settings, retryDelayMs: 0, ...extra });
}

describe('compress(messages) without targetTokens (protect mode)', () => {
  const outcomes: Record<string, number> = {};
  afterAll(() => {
    // Mostly real compactions, and the too-short path exercised too.
    expect(outcomes.compacted ?? 0).toBeGreaterThan(0.4 * (outcomes.none ?? 0));
    expect(outcomes.none ?? 0).toBeGreaterThan(0);
    expect(outcomes.summarize ?? 0).toBeGreaterThan(0);
    console.info(`protect-mode outcomes: ${JSON.stringify(outcomes)}`);
  });

  const cases: Array<{
    name: string;
    strategy: CompressionStrategy | undefined;
    summarizer: boolean;
  }> = [
    { name: 'no options, no summariser (receipt)', strategy: undefined, summarizer: false },
    { name: 'no options, with a summariser', strategy: undefined, summarizer: true },
    { name: 'receipt', strategy: 'receipt', summarizer: false },
    { name: 'truncate', strategy: 'truncate', summarizer: false },
    { name: 'mask', strategy: 'mask', summarizer: false },
  ];
  for (const { name, strategy, summarizer } of cases) {
    it(`${name}: head and protected tail verbatim, ask and system messages kept, valid pairs, handoff within summaryTargetTokens`, async () => {
      await fc.assert(
        fc.asyncProperty(historyArbitrary, settings, async (generated, options) => {
          const input = deepFreeze(generated);
          const compressor = compressorFor(
            options,
            summarizer ? { summarizer: async () => structuredSummary() } : {},
          );
          const result = await compressor.compress(
            input,
            strategy === undefined ? undefined : { strategy },
          );
          const compacted = checkProtect(input, result, { counter: simple, ...options });
          const kind = compacted ? 'compacted' : 'none';
          outcomes[kind] = (outcomes[kind] ?? 0) + 1;
          if (summarizer && compacted) {
            // A small summaryTargetTokens leaves the summariser too little room once the handoff's
            // own wording is counted: its too-long summary falls back to the receipt, reported.
            if (result.strategy === 'receipt') {
              expect(result.event.stages).toEqual(['summarize', 'receipt']);
              expect(result.fallbackReason).toMatch(/^too_long/);
            } else expect(result.strategy).toBe('summarize');
            outcomes[result.strategy] = (outcomes[result.strategy] ?? 0) + 1;
          }
          if (!summarizer && compacted && strategy === undefined) {
            expect(result.strategy).toBe('receipt');
            expect(result.fallbackReason).toBe('no summarizer configured');
          }
        }),
        { numRuns: 300, seed },
      );
    });
  }

  it('a summary over its target falls back to the receipt, which stays within summaryTargetTokens', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, settings, async (generated, options) => {
        const input = deepFreeze(generated);
        const compressor = compressorFor(options, {
          maxAttempts: 1,
          summarizer: async () => structuredSummary('x '.repeat(4 * options.summaryTargetTokens)),
        });
        const result = await compressor.compress(input);
        if (checkProtect(input, result, { counter: simple, ...options })) {
          expect(result.strategy).toBe('receipt');
          expect(result.usedFallback).toBe(true);
          expect(result.event.stages).toEqual(['summarize', 'receipt']);
        }
      }),
      { numRuns: 150, seed },
    );
  });

  it('a history within protectLastNTokens comes back unchanged, flagged too-short, not an error', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async (generated) => {
        const input = deepFreeze(generated);
        const compressor = new ContextCompressor({
          counter: simple,
          protectLastNTokens: simple.countMessages(input),
        });
        const result = await compressor.compress(input);
        expect(result.strategy).toBe('none');
        expect(result.unchangedReason).toBe('too-short');
        expect(result.event.targetTokens).toBe(result.tokensBefore);
        for (const [index, message] of result.messages.entries()) {
          expect(message).toBe(input[index]);
        }
      }),
      { numRuns: 100, seed },
    );
  });

  it('repeated: compressing the output again is a no-op, and compress(out ++ new steps) keeps every invariant', async () => {
    const step = fc.record({
      output: fc.integer({ min: 0, max: 40 }).map((n) => `npm test\n${'result line '.repeat(n)}`),
      ask: fc.option(fc.constantFrom('Now fix the parser.', 'Deploy it.'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary,
        settings,
        fc.boolean(),
        fc.array(fc.array(step, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
        async (generated, options, summarizer, continuations) => {
          const compressor = compressorFor(
            options,
            summarizer ? { summarizer: async () => structuredSummary() } : {},
          );
          let history: ModelMessage[] = deepFreeze(generated);
          let id = 0;
          for (const steps of continuations) {
            const result = await compressor.compress(history);
            checkProtect(history, result, { counter: simple, ...options });
            // Compressing the output again changes nothing: no handoff of a handoff.
            const again = await compressor.compress(result.messages);
            expect(again.strategy).toBe('none');
            expect(again.unchangedReason).toBe('too-short');
            history = [...result.messages];
            for (const { output, ask } of steps) {
              if (ask !== undefined) history.push({ role: 'user', content: ask });
              const callId = `continue_${++id}`;
              history.push({
                role: 'assistant',
                content: [{ type: 'tool-call', toolCallId: callId, toolName: 'bash', input: {} }],
              });
              history.push({
                role: 'tool',
                content: [
                  {
                    type: 'tool-result',
                    toolCallId: callId,
                    toolName: 'bash',
                    output: { type: 'text', value: output },
                  },
                ],
              });
            }
            history = deepFreeze(history);
          }
          const last = await compressor.compress(history);
          checkProtect(history, last, { counter: simple, ...options });
        },
      ),
      { numRuns: 120, seed },
    );
  });
});

describe.skipIf(corpusSkipReason !== undefined)(
  'compress(messages) with every default on the corpus (o200k counter, no summariser)',
  () => {
    it('each transcript: invariants hold and the receipt is within 750 o200k tokens', async () => {
      const counter = createTokenCounter({ encoding: 'o200k_base' });
      const compressor = new ContextCompressor({ counter });
      let compacted = 0;
      for (const transcript of loadTranscripts()) {
        const input = transcript.messages as ModelMessage[];
        const result = await compressor.compress(input);
        if (
          checkProtect(input, result, {
            counter,
            protectLastNTokens: 20_000,
            summaryTargetTokens: 750,
          })
        )
          compacted++;
      }
      expect(compacted).toBeGreaterThan(0);
    });
  },
);
