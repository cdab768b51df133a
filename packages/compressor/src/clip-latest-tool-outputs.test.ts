import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipLatestToolOutputs } from './clip-latest-tool-outputs.js';

const counter = createTokenCounter({ encoding: 'o200k_base' });
// On a line of its own in a text of lines, between spaces in one-line JSON.
const marker = /[\n ]\[Baton: \d+ tokens omitted\][\n ]/;

/** A latest turn: the ask, a call and its result with `output`. */
function turn(output: unknown): ModelMessage[] {
  return [
    { role: 'user', content: 'Read the log.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.log' } },
      ],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output } as never],
    },
  ];
}

const outputOf = (messages: readonly ModelMessage[]) =>
  (messages[2]!.content as Array<{ output: Record<string, unknown> }>)[0]!.output;

const lines = fc
  .array(fc.stringMatching(/^[a-z]{3,9}( [a-z]{3,9}){2,8}$/), { minLength: 400, maxLength: 700 })
  .map((parts) => parts.map((line, index) => `${index}: ${line}`).join('\n'));

describe('clipLatestToolOutputs', () => {
  it('clips string and JSON outputs into text (errors stay errors), keeping both ends', () => {
    fc.assert(
      fc.property(
        lines,
        fc.constantFrom('text', 'error-text', 'json', 'error-json'),
        (text, type) => {
          const value = type.endsWith('json') ? { log: text.split('\n') } : text;
          const whole = type.endsWith('json') ? JSON.stringify(value) : text;
          const messages = turn({ type, value });
          const clipped = clipLatestToolOutputs(messages, { counter, maxTokens: 600 });
          expect(clipped).toBeDefined();
          const output = outputOf(clipped!.messages);
          expect(output.type).toBe(type.startsWith('error') ? 'error-text' : 'text');
          const [head, tail] = (output.value as string).split(marker);
          expect(whole.startsWith(head!)).toBe(true);
          expect(whole.endsWith(tail!)).toBe(true);
          expect(clipped!.clippedOutputs).toBe(1);
          expect(clipped!.omittedTokens).toBeGreaterThan(0);
          // Only the result changed.
          expect(clipped!.messages.slice(0, 2)).toEqual(messages.slice(0, 2));
          expect(outputOf(messages).value).toEqual(value);
        },
      ),
      { numRuns: 25, seed: 20_261_123 },
    );
  });

  it('clips the text parts of content outputs one by one and leaves other outputs alone', () => {
    fc.assert(
      fc.property(lines, (text) => {
        const content = turn({
          type: 'content',
          value: [
            { type: 'text', text },
            { type: 'media', data: 'AAAA', mediaType: 'image/png' },
          ],
        });
        const clipped = clipLatestToolOutputs(content, { counter, maxTokens: 600 });
        const items = outputOf(clipped!.messages).value as Array<Record<string, unknown>>;
        expect(outputOf(clipped!.messages).type).toBe('content');
        expect(items[0]!.text).toMatch(marker);
        expect(items[1]).toEqual({ type: 'media', data: 'AAAA', mediaType: 'image/png' });
        // A denial has no output text to clip.
        const denied = turn({ type: 'execution-denied', reason: text });
        expect(clipLatestToolOutputs(denied, { counter, maxTokens: 600 })).toBeUndefined();
      }),
      { numRuns: 10, seed: 20_261_124 },
    );
  });
});
