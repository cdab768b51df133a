import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { conversation, loadCorpus } from '../arbitraries.ts';
import type { Message } from '../messages.ts';
import { fromLangChain, toLangChain } from './langchain.ts';
import { expectedLangChain } from './normal-forms.ts';

const roundTrip = (messages: Message[]) => fromLangChain(toLangChain(messages), 'test');
const expected = expectedLangChain;

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
