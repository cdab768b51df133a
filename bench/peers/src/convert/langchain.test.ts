import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { conversation, loadCorpus } from '../arbitraries.ts';
import type { Message } from '../messages.ts';
import { fromLangChain, toLangChain } from './langchain.ts';

/**
 * What a round trip through LangChain messages may change, and nothing else: user parts become one text;
 * an assistant's text and reasoning blocks come back in order before its tool calls; a non-object tool
 * input is wrapped as `{ value }`; results come back as text (JSON stringified), errors flagged, and
 * consecutive tool messages merge into one.
 */
function expected(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === 'system') out.push(message);
    else if (message.role === 'user') {
      out.push({
        role: 'user',
        content:
          typeof message.content === 'string'
            ? message.content
            : message.content.map((part) => part.text).join('\n'),
      });
    } else if (message.role === 'assistant') {
      if (typeof message.content === 'string') {
        out.push({
          role: 'assistant',
          content: message.content === '' ? [] : [{ type: 'text', text: message.content }],
        });
        continue;
      }
      const blocks = message.content.filter((part) => part.type !== 'tool-call');
      const calls = message.content.flatMap((part) =>
        part.type === 'tool-call'
          ? [
              {
                ...part,
                input:
                  typeof part.input === 'object' &&
                  part.input !== null &&
                  !Array.isArray(part.input)
                    ? part.input
                    : { value: part.input },
              },
            ]
          : [],
      );
      out.push({ role: 'assistant', content: [...blocks, ...calls] });
    } else {
      const parts = message.content.map((part) => ({
        ...part,
        output: {
          type: part.output.type.startsWith('error') ? ('error-text' as const) : ('text' as const),
          value:
            typeof part.output.value === 'string'
              ? part.output.value
              : JSON.stringify(part.output.value),
        },
      }));
      const last = out[out.length - 1];
      if (last?.role === 'tool') last.content.push(...parts);
      else out.push({ role: 'tool', content: parts });
    }
  }
  return out;
}

const roundTrip = (messages: Message[]) => fromLangChain(toLangChain(messages), 'test');

describe('AI SDK messages <-> LangChain JS messages', () => {
  const corpus = loadCorpus();
  test.skipIf(corpus.length === 0)(
    'every dev transcript round-trips to the expected normal form (skips without ../shared/corpus)',
    () => {
      for (const transcript of corpus) {
        expect(roundTrip(transcript.messages), transcript.id).toEqual(
          expected(transcript.messages),
        );
      }
    },
  );

  test('any well-formed conversation round-trips, and a second round trip changes nothing', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const once = roundTrip(messages);
        expect(once).toEqual(expected(messages));
        expect(roundTrip(once)).toEqual(once);
      }),
      { numRuns: 200 },
    );
  });

  test('output that is not text (an image block) stops the run instead of scoring', () => {
    const messages = toLangChain([{ role: 'user', content: 'look' }]);
    messages[0]!.content = [{ type: 'image_url', image_url: 'x' }] as never;
    expect(() => fromLangChain(messages, 'peer')).toThrow(/peer: output cannot be parsed/);
  });
});
