import { createContextCompressor } from '@baton/compressor';
import { corpusSkipReason, loadTranscripts } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { generateText, type LanguageModel, wrapLanguageModel } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalModel } from './create-local-model.js';
import { summarizeText } from './summarize-text.js';
import { summarizerInputBudget } from './summarizer-input-budget.js';
import { type CorpusWindow, corpusWindows } from './test-utils/corpus-windows.js';
import { realModel } from './test-utils/real-model.js';
import { withStructuredOutputs } from './with-structured-outputs.js';

const { modelPath, skipReason } = await realModel();
const contextSize = 4096;
const summaryTargetTokens = 96;

/** Failures that say the reply was not usable as a summary (not that the call broke). */
const qualityReason =
  /^(garbage: summary rejected as (truncated|refusal|off-topic) |empty: |too_long: )/;

describe.skipIf(skipReason !== undefined || corpusSkipReason !== undefined)(
  'summarize strategy with the real local model',
  () => {
    const local = createLocalModel({ modelPath, contextSize });
    afterAll(() => local.dispose());
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const calls: Array<{
      inputTokens: number;
      outputTokens: number;
      finish: string;
      ms: number;
      structured: boolean;
    }> = [];
    // Records each request the compressor sends, as the model counted it. `wrapLanguageModel` drops
    // the model's structured-output capability; `withStructuredOutputs` keeps it, so the compressor
    // asks for the bounded JSON handoff (checked on every call below).
    const recorded: LanguageModel = withStructuredOutputs(
      wrapLanguageModel({
        model: local,
        middleware: {
          specificationVersion: 'v4',
          wrapGenerate: async ({ doGenerate, params }) => {
            const started = performance.now();
            const result = await doGenerate();
            calls.push({
              inputTokens: result.usage.inputTokens.total ?? 0,
              outputTokens: result.usage.outputTokens.total ?? 0,
              finish: result.finishReason.unified,
              ms: performance.now() - started,
              structured: params.responseFormat?.type === 'json',
            });
            return result;
          },
        },
      }),
      { from: local },
    );
    const budget = summarizerInputBudget({ contextSize, summaryTargetTokens });
    const targetFor = (tokens: number) => Math.floor(tokens * 0.75);
    /**
     * The first `count` windows (spread over the corpus) where a compaction to the target is possible
     * at all: the receipt, which needs no model, fits. Others have a tail too big for the target.
     */
    const windowsFor = async (count: number) => {
      const usable: CorpusWindow[] = [];
      for (const window of corpusWindows(Number.POSITIVE_INFINITY, 900, counter)) {
        if (usable.length === count) break;
        const receipt = createContextCompressor({
          counter,
          summaryTargetTokens,
          protectLastNTokens: 200,
        });
        try {
          await receipt.compress(window.messages, {
            targetTokens: targetFor(window.tokens),
            strategy: 'receipt',
          });
          usable.push(window);
        } catch {
          // Not compactable to this target: not a window for this suite.
        }
      }
      return usable;
    };
    const compressorFor = (options: { timeoutMs?: number } = {}) =>
      createContextCompressor({
        summarizer: recorded,
        counter,
        summaryTargetTokens,
        protectLastNTokens: 200,
        maxAttempts: 1,
        timeoutMs: options.timeoutMs ?? 300_000,
        deadlineMs: 600_000,
        summarizerInputBudget: budget,
        detail: 'brief',
      });

    it('summarises corpus windows: each reply is accepted or falls back for a stated quality reason, and every request fits the context', async () => {
      const windows = await windowsFor(2);
      expect(windows.length).toBeGreaterThan(0);
      const outcomes: string[] = [];
      for (const window of windows) {
        const before = calls.length;
        const result = await compressorFor().compress(window.messages, {
          targetTokens: targetFor(window.tokens),
          strategy: 'summarize',
        });
        expect(result.withinBudget).toBe(true);
        expect(result.tokensAfter).toBeLessThanOrEqual(targetFor(window.tokens));
        expect(calls.length).toBeGreaterThan(before);
        for (const call of calls.slice(before)) {
          expect(call.structured).toBe(true);
          // The prompt fits, and leaves room for the whole reply the compressor asked for.
          expect(call.inputTokens + Math.ceil(summaryTargetTokens * 1.5) + 64).toBeLessThanOrEqual(
            contextSize,
          );
        }
        if (result.usedFallback) {
          expect(result.strategy).toBe('receipt');
          expect(result.fallbackReason).toMatch(qualityReason);
          expect(result.event.factCoverage).toBeUndefined();
          outcomes.push(`${window.name}: receipt (${result.fallbackReason})`);
        } else {
          // Accepted: read in whatever structure it had, checked against the span's facts, and
          // topped up with the missing ones.
          expect(result.strategy).toBe('summarize');
          const coverage = result.event.factCoverage!;
          expect(coverage).toBeGreaterThanOrEqual(0);
          expect(coverage).toBeLessThanOrEqual(1);
          for (const fact of Object.values(result.event.addedFacts!).flat()) {
            expect(result.summary).toContain(fact);
          }
          outcomes.push(`${window.name}: summary accepted (fact coverage ${coverage.toFixed(2)})`);
        }
      }
      console.info(`[local-model] ${outcomes.join('; ')}`);
      console.info(
        `[local-model] calls: ${calls.map((call) => `${call.inputTokens} in / ${call.outputTokens} out (${call.finish}) ${Math.round(call.ms)} ms`).join('; ')}`,
      );
    }, 600_000);

    it('summarises a raw corpus tool output with the local model, or falls back to its key lines for a stated reason', async () => {
      // The first tool output of 2,000 to 6,000 characters in the corpus (spread order: any corpus has one).
      const output = loadTranscripts()
        .flatMap((transcript) => transcript.messages)
        .flatMap((message) =>
          message.role === 'tool' && Array.isArray(message.content) ? message.content : [],
        )
        .map((part) => (part as { output?: { type?: string; value?: unknown } }).output)
        .map((value) =>
          value?.type === 'text' && typeof value.value === 'string' ? value.value : '',
        )
        .find((text) => text.length >= 2_000 && text.length <= 6_000);
      expect(output).toBeDefined();
      const result = await summarizeText(output!, {
        summarizer: local,
        counter,
        targetTokens: 120,
        chunkTokens: 1_500,
        timeoutMs: 120_000,
      });
      expect(result.chunks).toBeGreaterThanOrEqual(1);
      if (result.strategy === 'key-lines') {
        expect(result.fallbackReason).toMatch(
          /cut at the output cap|empty|refused|exceeds its target/,
        );
        expect(result.tokensAfter).toBeLessThanOrEqual(120);
      } else {
        expect(result.strategy).toBe('summarize');
        expect(result.tokensAfter).toBeLessThanOrEqual(144);
      }
      console.info(
        `[local-model] summarizeText: ${result.strategy}${result.fallbackReason ? ` (${result.fallbackReason})` : ''}, ${result.tokensBefore} -> ${result.tokensAfter} tokens`,
      );
    }, 180_000);

    it('times out against a generating model, falls back to the receipt, and frees the model at once', async () => {
      const [window] = await windowsFor(1);
      expect(window).toBeDefined();
      const short = () => generateText({ model: local, prompt: 'Say hi.', maxOutputTokens: 4 });
      const baselineStarted = performance.now();
      await short();
      const baseline = performance.now() - baselineStarted;
      const started = performance.now();
      const result = await compressorFor({ timeoutMs: 1_500 }).compress(window!.messages, {
        targetTokens: targetFor(window!.tokens),
        strategy: 'summarize',
      });
      const elapsed = performance.now() - started;
      expect(result.usedFallback).toBe(true);
      expect(result.fallbackReason).toMatch(/^timeout: /);
      expect(elapsed).toBeLessThan(1_500 + 5_000);
      // The cut call stopped generating: a short call right after is not queued behind the rest of
      // it (which takes many seconds), only behind the prompt chunk in flight.
      const next = performance.now();
      await short();
      expect(performance.now() - next).toBeLessThan(baseline * 2 + 2_000);
    });

    it("honours the caller's abort against a generating model", async () => {
      const [window] = await windowsFor(1);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 800);
      const started = performance.now();
      const result = await compressorFor().compress(window!.messages, {
        targetTokens: targetFor(window!.tokens),
        strategy: 'summarize',
        abortSignal: controller.signal,
      });
      expect(result.usedFallback).toBe(true);
      expect(result.fallbackReason).toMatch(/^aborted: /);
      expect(performance.now() - started).toBeLessThan(800 + 5_000);
    });
  },
);
