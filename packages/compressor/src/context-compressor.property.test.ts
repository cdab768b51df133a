import type { ModelMessage } from '@ai-sdk/provider-utils';
import { redactSecrets } from '@baton/fallback';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeMessages } from './analyze-messages.js';
import {
  CompactionNotEffectiveError,
  type CompressionStrategy,
  type CompressResult,
  ContextBudgetError,
  ContextCompressor,
  validateToolPairs,
} from './index.js';
import { maskToolMessage } from './mask-tool-message.js';
import { deepFreeze } from './test-utils/deep-freeze.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

const counter = createSimpleCounter();
const strategies: CompressionStrategy[] = ['truncate', 'mask', 'summarize', 'receipt', 'auto'];

function checkResult(
  input: readonly ModelMessage[],
  result: CompressResult<ModelMessage>,
  target: number,
  strategy: CompressionStrategy,
) {
  const output = result.messages;
  // Valid for OpenAI and Anthropic: pairs, adjacency, leading system, first message from the user.
  expect(validateToolPairs(output).problems).toEqual([]);
  expect(result.tokensAfter).toBe(counter.countMessages(output));
  expect(result.withinBudget).toBe(result.tokensAfter <= target);
  // An over-budget result says why.
  expect(result.shortfallReason === undefined).toBe(result.withinBudget);
  if (strategy !== 'mask') expect(result.tokensAfter).toBeLessThanOrEqual(target);
  // `mask` is over budget only when no allowed tail down to the smallest one could fit.
  // Head and tail are the very input objects.
  const { headMessageCount, tailStartIndex, headDemoted } = result.event;
  for (let index = 0; index < headMessageCount; index++) expect(output[index]).toBe(input[index]);
  // System messages always stay; a demoted head is exactly them.
  for (const [index, message] of input.entries()) {
    if (message.role !== 'system') break;
    expect(output[index]).toBe(message);
  }
  if (headDemoted) expect(input[headMessageCount]?.role).not.toBe('system');
  if (headDemoted)
    expect(input.slice(0, headMessageCount).every((m) => m.role === 'system')).toBe(true);
  const tail = input.slice(tailStartIndex);
  expect(output.slice(output.length - tail.length)).toEqual(tail);
  for (const [offset, message] of tail.entries()) {
    expect(output[output.length - tail.length + offset]).toBe(message);
  }
  // The latest user ask is present, verbatim.
  const latestUser = input.findLast((message) => message.role === 'user');
  if (latestUser) expect(output).toContain(latestUser);
  // The last assistant message (the latest reply, or a trailing call) stays, unless the user spoke
  // after it: the latest turn then starts at that ask.
  const lastAssistant = input.findLastIndex((message) => message.role === 'assistant');
  const answered = input.findLastIndex((message) => message.role === 'user') < lastAssistant;
  if (lastAssistant >= 0 && answered) expect(output).toContain(input[lastAssistant]);
  if (result.strategy !== 'mask' && result.strategy !== 'none') {
    expect(output.length).toBe(input.length - result.event.removedMessageIndexes.length + 1);
    expect(result.summary === undefined).toBe(result.strategy === 'truncate');
  }
  expect(result.tokensSaved).toBe(result.tokensBefore - result.tokensAfter);
  if (strategy === 'mask' && !result.withinBudget)
    expect(maskCouldFit(input, result, target)).toBe(false);
}

/**
 * Where the smallest tail can start, by the rule stated apart from the compressor's code: at the
 * latest assistant message (after the head), or, when the user spoke after it, at the latest user
 * message (the earlier unanswered ones stay whole only while they fit, else they are middle
 * material); moved earlier to an allowed cut. `input.length` when no assistant message follows the
 * head.
 */
function smallestTailStart(input: readonly ModelMessage[], head: number): number {
  const { cutAllowed } = analyzeMessages(input);
  const lastAssistant = input.findLastIndex((message) => message.role === 'assistant');
  if (lastAssistant < head) return input.length;
  let start = input.findLastIndex(
    (message, index) => index > lastAssistant && message.role === 'user',
  );
  if (start < 0) start = lastAssistant;
  while (start > head && !cutAllowed[start]) start--;
  return start;
}

/**
 * Whether some allowed cut at or before the start of the smallest tail, with every tool output in
 * front of it (after the head) masked and everything from it verbatim, fits: counted here by brute
 * force, apart from the compressor's prefix sums.
 */
function maskCouldFit(
  input: readonly ModelMessage[],
  result: CompressResult<ModelMessage>,
  target: number,
): boolean {
  const head = result.event.headMessageCount;
  const { cutAllowed } = analyzeMessages(input);
  const latest = smallestTailStart(input, head);
  const redact = (text: string) => redactSecrets(text).text;
  for (let cut = head; cut <= latest; cut++) {
    if (!cutAllowed[cut]) continue;
    const candidate = input.map((message, index) =>
      index >= head && index < cut ? maskToolMessage(message, redact) : message,
    );
    if (counter.countMessages(candidate) <= target) return true;
  }
  return false;
}

describe('compress over generated histories', () => {
  const outcomes: Record<string, number> = {};
  afterAll(() => {
    // The property must mostly exercise real compactions, not the error paths.
    const total =
      (outcomes.compacted ?? 0) +
      (outcomes.none ?? 0) +
      Object.entries(outcomes)
        .filter(([kind]) => !['compacted', 'none', 'demoted'].includes(kind))
        .reduce((sum, [, count]) => sum + count, 0);
    expect((outcomes.compacted ?? 0) / total).toBeGreaterThan(0.5);
    // Head demotion is exercised, not only reachable.
    expect(outcomes.demoted ?? 0).toBeGreaterThan(0);
    // So is the budget error, whose numbers are checked against an independent count.
    expect(outcomes.ContextBudgetError ?? 0).toBeGreaterThan(0);
    console.info(`property outcomes: ${JSON.stringify(outcomes)}`);
  });
  const property = (strategy: CompressionStrategy) =>
    fc.asyncProperty(
      historyArbitrary,
      fc.double({ min: 0.15, max: 1.05, noNaN: true }),
      fc.integer({ min: 0, max: 3_000 }),
      async (generated, ratio, protectLastNTokens) => {
        const input = deepFreeze(generated);
        const before = counter.countMessages(input);
        const target = Math.max(1, Math.floor(before * ratio));
        const compressor = new ContextCompressor({
          counter,
          protectLastNTokens,
          summaryTargetTokens: 300,
          retryDelayMs: 0,
          summarizer: async () => structuredSummary(),
        });
        try {
          const result = await compressor.compress(input, { targetTokens: target, strategy });
          checkResult(input, result, target, strategy);
          const kind = result.strategy === 'none' ? 'none' : 'compacted';
          outcomes[kind] = (outcomes[kind] ?? 0) + 1;
          if (result.event.headDemoted) outcomes.demoted = (outcomes.demoted ?? 0) + 1;
        } catch (error) {
          const kind = error instanceof Error ? error.name : 'other';
          outcomes[kind] = (outcomes[kind] ?? 0) + 1;
          if (ContextBudgetError.isInstance(error)) {
            // Under budget whenever system + pinned ask + smallest tail fit: the error comes
            // only after the first exchange gave up its place, so its head is the system
            // messages alone.
            expect(error.requiredTokens).toBeGreaterThan(target);
            let lead = 0;
            while (input[lead]?.role === 'system') lead++;
            const systemTokens = input
              .slice(0, lead)
              .reduce((sum, message) => sum + counter.countMessage(message), 0);
            expect(error.headTokens).toBe(systemTokens);
            // The protected part is at least the smallest tail with everything after it, plus the
            // latest user message when it comes before: counted here, apart from the compressor's
            // own bookkeeping.
            const latestUser = input.findLastIndex((m) => m.role === 'user');
            const from = smallestTailStart(input, lead);
            let floor = input
              .slice(from)
              .reduce((sum, message) => sum + counter.countMessage(message), 0);
            if (latestUser >= lead && latestUser < from)
              floor += counter.countMessage(input[latestUser]!);
            const everything = input
              .slice(lead)
              .reduce((sum, message) => sum + counter.countMessage(message), 0);
            expect(error.protectedTokens).toBeGreaterThanOrEqual(floor);
            expect(error.protectedTokens).toBeLessThanOrEqual(everything);
            // Required = overhead + head + protected + the insert (a notice or the smallest
            // handoff: under 400 tokens), and that really is over the target.
            const insert =
              error.requiredTokens -
              counter.countMessages([]) -
              error.headTokens -
              error.protectedTokens;
            expect(insert).toBeGreaterThanOrEqual(0);
            expect(insert).toBeLessThan(400);
            expect(error.targetTokens).toBe(target);
          } else if (CompactionNotEffectiveError.isInstance(error)) {
            checkResult(input, error.result as CompressResult<ModelMessage>, target, strategy);
            expect(error.tokensBefore - error.tokensAfter).toBeLessThan(0.1 * error.tokensBefore);
          } else {
            throw error;
          }
        }
      },
    );
  for (const strategy of strategies) {
    it(`${strategy}: valid, verbatim head and tail, latest ask kept, under budget whenever system + pinned ask + smallest tail fit`, async () => {
      await fc.assert(property(strategy), { numRuns: 1_000 });
    });
  }
  it('receipt: replays a history where the smallest receipt overshot the estimate that kept the head', async () => {
    // Found by the property above: the head was kept on an estimate of the smallest receipt, the
    // real one came out a few tokens larger, and the first exchange must then be demoted rather
    // than a budget error be thrown with the head kept. Replayed by fast-check seed and path (valid
    // while the arbitraries stay as they are).
    await fc.assert(property('receipt'), {
      seed: -1034786324,
      path: replayPath,
      endOnFailure: true,
    });
  });
});

const replayPath =
  '935:4:31:32:35:37:41:47:3:7:56:72:59:78:84:90:101:108:110:93:113:113:96:114:118:3:2:107:3:7:106:3:102:2:104:2:97:3:4:95:2:97:2:2:5:88:4:4:83:83:4:85:4:80:16:32:78:15:80:78:78:78:78:82:46:72:77:44:68:45:60:71:44:64:63:48:59:48:52:58:49:56:56:57:61:61:59:71:71:78:71:82:84:79:85:83:86:91:86:101:104:95:103:110:93:104:94:97:90:103:108:121:123:126:129:136:146:147:150:152:159:165:167:162:191:158:179:149:190:191:200:204:206:205:206:215:208:224:230:233:239:226:240:248:54:242:50:55:243:55:55:61:232:53:230:50:59:226:58:58:58:221:50:227:227';
