import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
} from '@ai-sdk/provider';
import {
  type CompressionStrategy,
  type SummarizerRequest,
  validateToolPairs,
} from '@baton/compressor';
import { toolPairProblems } from '@baton/compressor/test';
import type { CountableMessage, TokenCounter } from '@baton/tokens';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { ContextWindowExceededError } from './index.js';
import { fixBugsHandoff } from './test-utils/conversation.js';
import type { MiddlewareCompactionEvent } from './types.js';

/**
 * Fuzz: multi-step agent loops through the middleware, compacting again and again. Each run is one
 * conversation with a random strategy and budget: user asks, each followed by several steps of one
 * to three parallel tool calls with outputs of random size, and system messages the app inserts
 * mid-conversation. Every prompt the provider would receive is checked:
 * - the latest user ask is in it verbatim, and no real user message follows it (only Baton's own
 *   records may);
 * - no orphaned tool call or result;
 * - the head is unchanged: the app's leading system messages first, as sent, then the first user
 *   message or Baton's record (when the first exchange had to join the middle);
 * - nothing is silently dropped: every system message is there verbatim and in order; a raw
 *   message missing from the prompt (or changed) only after a reported compaction, and removed
 *   messages only with Baton's record in their place; the prompt fits the window.
 *
 * Counting is a chars/4 heuristic (the exact counter is exercised elsewhere) and the summariser a
 * mock, so the 2,000+ loops stay within CI time. Seeded: `seed` below; change it (or set
 * `BATON_FUZZ_SEED`) to explore, and replay a failure with the seed and path fast-check prints.
 */
const seed = Number(process.env.BATON_FUZZ_SEED ?? 20_261_123);
const runs = 2_000;
const strategies: CompressionStrategy[] = ['truncate', 'mask', 'summarize', 'receipt', 'auto'];

function heuristicCounter(): TokenCounter {
  const count = (text: string) => Math.ceil(text.length / 4);
  // By text, so a message counts the same in `ModelMessage` form (string content) and provider
  // form (text parts), as the real counters do.
  const partText = (part: Record<string, unknown>): string => {
    if (typeof part.text === 'string') return part.text;
    if (part.type === 'tool-call') return `${part.toolName} ${JSON.stringify(part.input)}`;
    if (part.type === 'tool-result') return `${part.toolName} ${JSON.stringify(part.output)}`;
    return JSON.stringify(part);
  };
  const countMessage = (message: CountableMessage) =>
    4 +
    count(
      typeof message.content === 'string'
        ? message.content
        : Array.isArray(message.content)
          ? (message.content as Record<string, unknown>[]).map(partText).join('\n')
          : '',
    );
  return {
    encoding: 'heuristic',
    exact: false,
    count,
    countMessage,
    countMessages: (messages, options) =>
      3 +
      (options?.tools ? count(JSON.stringify(options.tools)) : 0) +
      messages.reduce((sum, message) => sum + countMessage(message), 0),
    dispose() {},
  };
}

type Event =
  | { kind: 'ask'; words: number }
  | { kind: 'system'; words: number }
  | { kind: 'step'; outputs: number[]; text: boolean };

const event: fc.Arbitrary<Event> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ask' as const), words: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const), words: fc.nat(30) }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('step' as const),
      outputs: fc.array(fc.integer({ min: 1, max: 250 }), { minLength: 1, maxLength: 3 }),
      text: fc.boolean(),
    }),
  },
);

const conversation = fc.record({
  strategy: fc.constantFrom(...strategies),
  contextWindow: fc.integer({ min: 2_500, max: 9_000 }),
  threshold: fc.double({ min: 0.5, max: 0.9, noNaN: true }),
  targetRatio: fc.double({ min: 0.4, max: 0.8, noNaN: true }),
  leadingSystem: fc.integer({ min: 0, max: 2 }),
  firstWords: fc.nat(60),
  events: fc.array(event, { minLength: 8, maxLength: 40 }),
});

const words = (count: number, label: string) =>
  Array.from({ length: count }, (_, index) => `${label}${index % 7}`).join(' ');

function text(message: LanguageModelV4Message): string {
  if (message.role === 'system') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The same message (the middleware may hand back an equal copy of a kept message). */
const same = (a: LanguageModelV4Message, b: LanguageModelV4Message) =>
  a === b || JSON.stringify(a) === JSON.stringify(b);

const isInsert = (message: LanguageModelV4Message) =>
  message.role === 'user' && message.providerOptions?.baton !== undefined;

const model = new MockLanguageModelV4({});

describe('fuzz: agent loops through the middleware with re-compactions', () => {
  const totals = {
    loops: 0,
    prompts: 0,
    compactions: 0,
    loopsWithTwoOrMore: 0,
    byStrategy: {} as Record<string, number>,
    windowErrors: 0,
    midSystems: 0,
    parallelSteps: 0,
  };
  afterAll(() => {
    console.info(`middleware fuzz: ${JSON.stringify(totals)}`);
  });

  it(`${runs} seeded agent loops keep the ask, pairs, head and every message accounted for`, async () => {
    await fc.assert(
      fc.asyncProperty(conversation, async (spec) => {
        const events: MiddlewareCompactionEvent[] = [];
        const counter = heuristicCounter();
        const middleware = compactionMiddleware({
          contextWindow: spec.contextWindow,
          reservedOutputTokens: 200,
          threshold: spec.threshold,
          targetRatio: spec.targetRatio,
          strategy: spec.strategy,
          counter,
          summaryTargetTokens: 200,
          compressor: { retryDelayMs: 0 },
          summarizer: async (_request: SummarizerRequest) => fixBugsHandoff,
          onCompaction: (compaction) => void events.push(compaction),
        });
        const raw: LanguageModelV4Prompt = [];
        let askIndex = 0;
        for (let index = 0; index < spec.leadingSystem; index++)
          raw.push({ role: 'system', content: `Rules ${index}: ${words(20, 'rule')}` });
        const head = raw.slice();
        let ask: LanguageModelV4Message = {
          role: 'user',
          content: [{ type: 'text', text: `Ask ${askIndex++}: ${words(spec.firstWords, 'task')}` }],
        };
        raw.push(ask);
        const firstUser = ask;
        let callId = 0;
        let systems = 0;
        for (const item of spec.events) {
          if (item.kind === 'ask') {
            ask = {
              role: 'user',
              content: [{ type: 'text', text: `Ask ${askIndex++}: ${words(item.words, 'more')}` }],
            };
            raw.push(ask);
            continue;
          }
          if (item.kind === 'system') {
            raw.push({ role: 'system', content: `Note ${systems++}: ${words(item.words, 'key')}` });
            totals.midSystems++;
            continue;
          }
          // A step: the model calls tools (in parallel when several), the app appends the results.
          const ids = item.outputs.map(() => `call_${callId++}`);
          if (ids.length > 1) totals.parallelSteps++;
          raw.push({
            role: 'assistant',
            content: [
              ...(item.text ? [{ type: 'text' as const, text: 'Working on it.' }] : []),
              ...ids.map((toolCallId) => ({
                type: 'tool-call' as const,
                toolCallId,
                toolName: 'bash',
                input: '{"command":"run"}',
              })),
            ],
          });
          raw.push({
            role: 'tool',
            content: ids.map((toolCallId, index) => ({
              type: 'tool-result' as const,
              toolCallId,
              toolName: 'bash',
              output: { type: 'text' as const, value: words(item.outputs[index]!, 'out') },
            })),
          });
          const prompt = raw.slice();
          const before = events.length;
          let sent: LanguageModelV4CallOptions;
          try {
            sent = await middleware.transformParams!({
              type: 'generate',
              params: { prompt },
              model,
            });
          } catch (error) {
            // A typed refusal (the verbatim parts alone exceed the window) is reported, not lost.
            expect(ContextWindowExceededError.isInstance(error), String(error)).toBe(true);
            totals.windowErrors++;
            return;
          }
          totals.prompts++;
          const out = sent.prompt;
          const label = `step ${callId} (${spec.strategy})`;
          // The latest ask, verbatim, and no real user message after it.
          const askText = text(ask);
          const at = out.findLastIndex((m) => m.role === 'user' && text(m) === askText);
          expect(at, `${label}: ask missing`).toBeGreaterThanOrEqual(0);
          for (const message of out.slice(at + 1))
            if (message.role === 'user') expect(isInsert(message), label).toBe(true);
          // No orphaned tool parts; nothing the input did not have.
          expect(toolPairProblems(out), label).toEqual([]);
          expect(
            validateToolPairs(out).problems.filter(
              (problem) => problem.code !== 'system_not_leading',
            ),
            label,
          ).toEqual([]);
          // Head unchanged.
          expect(out.slice(0, head.length), label).toEqual(head);
          const afterHead = out[head.length]!;
          // Then a user message: the first one until a compaction had to give the first exchange
          // up (reported as `headDemoted`).
          expect(afterHead.role, label).toBe('user');
          if (!events.some((compaction) => compaction.headDemoted))
            expect(same(afterHead, firstUser), label).toBe(true);
          // Untouched until the first compaction.
          if (events.length === 0) expect(sent.prompt, label).toBe(prompt);
          // Every system message, verbatim and in order.
          expect(
            out.filter((m) => m.role === 'system'),
            label,
          ).toEqual(prompt.filter((m) => m.role === 'system'));
          // Nothing silently dropped: a message missing or changed only after a reported
          // compaction; removed messages only with Baton's record in their place.
          const kept = new Set(out.map((message) => JSON.stringify(message)));
          const missing = prompt.filter((message) => !kept.has(JSON.stringify(message)));
          if (missing.length > 0) {
            expect(events.length, `${label}: changed without a compaction`).toBeGreaterThan(0);
            const toolIds = new Set(
              out.flatMap((m) =>
                m.role === 'tool'
                  ? m.content.map((part) => (part as { toolCallId: string }).toolCallId)
                  : [],
              ),
            );
            const removed = missing.filter(
              (m) =>
                !(
                  m.role === 'tool' &&
                  m.content.every((part) =>
                    toolIds.has((part as { toolCallId: string }).toolCallId),
                  )
                ) &&
                !(
                  m.role === 'assistant' &&
                  out.some(
                    (o) =>
                      o.role === 'assistant' &&
                      JSON.stringify(o.content.filter((p) => p.type === 'tool-call')) ===
                        JSON.stringify(m.content.filter((p) => p.type === 'tool-call')),
                  )
                ),
            );
            if (removed.length > 0)
              expect(out.some(isInsert), `${label}: removed without a record`).toBe(true);
          }
          // What is sent fits the window (less the reserved output), counted as the middleware
          // counts.
          expect(counter.countMessages(out), label).toBeLessThanOrEqual(spec.contextWindow - 200);
          if (events.length > before) totals.compactions += events.length - before;
        }
        totals.loops++;
        if (events.length >= 2) totals.loopsWithTwoOrMore++;
        totals.byStrategy[spec.strategy] = (totals.byStrategy[spec.strategy] ?? 0) + 1;
      }),
      { numRuns: runs, seed },
    );
    // The runs must exercise what they claim to: many re-compactions, mid-conversation systems,
    // parallel calls.
    expect(totals.loops + totals.windowErrors).toBe(runs);
    expect(totals.loopsWithTwoOrMore).toBeGreaterThan(runs / 4);
    expect(totals.midSystems).toBeGreaterThan(runs);
    expect(totals.parallelSteps).toBeGreaterThan(runs);
  }, 120_000);
});
