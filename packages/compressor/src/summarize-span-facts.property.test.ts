import type { ModelMessage } from '@ai-sdk/provider-utils';
import { clipMiddle, redactMessages } from '@baton/fallback';
import { loadSecretFixtures } from '@baton/test-corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactForSummary, redactWhole } from './redact-for-summary.js';
import { spanFacts } from './summarize-span.js';
import { extractSpanFacts, wordStems, wordStemsOf } from './verify-summary.js';

// Secrets from the fixtures when present, else assembled from generated bodies at run time.
const fixtureSecrets = loadSecretFixtures()
  .filter((fixture) => fixture.expect === 'secret')
  .map((fixture) => fixture.text)
  .slice(0, 200);
const secret =
  fixtureSecrets.length > 0
    ? fc.constantFrom(...fixtureSecrets)
    : fc.stringMatching(/^[A-Za-z0-9]{36}$/).map((body) => `ghp_${body}`);
const word = fc.constantFrom(
  'build',
  'failing',
  'parser',
  'config',
  'deploy',
  'migration',
  'tests',
);
const path = fc.constantFrom('src/index.ts', 'packages/api/server.ts', 'README.md', 'lib/db.py');
const sentence = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 6 }), fc.option(path), fc.option(secret))
  .map(([words, file, key]) => [...words, file ?? '', key ? `token=${key}` : ''].join(' ').trim());
// Long outputs, so the clipped and the unclipped forms differ.
const output = fc
  .tuple(sentence, fc.integer({ min: 0, max: 400 }), fc.boolean())
  .map(
    ([text, repeat, failed]) =>
      `${failed ? 'Error: build failed in src/index.ts\n' : ''}${'log line\n'.repeat(repeat)}${text}`,
  );
const step = fc.oneof(
  sentence.map((text): ModelMessage[] => [{ role: 'user', content: text }]),
  fc
    .tuple(fc.constantFrom('bash', 'read_file', 'edit'), sentence, output, fc.boolean())
    .map(([tool, input, result, answered]): ModelMessage[] => {
      const id = `call-${input.length}-${result.length}`;
      const call: ModelMessage = {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: `${input}\n${result.slice(0, 200)}` },
          { type: 'tool-call', toolCallId: id, toolName: tool, input: { command: input } },
        ],
      };
      if (!answered) return [call];
      return [
        call,
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: id,
              toolName: tool,
              output: { type: 'text', value: result },
            },
          ],
        },
      ];
    }),
);
const span = fc
  .tuple(fc.array(step, { minLength: 1, maxLength: 10 }), fc.nat())
  .map(([steps, pin]) => {
    const messages = steps.flat();
    const asks = messages.flatMap((message, index) => (message.role === 'user' ? [index] : []));
    const pinned = asks.length > 0 ? asks[pin % asks.length] : undefined;
    return messages.map((message, index) => ({
      message,
      index: index + 3,
      tokens: 10,
      ...(index === pinned ? { latestRequest: true } : {}),
    }));
  });

/** Fresh objects with the same content: no identity memo can answer for them. */
const fresh = <T>(value: T): T => structuredClone(value);

describe('summary facts from one redaction', () => {
  it('are the facts of a second, full redaction of the span (the previous way)', () => {
    fc.assert(
      fc.property(span, fc.constantFrom(200, 2_000, 6_000), (entries, limit) => {
        const messages = entries.map((entry) => entry.message);
        const asks = new Set(
          entries.flatMap((entry, position) => (entry.latestRequest ? [position] : [])),
        );
        // The transcript is clipped first (as summarizeSpan does), then the facts are derived.
        const whole = redactWhole(messages);
        redactForSummary(messages, limit, whole);
        const facts = spanFacts(entries, whole);
        const previous = extractSpanFacts(redactMessages(fresh(messages)).messages, asks);
        expect(facts).toEqual(previous);
      }),
      { numRuns: 150, seed: 20_261_123 },
    );
  });

  it('never depend on what was redacted before, in any order of limits', () => {
    fc.assert(
      fc.property(
        span,
        fc.array(fc.constantFrom(200, 2_000, Number.MAX_SAFE_INTEGER), {
          minLength: 1,
          maxLength: 5,
        }),
        (entries, limits) => {
          const messages = entries.map((entry) => entry.message);
          for (const limit of limits) {
            const clipped = redactForSummary(messages, limit);
            // The previous way: redact a fresh copy whole, then clip each string the transcript clips.
            const reference = redactForSummary(fresh(messages), limit);
            expect(clipped).toEqual(reference);
            expect(JSON.stringify(clipped)).toBe(JSON.stringify(reference));
            expect(redactWhole(messages)).toEqual(redactMessages(fresh(messages)).messages);
          }
          // The unclipped redaction is the clipped one at no limit.
          expect(redactForSummary(fresh(messages), Number.MAX_SAFE_INTEGER)).toEqual(
            redactWhole(messages),
          );
          expect(clipMiddle('x'.repeat(10), Number.MAX_SAFE_INTEGER)).toBe('x'.repeat(10));
        },
      ),
      { numRuns: 100, seed: 20_261_124 },
    );
  });
});

describe('wordStemsOf', () => {
  it('gives the stems of the joined texts, whatever the texts (Unicode case mapping included)', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.constantFrom('İSTANBUL', 'KELVIN', 'ΣΟΦΟΣ', 'Because the BUILD failed', 'through'),
      // Letters, the two non-ASCII units that lower-case into a-z (Kelvin sign, I with a dot),
      // and breaks, so that words, stop words and those units meet inside one word.
      fc
        .array(
          fc.constantFrom(
            'a',
            'T',
            'h',
            'R',
            'o',
            'u',
            'G',
            'k',
            '\u212a',
            '\u0130',
            ' ',
            '_',
            'ſ',
          ),
          {
            maxLength: 30,
          },
        )
        .map((units) => units.join('')),
      fc.constantFrom(
        'about abouts ABOU thanksgiving throughout wouldnt your yours',
        'THANK\u212aS',
        'thanks',
        'THAN\u212a',
        'Whi\u0130ch',
        '\u0130\u0130\u0130\u0130',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (texts) => {
        const joined = texts.join('\n');
        expect(wordStemsOf(texts)).toEqual(wordStems(joined));
        // The previous formula (lower-case the joined text, match, drop stop words, cut): a
        // single lower-case word has no stem exactly when it is a stop word.
        const previous = new Set(
          (joined.toLowerCase().match(/[a-z]{4,}/g) ?? [])
            .filter((word) => wordStemsOf([word]).size > 0)
            .map((word) => word.slice(0, 4)),
        );
        expect(wordStemsOf(texts)).toEqual(previous);
        // In the same order (first appearance), as the regex scan gave them.
        expect([...wordStemsOf(texts)]).toEqual([...previous]);
      }),
      { numRuns: 1_000, seed: 20_261_125 },
    );
  });
});
