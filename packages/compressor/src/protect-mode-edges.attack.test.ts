import { randomInt } from 'node:crypto';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { BatonError } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, validateToolPairs } from './index.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Attack (reviewer) on protect mode, `compress(messages)` with no options: a summariser that
 * returns a credential, out-of-range settings, and a history ending in a giant ask, a system message
 * in the middle and a tool call without result, compacted again with new steps appended.
 */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (set: string, length: number) =>
  Array.from({ length }, () => set[randomInt(set.length)]).join('');
const words = ['build', 'server', 'config', 'retry', 'cache', 'module', 'deploy', 'worker'];
const prose = (count: number) =>
  Array.from({ length: count }, () => words[randomInt(words.length)]).join(' ');

const steps = (from: number, count: number): ModelMessage[] =>
  Array.from({ length: count }, (_, offset): ModelMessage[] => [
    { role: 'user', content: `step ${from + offset}: ${prose(150)}` },
    { role: 'assistant', content: prose(150) },
  ]).flat();

describe('protect mode under attack', () => {
  it('a credential the summariser writes is redacted in the handoff and the event', async () => {
    const secret = `ghp_${pick(alnum, 36)}`;
    const compressor = new ContextCompressor({
      counter: createSimpleCounter(),
      retryDelayMs: 0,
      summarizer: async () => structuredSummary(`Authenticated with ${secret} then went on.`),
    });
    const result = await compressor.compress([
      { role: 'system', content: 'You are a coding agent.' },
      ...steps(0, 200),
    ]);
    expect(result.strategy).toBe('summarize');
    expect(JSON.stringify(result.messages)).not.toContain(secret);
    expect(JSON.stringify(result.event)).not.toContain(secret);
  });

  it('out-of-range settings are typed errors naming the option, never echoing the value', async () => {
    const history = steps(0, 200);
    for (const key of ['summaryTargetTokens', 'protectLastNTokens'] as const) {
      for (const value of [-1 - randomInt(1000), Number.NaN, Number.POSITIVE_INFINITY]) {
        const attempt = async () =>
          new ContextCompressor({ counter: createSimpleCounter(), [key]: value }).compress(history);
        const error = await attempt().then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(BatonError.isInstance(error), `${key} ${value}`).toBe(true);
        expect((error as Error).message).toContain(key);
      }
    }
  });

  it('giant latest ask, mid-history system message, unanswered call: kept through repeated compaction', async () => {
    const compressor = new ContextCompressor({
      counter: createSimpleCounter(),
      retryDelayMs: 0,
      summarizer: async () => structuredSummary(),
    });
    const rule = `Always answer in ${pick('abcdefghij', 8)}.`;
    let messages: ModelMessage[] = [
      { role: 'system', content: 'You are a coding agent.' },
      ...steps(0, 60),
      { role: 'system', content: rule },
      ...steps(60, 60),
    ];
    for (let round = 0; round < 4; round++) {
      const ask = `round ${round} ${pick(alnum, 12)}: ${prose(3_000 + randomInt(3_000))}`;
      const callId = `call-${pick(alnum, 8)}`;
      const input: ModelMessage[] = [
        ...messages,
        ...steps(1_000 * (round + 1), 20),
        { role: 'user', content: ask },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: callId, toolName: 'bash', input: { a: 1 } }],
        },
      ];
      const result = await compressor.compress(input);
      expect(result.strategy, `round ${round}`).toBe('summarize');
      const out = JSON.stringify(result.messages);
      expect(
        result.messages.some((m) => m.role === 'user' && m.content === ask),
        `round ${round}`,
      ).toBe(true);
      expect(out).toContain(rule);
      expect(out).toContain(callId);
      expect(() => validateToolPairs(result.messages)).not.toThrow();
      messages = result.messages.slice(0, -1);
    }
  });
});
