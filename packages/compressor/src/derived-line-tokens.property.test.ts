import type { ModelMessage } from '@ai-sdk/provider-utils';
import { propertySeed } from '@baton/test-corpus/property-seed';
import { createTokenCounter, type TokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivedLineTokens, pricesAsChat } from './derived-line-tokens.js';
import { delimitedPrompt } from './summary-prompt.js';
import { createRequestCounter, segmentLine, transcriptSegment } from './transcript-segments.js';

/**
 * A line's count derived from its message's count must equal tokenising the line, and a request
 * counted with derived lines must equal a recount of the whole request, for text that sits
 * awkwardly at the line's edges (leading newlines and slashes, trailing punctuation and spaces,
 * escaped tags, contractions, digits, other scripts).
 */
const seed = propertySeed();
const runs = (numRuns: number) => ({ numRuns, ...(seed === undefined ? {} : { seed }) });

const fragment = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom(
    'word',
    'Word',
    ' ',
    '  ',
    '\n',
    '\r\n',
    '\n\n',
    '/',
    '//x',
    '.',
    ');',
    '}',
    "'s",
    "'ll",
    '123456',
    '7',
    'é',
    '中文',
    '🙂',
    '\t',
    '</message>',
    '</transcript',
    '>',
    ' x',
    'abc def',
  ),
);
const text = fc.noBias(fc.array(fragment, { maxLength: 24 })).map((parts) => parts.join(''));

/** Fragments the serializer does not escape (a long text holding one is refused, as it should be). */
const unescaped = fragment.filter((part) => !part.includes('</'));

/** Text long enough for a tool-call line to be taken apart (short ones are counted whole). */
const longText = fc
  .tuple(text, fc.noBias(fc.array(unescaped, { minLength: 90, maxLength: 160 })), text)
  .map(([start, middle, end]) => start + middle.join('') + end);

/** A tool call's input: JSON whose text starts and ends awkwardly (keys, numbers, nested text). */
const input = fc.oneof(
  fc.record({ path: text }),
  fc.record({ path: text, content: longText }),
  fc.record({ old_text: longText, new_text: longText }),
  fc.record({ command: text, timeout: fc.integer({ min: -5, max: 100_000 }) }),
  fc.array(fc.oneof(text, fc.integer(), fc.constant(null)), { maxLength: 4 }),
  fc.dictionary(fc.constantFrom('a', 'old_text', '1', 'é'), text, { maxKeys: 3 }),
  fc.constantFrom(0, 12, true, null, {}, []),
);
const toolCall = fc.record({
  type: fc.constant('tool-call' as const),
  toolCallId: fc.constantFrom('call-1', 'call_Ab9', 'x', 'toolu_01A7'),
  toolName: fc.constantFrom('read_file', 'bash', 'Edit', 'x'),
  input,
});
const textPart = fc.oneof(text, longText).map((value) => ({ type: 'text' as const, text: value }));
/** Assistant turns of text and tool calls in any order (one call alone the commonest). */
const callMessage = fc
  .oneof(
    fc.tuple(toolCall).map((parts) => [...parts]),
    fc.tuple(textPart, toolCall).map((parts) => [...parts]),
    fc.noBias(fc.array(fc.oneof(textPart, toolCall), { minLength: 1, maxLength: 4 })),
  )
  .map((content): ModelMessage => ({ role: 'assistant', content }));

const message = fc.oneof(
  text.map((content): ModelMessage => ({ role: 'user', content })),
  callMessage,
  text.map(
    (value): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text: value }] }),
  ),
  fc.tuple(text, fc.constantFrom('call-1', 'call_Ab9', 'x')).map(
    ([value, id]): ModelMessage => ({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'read_file',
          output: { type: 'text', value },
        },
      ],
    }),
  ),
);

const counters: Record<string, TokenCounter> = {
  o200k: createTokenCounter({ encoding: 'o200k_base' }),
  cl100k: createTokenCounter({ encoding: 'cl100k_base' }),
};

describe('derivedLineTokens', () => {
  for (const [name, counter] of Object.entries(counters)) {
    it(`${name}: a derived line count equals tokenising the line; a request of derived lines its recount`, () => {
      let derived = 0;
      let cases = 0;
      let calls = 0;
      let derivedCalls = 0;
      fc.assert(
        fc.property(fc.array(message, { minLength: 1, maxLength: 6 }), (messages) => {
          counter.countMessages(messages);
          const segments = messages.map((item, index) =>
            transcriptSegment(item, index, 'concise', false),
          );
          for (const [index, segment] of segments.entries()) {
            cases++;
            const line = segmentLine(segment);
            const tokens = derivedLineTokens(line, messages[index]!, counter);
            const hasCall =
              Array.isArray(messages[index]!.content) &&
              (messages[index]!.content as Array<{ type: string }>).some(
                (part) => part.type === 'tool-call',
              );
            if (hasCall) calls++;
            if (tokens !== undefined) {
              derived++;
              if (hasCall) derivedCalls++;
              expect(tokens).toBe(counter.count(line));
            }
          }
          // Fresh segments (no remembered counts), counted through the request counter.
          const fresh = messages.map((item, index) =>
            transcriptSegment({ ...item }, index + 100, 'concise', false),
          );
          const countRequest = createRequestCounter(counter, (position) => messages[position]);
          const transcript = fresh.map((segment) => segmentLine(segment).slice(0, -1)).join('\n');
          expect(countRequest('Summarise.', fresh, undefined, undefined, 0)).toBe(
            counter.countMessages([
              { role: 'system', content: 'Summarise.' },
              { role: 'user', content: delimitedPrompt(transcript, undefined) },
            ]),
          );
        }),
        runs(300),
      );
      // Premise: the derivation applies to a good share of the lines, and is refused for others.
      expect(derived).toBeGreaterThan(cases * 0.05);
      expect(derived).toBeLessThan(cases);
      // And to lines holding tool calls (refused for some: short lines, a line break first).
      expect(derivedCalls).toBeGreaterThan(calls * 0.05);
      expect(derivedCalls).toBeLessThan(calls);
    });

    it(`${name}: control: summing the data's count without the edge conditions is wrong for some lines`, () => {
      const closing = '\n</message>\n';
      let wrong = 0;
      fc.assert(
        fc.property(text, (value) => {
          const item: ModelMessage = { role: 'user', content: value };
          const line = segmentLine(transcriptSegment(item, 7, 'concise', false));
          const start = line.length - closing.length - value.length;
          if (!line.startsWith(value, start)) return;
          const naive =
            counter.count(line.slice(0, start)) + counter.count(value) + counter.count(closing);
          if (naive !== counter.count(line)) wrong++;
        }),
        runs(300),
      );
      expect(wrong).toBeGreaterThan(0);
    });
  }

  it('is refused for a counter that prices one role otherwise (review: assistant +7)', () => {
    const exact = counters.o200k!;
    for (const role of ['user', 'assistant', 'system', 'tool'] as const) {
      const other: TokenCounter = {
        ...exact,
        count: (value) => exact.count(value),
        countMessage: (item) => exact.countMessage(item) + (item.role === role ? 7 : 0),
        countMessages: (items, options) => exact.countMessages(items, options),
      };
      expect(pricesAsChat(other)).toBe(false);
    }
    expect(pricesAsChat(exact)).toBe(true);
  });

  it('is refused for a counter that prices messages otherwise', () => {
    const exact = counters.o200k!;
    const other: TokenCounter = {
      ...exact,
      encoding: exact.encoding,
      exact: true,
      tokenizer: exact.tokenizer,
      count: (value) => exact.count(value),
      countMessage: (item) => exact.countMessage(item) + 5,
      countMessages: (items, options) => exact.countMessages(items, options),
    };
    const item: ModelMessage = { role: 'user', content: 'Continue with the tests now' };
    const segment = transcriptSegment(item, 3, 'concise', false);
    const countRequest = createRequestCounter(other, () => item);
    const copy = transcriptSegment({ ...item }, 3, 'concise', false);
    expect(segmentLine(copy)).toBe(segmentLine(segment));
    // As counted with no source at all: the line tokenised, not taken apart.
    expect(countRequest('', [segment], undefined, undefined, 0)).toBe(
      createRequestCounter(other)('', [copy], undefined),
    );
    // Premise: the exact counter does derive this line.
    expect(derivedLineTokens(segmentLine(segment), item, exact)).toBe(
      exact.count(segmentLine(segment)),
    );
  });
});
