import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CompactionNotEffectiveError,
  type CompressionStrategy,
  ContextBudgetError,
  ContextCompressor,
  ContextWindowExceededError,
  createContextManager,
  type SummarizerRequest,
} from './index.js';
import { hasContent } from './latest-ask-index.js';
import { toolPairProblems } from './test/tool-pair-problems.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';
import {
  ConversationBuilder,
  conversationStart,
  growOperation,
} from './test-utils/unanswered-run-arbitrary.js';

/**
 * Attack on the tail: sequences of appended turns (runs of 2-20 unanswered user messages, huge
 * pastes, multi-part asks with images and files, empty asks, tool round trips, system messages in
 * the middle) with `compress` applied again and again to its own output, by every strategy. After
 * every compaction: when the latest real ask fits beside the system messages, the result fits the
 * target; the ask is verbatim and no user message of the app's comes after it with content; tool
 * calls and results stay paired; every system message is kept; no credential reaches the
 * summariser. A latest ask that cannot fit is a `ContextBudgetError` that names it.
 *
 * Control: a run of unanswered asks that fits beside the head and a full-size handoff stays
 * verbatim, every message of it (only a run that does not fit becomes middle material).
 */
const counter = createSimpleCounter();
const strategies: CompressionStrategy[] = ['auto', 'truncate', 'mask', 'summarize', 'receipt'];
/** Room for the smallest insert (its 120 tokens, the record line, the after-ask note). */
const insertMargin = 400;
/** Room for a full-size handoff (750 tokens and its envelope). */
const handoffMargin = 1_200;

const compaction = fc.record({
  strategy: fc.constantFrom(...strategies),
  target: fc.noBias(fc.integer({ min: 1_500, max: 9_000 })),
  summarizerFails: fc.boolean(),
});

const step = fc.record({
  grow: fc.array(growOperation, { minLength: 1, maxLength: 3 }),
  compaction,
});

/** Baton's own insert, by the mark it carries (the test hands the output back as it came). */
function inserted(message: ModelMessage): boolean {
  return message.providerOptions?.baton?.inserted !== undefined;
}

function tokens(messages: readonly ModelMessage[]): number {
  return counter.countMessages(messages);
}

describe('unanswered runs and the latest ask through repeated compaction (property)', () => {
  it('fits whenever the latest ask fits, keeps it verbatim, pairs and system messages, and leaks no credential', async () => {
    const seen = { shrunk: 0, controls: 0, askTooLarge: 0, compactions: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 8 }),
        conversationStart,
        fc.integer(),
        // Below the run's size at times: a run that fits stays whole as the smallest tail, not
        // by this.
        fc.noBias(fc.integer({ min: 0, max: 6_000 })),
        async (steps, start, salt, protectLastNTokens) => {
          const conversation = new ConversationBuilder(salt, start);
          const requests: SummarizerRequest[] = [];
          let fail = false;
          const compressor = new ContextCompressor({
            counter,
            protectLastNTokens,
            minimumSavingsRatio: 0,
            maxAttempts: 1,
            retryDelayMs: 0,
            summarizer: async (request) => {
              requests.push(request);
              if (fail) throw new Error('summariser is down');
              return structuredSummary(`Summary ${requests.length}.`);
            },
          });
          for (const { grow, compaction: pass } of steps) {
            for (const operation of grow) conversation.apply(operation);
            fail = pass.summarizerFails;
            const input = conversation.messages.slice();
            const ask = conversation.latestAsk;
            const systems = input.filter((message) => message.role === 'system');
            const askAt = ask === undefined ? -1 : input.indexOf(ask);
            const askFits =
              askAt >= 0 &&
              tokens([...systems, ...input.slice(askAt)]) + insertMargin <= pass.target;
            const askAlone = ask === undefined ? 0 : tokens([...systems, ask]);
            const run = conversation.unanswered.filter((message) => input.includes(message));
            let result: Awaited<ReturnType<ContextCompressor['compress']>>;
            try {
              result = await compressor.compress(input, {
                targetTokens: pass.target,
                strategy: pass.strategy,
              });
            } catch (error) {
              if (CompactionNotEffectiveError.isInstance(error) && pass.strategy === 'mask')
                continue;
              if (!ContextBudgetError.isInstance(error)) throw error;
              expect(askFits, error.message).toBe(false);
              if (askAlone > pass.target) {
                seen.askTooLarge++;
                expect(error.latestAskTokens).toBe(counter.countMessage(ask as ModelMessage));
                expect(error.message).toContain('latest user ask alone');
              }
              continue;
            }
            seen.compactions++;
            const output = result.messages;
            if (pass.strategy !== 'mask')
              expect(result.tokensAfter).toBeLessThanOrEqual(pass.target);
            expect(toolPairProblems(output)).toEqual([]);
            for (const system of systems) expect(output).toContain(system);
            if (ask !== undefined) {
              const at = output.indexOf(ask);
              expect(at).toBeGreaterThanOrEqual(0);
              // Nothing of the user's with content after it: it is still the latest ask.
              for (let index = at + 1; index < output.length; index++) {
                const message = output[index]!;
                if (message.role === 'user' && !inserted(message))
                  expect(hasContent(message)).toBe(false);
              }
            }
            // The run stayed whole when it fits beside the head and a full handoff (control).
            const headCount = result.event.headMessageCount;
            const runAt = run.length === 0 ? -1 : input.indexOf(run[0]!);
            if (run.length >= 2 && runAt >= headCount && result.strategy !== 'none') {
              const runFits =
                tokens([...input.slice(0, headCount), ...systems, ...input.slice(runAt)]) +
                  handoffMargin <=
                pass.target;
              if (runFits) {
                seen.controls++;
                for (const message of run) expect(output).toContain(message);
              } else if (run.some((message) => !output.includes(message))) seen.shrunk++;
            }
            expect(conversation.leaked(requests.splice(0))).toEqual([]);
            conversation.replace(output);
          }
        },
      ),
      { numRuns: 120 },
    );
    console.info(`unanswered runs, compress: ${JSON.stringify(seen)}`);
    // Premise: the attack reached runs that had to give up earlier asks, runs that fitted whole,
    // and asks too large for any target.
    expect(seen.shrunk).toBeGreaterThan(0);
    expect(seen.controls).toBeGreaterThan(0);
    expect(seen.askTooLarge).toBeGreaterThan(0);
  }, 240_000);

  it('prepare: fits the window whenever the latest ask fits, with and without background compaction', async () => {
    const seen = { shrunk: 0, askTooLarge: 0, compacted: 0, fromBackground: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            grow: growOperation,
            settle: fc.boolean(),
            summarizerFails: fc.boolean(),
          }),
          { minLength: 1, maxLength: 14 },
        ),
        fc.record({
          contextWindow: fc.noBias(fc.integer({ min: 3_000, max: 12_000 })),
          strategy: fc.constantFrom<CompressionStrategy>(
            'auto',
            'truncate',
            'summarize',
            'receipt',
          ),
          background: fc.boolean(),
        }),
        conversationStart,
        fc.integer(),
        async (steps, setup, start, salt) => {
          const conversation = new ConversationBuilder(salt, start);
          const requests: SummarizerRequest[] = [];
          let fail = false;
          const reservedOutputTokens = 500;
          const available = setup.contextWindow - reservedOutputTokens;
          const manager = createContextManager({
            counter,
            contextWindow: setup.contextWindow,
            reservedOutputTokens,
            strategy: setup.strategy,
            background: setup.background,
            compressor: { maxAttempts: 1, retryDelayMs: 0 },
            summarizer: async (request) => {
              requests.push(request);
              await new Promise((resolve) => setImmediate(resolve));
              if (fail) throw new Error('summariser is down');
              return structuredSummary(`Summary ${requests.length}.`);
            },
          });
          try {
            for (const step of steps) {
              conversation.apply(step.grow);
              fail = step.summarizerFails;
              const input = conversation.messages.slice();
              const ask = conversation.latestAsk;
              const systems = input.filter((message) => message.role === 'system');
              const askAt = ask === undefined ? -1 : input.indexOf(ask);
              const askFits =
                askAt >= 0 &&
                tokens([...systems, ...input.slice(askAt)]) + insertMargin <= available;
              const run = conversation.unanswered.filter((message) => input.includes(message));
              let prepared: Awaited<ReturnType<typeof manager.prepare>>;
              try {
                prepared = await manager.prepare(input);
              } catch (error) {
                if (!ContextWindowExceededError.isInstance(error)) throw error;
                expect(askFits, error.message).toBe(false);
                if (ask !== undefined && tokens([...systems, ask]) > available) {
                  seen.askTooLarge++;
                  expect(error.latestAskTokens).toBeGreaterThan(0);
                  expect(error.message).toContain('latest user message alone');
                }
                continue;
              }
              const sent = prepared.messages;
              expect(tokens(sent)).toBeLessThanOrEqual(available);
              expect(toolPairProblems(sent)).toEqual([]);
              for (const system of systems) expect(sent).toContainEqual(system);
              if (ask !== undefined) expect(sent).toContainEqual(ask);
              if (prepared.report.compacted) seen.compacted++;
              if (prepared.event?.fromBackground === true) seen.fromBackground++;
              if (run.length >= 2 && run.some((message) => !sent.includes(message))) seen.shrunk++;
              expect(conversation.leaked(requests.splice(0))).toEqual([]);
              if (step.settle)
                for (let round = 0; round < 20; round++)
                  await new Promise((resolve) => setImmediate(resolve));
            }
          } finally {
            await manager.close();
          }
          expect(conversation.leaked(requests.splice(0))).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
    console.info(`unanswered runs, prepare: ${JSON.stringify(seen)}`);
    expect(seen.shrunk).toBeGreaterThan(0);
    expect(seen.askTooLarge).toBeGreaterThan(0);
    expect(seen.compacted).toBeGreaterThan(0);
  }, 240_000);

  it('an empty user message after the latest ask does not take its place; an all-system history is kept or reported', async () => {
    const seen = { pinned: 0, controls: 0, allSystemErrors: 0 };
    await fc.assert(
      fc.asyncProperty(
        conversationStart,
        fc.integer(),
        fc.array(fc.noBias(fc.integer({ min: 0, max: 12_000 })), { minLength: 1, maxLength: 4 }),
        fc.noBias(fc.integer({ min: 0, max: 2_000 })),
        fc.constantFrom(...strategies.filter((strategy) => strategy !== 'mask')),
        fc.boolean(),
        async (start, salt, outputs, askSize, strategy, withEmpty) => {
          const conversation = new ConversationBuilder(salt, start);
          conversation.apply({ kind: 'ask', ask: { size: askSize, shape: 'text', secret: false } });
          const ask = conversation.latestAsk as ModelMessage;
          for (const size of outputs) conversation.apply({ kind: 'tools', sizes: [size] });
          // The control has no empty message: the same history otherwise.
          if (withEmpty)
            conversation.apply({ kind: 'ask', ask: { size: 0, shape: 'empty', secret: false } });
          const input = conversation.messages.slice();
          const systems = input.filter((message) => message.role === 'system');
          const last = input.findLastIndex((message) => message.role === 'assistant');
          // Target: the ask, the latest step and what follows, the system messages, a handoff.
          const target = tokens([...systems, ask, ...input.slice(last)]) + handoffMargin;
          const compressor = new ContextCompressor({
            counter,
            minimumSavingsRatio: 0,
            summarizer: async () => structuredSummary(),
          });
          const result = await compressor.compress(input, { targetTokens: target, strategy });
          expect(result.tokensAfter).toBeLessThanOrEqual(target);
          expect(toolPairProblems(result.messages)).toEqual([]);
          const askAt = input.indexOf(ask);
          // Premise: the ask was not in the tail (it had to be pinned to stay).
          if (result.strategy === 'none' || askAt >= result.event.tailStartIndex) return;
          if (withEmpty) seen.pinned++;
          else seen.controls++;
          expect(result.messages).toContain(ask);
          // Masking removes nothing and pins nothing; every other strategy pins the ask.
          if (result.strategy !== 'mask') expect(result.event.pinnedMessageIndex).toBe(askAt);

          // A history of system messages alone: kept whole when it fits, else a typed error.
          const policy = input.filter((message) => message.role === 'system');
          if (policy.length === 0) return;
          const all = [...policy, ...policy.map((message) => ({ ...message }))];
          const allTarget = Math.max(1, tokens(all) - (salt & 1 ? 0 : 5));
          try {
            const kept = await compressor.compress(all, { targetTokens: allTarget, strategy });
            for (const message of all) expect(kept.messages).toContain(message);
          } catch (error) {
            expect(ContextBudgetError.isInstance(error)).toBe(true);
            seen.allSystemErrors++;
          }
        },
      ),
      { numRuns: 150 },
    );
    console.info(`empty asks and all-system histories: ${JSON.stringify(seen)}`);
    expect(seen.pinned).toBeGreaterThan(0);
    expect(seen.controls).toBeGreaterThan(0);
    expect(seen.allSystemErrors).toBeGreaterThan(0);
  }, 240_000);

  it('prepare: an empty user message after work on the ask leaves that work clippable', async () => {
    const seen = { withEmpty: 0, controls: 0 };
    await fc.assert(
      fc.asyncProperty(
        conversationStart.filter((start) => start.firstAsk < 4_000 && start.firstReplySize < 4_000),
        fc.integer(),
        fc.noBias(fc.integer({ min: 0, max: 2_000 })),
        // The latest tool output: larger than the window.
        fc.noBias(fc.integer({ min: 40_000, max: 120_000 })),
        fc.noBias(fc.integer({ min: 4_000, max: 10_000 })),
        fc.boolean(),
        async (start, salt, askSize, outputSize, contextWindow, withEmpty) => {
          const conversation = new ConversationBuilder(salt, start);
          conversation.apply({ kind: 'ask', ask: { size: askSize, shape: 'text', secret: false } });
          const ask = conversation.latestAsk as ModelMessage;
          conversation.apply({ kind: 'tools', sizes: [outputSize] });
          // The control has no empty message: the same history otherwise.
          if (withEmpty)
            conversation.apply({ kind: 'ask', ask: { size: 0, shape: 'empty', secret: false } });
          const input = conversation.messages.slice();
          const reservedOutputTokens = 500;
          const manager = createContextManager({
            counter,
            contextWindow,
            reservedOutputTokens,
            strategy: 'receipt',
          });
          try {
            const prepared = await manager.prepare(input);
            expect(tokens(prepared.messages)).toBeLessThanOrEqual(
              contextWindow - reservedOutputTokens,
            );
            expect(prepared.messages).toContain(ask);
            expect(toolPairProblems(prepared.messages)).toEqual([]);
            if (withEmpty) seen.withEmpty++;
            else seen.controls++;
          } finally {
            await manager.close();
          }
        },
      ),
      { numRuns: 40 },
    );
    console.info(`empty ask after work: ${JSON.stringify(seen)}`);
    expect(seen.withEmpty).toBeGreaterThan(0);
    expect(seen.controls).toBeGreaterThan(0);
  }, 240_000);
});
