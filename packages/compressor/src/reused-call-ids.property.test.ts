import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CompactionNotEffectiveError,
  type CompressionStrategy,
  ContextBudgetError,
  ContextCompressor,
  validateToolPairs,
} from './index.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

// Premise: some OpenAI-compatible servers number tool calls per turn, so `call_0` comes back in
// every turn. A history is still valid when each result follows the call of its id right before
// it; compaction must treat it as it treats the same history with unique ids.
const counter = createSimpleCounter();
const strategies: CompressionStrategy[] = ['truncate', 'mask', 'receipt', 'summarize', 'auto'];

/**
 * The history with each assistant message's calls renamed by their position in it (`call_12` ->
 * `call_00`, same length so a length-based counter counts the same), results renamed with them.
 */
function renumberPerTurn(messages: readonly ModelMessage[]): ModelMessage[] {
  let names = new Map<string, string>();
  return messages.map((message) => {
    if (!Array.isArray(message.content)) return message;
    if (message.role === 'assistant') {
      const calls = message.content.filter((part) => part.type === 'tool-call');
      if (calls.length > 0) names = new Map();
      for (const [position, part] of calls.entries()) {
        names.set(
          part.toolCallId,
          `call_${String(position).padStart(part.toolCallId.length - 5, '0')}`,
        );
      }
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === 'tool-call' ? { ...part, toolCallId: names.get(part.toolCallId)! } : part,
        ),
      } as ModelMessage;
    }
    if (message.role === 'tool') {
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === 'tool-result'
            ? { ...part, toolCallId: names.get(part.toolCallId) ?? part.toolCallId }
            : part,
        ),
      } as ModelMessage;
    }
    return message;
  });
}

function reusedIds(messages: readonly ModelMessage[]): number {
  const seen = new Set<string>();
  let reused = 0;
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      if (seen.has(part.toolCallId)) reused++;
      seen.add(part.toolCallId);
    }
  }
  return reused;
}

async function outcome(
  messages: ModelMessage[],
  targetTokens: number,
  strategy: CompressionStrategy,
): Promise<{ kind: string; messages: readonly ModelMessage[]; tokens?: number }> {
  const compressor = new ContextCompressor({
    counter,
    summaryTargetTokens: 200,
    retryDelayMs: 0,
    summarizer: async () => structuredSummary(),
  });
  try {
    const result = await compressor.compress(messages, { targetTokens, strategy });
    return { kind: 'fits', messages: result.messages, tokens: result.tokensAfter };
  } catch (error) {
    if (CompactionNotEffectiveError.isInstance(error))
      return { kind: 'not-effective', messages: error.result.messages as ModelMessage[] };
    if (ContextBudgetError.isInstance(error)) return { kind: 'budget', messages };
    throw error;
  }
}

describe('tool-call ids reused across turns', () => {
  for (const strategy of strategies) {
    it(`${strategy}: compacts as the same history with unique ids does`, async () => {
      let withReuse = 0;
      await fc.assert(
        fc.asyncProperty(
          historyArbitrary,
          fc.double({ min: 0.2, max: 0.8, noNaN: true }),
          async (history, ratio) => {
            const renumbered = renumberPerTurn(history);
            if (reusedIds(renumbered) > 0) withReuse++;
            const target = Math.max(1, Math.floor(counter.countMessages(history) * ratio));
            const unique = await outcome(history, target, strategy);
            const reused = await outcome(renumbered, target, strategy);
            expect(reused.kind).toBe(unique.kind);
            expect(reused.messages.length).toBe(unique.messages.length);
            expect(reused.tokens).toBe(unique.tokens);
            expect(validateToolPairs(reused.messages as ModelMessage[]).problems).toEqual([]);
          },
        ),
        { numRuns: 120 },
      );
      // The property must mostly see histories where an id comes back.
      expect(withReuse).toBeGreaterThan(60);
    }, 120_000);
  }
});
