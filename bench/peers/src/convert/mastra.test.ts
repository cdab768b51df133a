import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { conversation, loadCorpus } from '../arbitraries.ts';
import type { Message } from '../messages.ts';
import { fromMastraPrompt, toMastraPrompt } from './mastra.ts';

/** A provider prompt holds user and assistant content as parts; nothing else may change. */
function expected(messages: readonly Message[]): Message[] {
  return messages.map((message) =>
    (message.role === 'user' || message.role === 'assistant') && typeof message.content === 'string'
      ? ({ role: message.role, content: [{ type: 'text', text: message.content }] } as Message)
      : message,
  );
}

const roundTrip = (messages: Message[]) => fromMastraPrompt(toMastraPrompt(messages), 'test');

describe('AI SDK messages <-> Mastra provider prompt', () => {
  const corpus = loadCorpus();
  test.skipIf(corpus.length === 0)(
    'every dev transcript round-trips (skips without ../shared/corpus)',
    () => {
      for (const transcript of corpus) {
        expect(roundTrip(transcript.messages), transcript.id).toEqual(
          expected(transcript.messages),
        );
      }
    },
  );

  test('any well-formed conversation round-trips', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        expect(roundTrip(messages)).toEqual(expected(messages));
      }),
      { numRuns: 200 },
    );
  });

  test('provider options a processor adds are dropped, anything unreadable stops the run', () => {
    const prompt = toMastraPrompt([{ role: 'user', content: 'hi' }]) as Array<{
      content: Array<Record<string, unknown>>;
    }>;
    prompt[0]!.content[0]!.providerOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };
    expect(fromMastraPrompt(prompt, 'peer')).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    ]);
    expect(() => fromMastraPrompt({ prompt }, 'peer')).toThrow(/output cannot be parsed/);
    expect(() => fromMastraPrompt([{ role: 'user', content: 'hi' }], 'peer')).toThrow(
      /content is not an array/,
    );
    expect(() =>
      fromMastraPrompt([{ role: 'user', content: [{ type: 'image', data: 'x' }] }], 'peer'),
    ).toThrow(/part type not allowed/);
  });
});
