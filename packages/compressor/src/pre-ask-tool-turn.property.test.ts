import type { ModelMessage } from '@ai-sdk/provider-utils';
import { redactSecrets } from '@baton/fallback';
import { defaultTokenCounter, type TokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CompactionNotEffectiveError,
  type CompressionStrategy,
  type CompressResult,
  ContextBudgetError,
  ContextCompressor,
  ContextWindowExceededError,
  createContextManager,
  resolveBudget,
  validateToolPairs,
} from './index.js';
import { maskToolMessage } from './mask-tool-message.js';
import { deepFreeze } from './test-utils/deep-freeze.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/*
 * Premise: the latest turn starts at the latest user ask. A tool round trip the assistant finished
 * before that ask (one big `read_file`, say) is older history: it may be masked, summarised,
 * receipted or removed like the rest of the middle (call and result together). Only a request whose
 * head plus latest-ask turn (plus the smallest insert) cannot fit may raise, and then with a typed
 * error. Sizes are drawn at test time relative to the budget, counted with the counter in use.
 */

const counter = createSimpleCounter();
const strategies: CompressionStrategy[] = ['auto', 'truncate', 'receipt', 'mask', 'summarize'];
/** Room the smallest handoff (120 tokens), its record line and notes take, with margin. */
const insertAllowance = 400;

let sequence = 0;
const callId = () => `pre_${++sequence}`;

const word = fc.constantFrom('read', 'the', 'file', 'src/app.ts', 'now', 'fix', 'error', '42');
const sentence = fc.array(word, { minLength: 1, maxLength: 10 }).map((words) => words.join(' '));

/** Text of about `tokens` tokens by `count`, built from varied lines (not one repeated string). */
function textOf(tokens: number, seed: number, count: TokenCounter['count']): string {
  const lines: string[] = [];
  let index = 0;
  let text = '';
  while (count(text) < tokens) {
    lines.push(`line ${index}: const value${(index * 7919 + seed) % 100_003} = compute(${index});`);
    index++;
    if (index % 32 === 0) text = lines.join('\n');
  }
  return lines.join('\n');
}

function toolRoundTrip(
  outputs: string[],
  text: string | undefined,
): { call: ModelMessage; result: ModelMessage } {
  const ids = outputs.map(() => callId());
  return {
    call: {
      role: 'assistant',
      content: [
        ...(text === undefined ? [] : [{ type: 'text' as const, text }]),
        ...ids.map((toolCallId, index) => ({
          type: 'tool-call' as const,
          toolCallId,
          toolName: 'read_file',
          input: { path: `src/big-${index}.ts` },
        })),
      ],
    },
    result: {
      role: 'tool',
      content: ids.map((toolCallId, index) => ({
        type: 'tool-result' as const,
        toolCallId,
        toolName: 'read_file',
        output: { type: 'text' as const, value: outputs[index]! },
      })),
    },
  };
}

interface Shape {
  system: string;
  firstAsk: string;
  firstReply: string | undefined;
  /** Ordinary turns between the first exchange and the big round trip. */
  middle: Array<{ ask: string; reply: string; smallTool: boolean }>;
  /** Size of the big round trip's outputs, as a multiple of the target. */
  bigFactor: number;
  parallel: number;
  callText: string | undefined;
  /** An assistant text after the results, before the ask (the old smallest tail already allowed this). */
  replyAfterResult: string | undefined;
  latestAsk: string;
  seed: number;
}

const shapeArbitrary: fc.Arbitrary<Shape> = fc.record({
  system: sentence,
  firstAsk: sentence,
  firstReply: fc.option(sentence, { nil: undefined }),
  middle: fc.array(fc.record({ ask: sentence, reply: sentence, smallTool: fc.boolean() }), {
    maxLength: 4,
  }),
  bigFactor: fc.double({ min: 0.3, max: 5, noNaN: true }),
  parallel: fc.integer({ min: 1, max: 3 }),
  callText: fc.option(sentence, { nil: undefined }),
  replyAfterResult: fc.option(sentence, { freq: 4, nil: undefined }),
  latestAsk: sentence,
  seed: fc.nat(),
});

/** The history: the head, ordinary turns, the big round trip, then the latest ask (last message). */
function build(shape: Shape, target: number, count: TokenCounter['count']): ModelMessage[] {
  const messages: ModelMessage[] = [
    { role: 'system', content: shape.system },
    { role: 'user', content: shape.firstAsk },
  ];
  if (shape.firstReply !== undefined)
    messages.push({ role: 'assistant', content: shape.firstReply });
  for (const turn of shape.middle) {
    messages.push({ role: 'user', content: turn.ask });
    if (turn.smallTool) {
      const { call, result } = toolRoundTrip([`ok ${turn.reply}`], undefined);
      messages.push(call, result);
    }
    messages.push({ role: 'assistant', content: turn.reply });
  }
  const each = Math.ceil((shape.bigFactor * target) / shape.parallel);
  const outputs = Array.from({ length: shape.parallel }, (_, index) =>
    textOf(each, shape.seed + index, count),
  );
  const { call, result } = toolRoundTrip(outputs, shape.callText);
  messages.push(call, result);
  if (shape.replyAfterResult !== undefined)
    messages.push({ role: 'assistant', content: shape.replyAfterResult });
  messages.push({ role: 'user', content: shape.latestAsk });
  return messages;
}

/** Tokens of what must stay verbatim: system + first ask (the head at most) and the latest ask. */
function essentialTokens(messages: readonly ModelMessage[], c: TokenCounter): number {
  const firstUser = messages.findIndex((m) => m.role === 'user');
  const latestUser = messages.findLastIndex((m) => m.role === 'user');
  return c.countMessages([
    ...messages.slice(0, firstUser + 1),
    // A plain first reply belongs to the head.
    ...(messages[firstUser + 1]?.role === 'assistant' &&
    typeof messages[firstUser + 1]!.content === 'string'
      ? [messages[firstUser + 1]!]
      : []),
    ...messages.slice(latestUser),
  ]);
}

/** Whether masking every tool output before the latest ask (after the head) would fit. */
function maskCouldFit(
  input: readonly ModelMessage[],
  result: CompressResult<ModelMessage>,
  target: number,
): boolean {
  const head = result.event.headMessageCount;
  const latestUser = input.findLastIndex((m) => m.role === 'user');
  const redact = (text: string) => redactSecrets(text).text;
  const masked = input.map((message, index) =>
    index >= head && index < latestUser ? maskToolMessage(message, redact) : message,
  );
  return counter.countMessages(masked) <= target;
}

function checkOutput(input: readonly ModelMessage[], output: readonly ModelMessage[]) {
  expect(validateToolPairs(output).problems).toEqual([]);
  // The latest ask is the very input object, still the last message.
  expect(output.at(-1)).toBe(input.at(-1));
  // System messages stay in front.
  expect(output[0]).toBe(input[0]);
}

describe('a big tool round trip before the latest ask', () => {
  const outcomes: Record<string, number> = {};
  afterAll(() => {
    // Most draws must compact (the premise holds), not only reach an error path.
    expect(outcomes.compacted ?? 0).toBeGreaterThan(0);
    console.info(`pre-ask round trip outcomes: ${JSON.stringify(outcomes)}`);
  });
  const note = (kind: string) => {
    outcomes[kind] = (outcomes[kind] ?? 0) + 1;
  };

  for (const strategy of strategies) {
    it(`${strategy}: compacts within the target whenever head + latest ask + smallest insert fit`, async () => {
      await fc.assert(
        fc.asyncProperty(
          shapeArbitrary,
          fc.noBias(fc.integer({ min: insertAllowance + 60, max: 6_000 })),
          async (shape, slack) => {
            // The target is drawn above what must stay; the big output is sized from it.
            const probe = build({ ...shape, bigFactor: 0, parallel: 1 }, 1, counter.count);
            const target = essentialTokens(probe, counter) + slack;
            const input = deepFreeze(build(shape, target, counter.count));
            const compressor = new ContextCompressor({
              counter,
              summaryTargetTokens: 300,
              retryDelayMs: 0,
              summarizer: async () => structuredSummary(),
            });
            let result: CompressResult<ModelMessage>;
            try {
              result = await compressor.compress(input, { targetTokens: target, strategy });
            } catch (error) {
              // Too little saved to be worth it is a verdict on a result that fits, not a failure.
              if (!CompactionNotEffectiveError.isInstance(error)) throw error;
              result = error.result as CompressResult<ModelMessage>;
              note('not-effective');
            }
            checkOutput(input, result.messages);
            expect(result.tokensAfter).toBe(counter.countMessages(result.messages));
            if (strategy === 'mask' && !result.withinBudget) {
              // Masking removes nothing: over budget only when even every output masked is.
              expect(maskCouldFit(input, result, target)).toBe(false);
              note('mask-over');
            } else {
              expect(result.withinBudget).toBe(true);
              expect(result.tokensAfter).toBeLessThanOrEqual(target);
            }
            note(result.strategy === 'none' ? 'none' : 'compacted');
          },
        ),
        { numRuns: 150 },
      );
    });
  }

  it('control: a latest ask that cannot fit beside the head still throws ContextBudgetError', async () => {
    await fc.assert(
      fc.asyncProperty(
        shapeArbitrary,
        fc.integer({ min: 200, max: 3_000 }),
        fc.double({ min: 1.05, max: 3, noNaN: true }),
        fc.constantFrom(...strategies),
        async (shape, target, askFactor, strategy) => {
          const latestAsk = textOf(Math.ceil(target * askFactor), shape.seed, counter.count);
          const input = deepFreeze(build({ ...shape, latestAsk }, target, counter.count));
          const compressor = new ContextCompressor({
            counter,
            summaryTargetTokens: 300,
            retryDelayMs: 0,
            summarizer: async () => structuredSummary(),
          });
          const error = await compressor.compress(input, { targetTokens: target, strategy }).then(
            () => undefined,
            (caught: unknown) => caught,
          );
          expect(ContextBudgetError.isInstance(error)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('createContextManager over the steps of a conversation', () => {
  type Step =
    | { kind: 'answer'; reply: string; ask: string }
    | { kind: 'big-read'; factor: number; ask: string; reply: string | undefined }
    | { kind: 'agent-step'; output: string };
  const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('answer' as const), reply: sentence, ask: sentence }),
    fc.record({
      kind: fc.constant('big-read' as const),
      factor: fc.double({ min: 0.2, max: 3, noNaN: true }),
      ask: sentence,
      reply: fc.option(sentence, { freq: 3, nil: undefined }),
    }),
    fc.record({ kind: fc.constant('agent-step' as const), output: sentence }),
  );

  it('prepare never throws while head + latest-ask turn fit the window; pairs valid, ask verbatim, within the window', async () => {
    let prepared = 0;
    let compacted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        shapeArbitrary,
        fc.noBias(fc.integer({ min: 2_000, max: 16_000 })),
        fc.array(stepArbitrary, { minLength: 1, maxLength: 6 }),
        async (shape, contextWindow, steps) => {
          const budget = resolveBudget({ contextWindow, threshold: 0.8, targetRatio: 0.6 });
          const manager = createContextManager({ counter, contextWindow });
          const history = build(shape, budget.targetTokens, counter.count);
          const check = async () => {
            const latestUser = history.findLastIndex((m) => m.role === 'user');
            const fits =
              essentialTokens(history, counter) +
                counter.countMessages(history.slice(latestUser + 1)) +
                insertAllowance <=
              budget.availableTokens;
            let result: Awaited<ReturnType<typeof manager.prepare>>;
            try {
              result = await manager.prepare(history);
            } catch (error) {
              expect(ContextWindowExceededError.isInstance(error)).toBe(true);
              // Only a latest-ask turn that cannot fit may raise.
              expect(fits).toBe(false);
              refused++;
              return;
            }
            prepared++;
            if (result.report.compacted) compacted++;
            const sent = result.messages;
            expect(validateToolPairs(sent).problems).toEqual([]);
            expect(sent).toContain(history[latestUser]);
            expect(sent.at(-1)).toBe(history.at(-1));
            expect(counter.countMessages(sent)).toBeLessThanOrEqual(budget.availableTokens);
          };
          await check();
          for (const step of steps) {
            if (step.kind === 'answer') {
              history.push({ role: 'assistant', content: step.reply });
              history.push({ role: 'user', content: step.ask });
            } else if (step.kind === 'big-read') {
              const output = textOf(
                Math.ceil(step.factor * budget.targetTokens),
                history.length,
                counter.count,
              );
              const { call, result } = toolRoundTrip([output], undefined);
              history.push(call, result);
              if (step.reply !== undefined)
                history.push({ role: 'assistant', content: step.reply });
              history.push({ role: 'user', content: step.ask });
            } else {
              const { call, result } = toolRoundTrip([step.output], undefined);
              history.push(call, result);
            }
            await check();
          }
          await manager.close();
        },
      ),
      { numRuns: 60 },
    );
    console.info(`manager steps: ${JSON.stringify({ prepared, compacted, refused })}`);
    expect(compacted).toBeGreaterThan(0);
    expect(prepared).toBeGreaterThan(compacted);
  });
});

describe('createContextManager control', () => {
  it('a latest ask larger than the window still rejects with ContextWindowExceededError', async () => {
    await fc.assert(
      fc.asyncProperty(
        shapeArbitrary,
        fc.integer({ min: 2_000, max: 16_000 }),
        fc.double({ min: 1.05, max: 2, noNaN: true }),
        async (shape, contextWindow, askFactor) => {
          const budget = resolveBudget({ contextWindow, threshold: 0.8, targetRatio: 0.6 });
          const latestAsk = textOf(
            Math.ceil(budget.availableTokens * askFactor),
            shape.seed,
            counter.count,
          );
          const history = build({ ...shape, latestAsk }, budget.targetTokens, counter.count);
          const manager = createContextManager({ counter, contextWindow });
          const error = await manager.prepare(history).then(
            () => undefined,
            (caught: unknown) => caught,
          );
          expect(ContextWindowExceededError.isInstance(error)).toBe(true);
          await manager.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('truncate with the real counter and HMAC record lines', () => {
  const real = defaultTokenCounter();
  it('the result fits the target, or a typed error says it cannot (targets swept near the smallest fit)', async () => {
    // The record line's hex varies in cost (about 15 to 25 o200k tokens), so a notice sized from a
    // fixed sample can overshoot. Each draw is a fresh key and history; the targets swept are the
    // ones at the edge, where the notice decides whether the result fits.
    let fitted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 16, maxLength: 32 }),
        fc.array(
          fc.record({
            ask: fc.option(sentence, { freq: 3, nil: undefined }),
            system: fc.option(sentence, { freq: 6, nil: undefined }),
            outputs: fc.array(fc.tuple(sentence, fc.integer({ min: 0, max: 30 })), {
              minLength: 1,
              maxLength: 3,
            }),
          }),
          { minLength: 2, maxLength: 10 },
        ),
        sentence,
        async (recordKey, turns, first) => {
          const messages: ModelMessage[] = [
            { role: 'system', content: 'You are a coding agent.' },
            { role: 'user', content: `first ${first}` },
          ];
          for (const turn of turns) {
            if (turn.system !== undefined) messages.push({ role: 'system', content: turn.system });
            if (turn.ask !== undefined) messages.push({ role: 'user', content: turn.ask });
            const { call, result } = toolRoundTrip(
              turn.outputs.map(([text, repeat]) => `${text} ${'row of data '.repeat(repeat)}`),
              undefined,
            );
            messages.push(call, result);
          }
          messages.push({ role: 'assistant', content: `done ${first}` });
          const before = real.countMessages(messages);
          // From the verbatim floor (system messages and the last reply) upwards.
          const floor = real.countMessages(
            messages.filter((m, index) => m.role === 'system' || index === messages.length - 1),
          );
          const compressor = new ContextCompressor({ counter: real, recordKey });
          for (let target = floor; target < Math.min(before, floor + 120); target++) {
            let result: CompressResult<ModelMessage>;
            try {
              result = await compressor.compress(messages, {
                targetTokens: target,
                strategy: 'truncate',
              });
            } catch (error) {
              if (ContextBudgetError.isInstance(error)) {
                refused++;
                continue;
              }
              if (!CompactionNotEffectiveError.isInstance(error)) throw error;
              result = error.result as CompressResult<ModelMessage>;
            }
            expect(result.shortfallReason).toBeUndefined();
            expect(result.withinBudget).toBe(true);
            expect(real.countMessages(result.messages)).toBeLessThanOrEqual(target);
            // Tool pairs stay whole; the input's own system messages after the start stay too.
            expect(
              validateToolPairs(result.messages).problems.filter(
                (problem) => problem.code !== 'system_not_leading',
              ),
            ).toEqual([]);
            fitted++;
          }
        },
      ),
      { numRuns: 30 },
    );
    console.info(`truncate sweep: ${JSON.stringify({ fitted, refused })}`);
    expect(fitted).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  }, 120_000);
});
