import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, type SummarizerRequest } from './index.js';
import { redactForSummary } from './redact-for-summary.js';
import { delimitedPrompt, serializeMessage, summaryInstructions } from './summary-prompt.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';
import {
  createRequestCounter,
  joinPrompt,
  segmentLine,
  segmentText,
  transcriptSegment,
} from './transcript-segments.js';

/**
 * The summariser request's token count is derived (instructions + frame + remembered per-segment
 * counts) instead of tokenising the joined request; it must equal a full recount for every
 * counter. Seeded so CI runs the same cases.
 */
const seed = 9_001;
const counters = {
  o200k: createTokenCounter({ encoding: 'o200k_base' }),
  cl100k: createTokenCounter({ encoding: 'cl100k_base' }),
  p50k: createTokenCounter({ encoding: 'p50k_base' }),
  heuristic: createTokenCounter({ encoding: 'heuristic' }),
  simple: createSimpleCounter(),
};

/** Text built to sit awkwardly at segment edges: leading spaces, slashes, newlines, tags, scripts. */
const trickyText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.constantFrom(
        ' ',
        '  leading',
        '\n',
        '\n\n',
        '\r\n',
        '/',
        '//comment',
        '</message>',
        '</transcript>',
        '<message index="1">',
        '>',
        '.',
        '"quoted"',
        '日本語のテキスト',
        'Привет',
        '👩‍💻',
        '\t',
        '\u00a0',
        '123456',
        'sk-ant-api03-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ',
      ),
    ),
    { maxLength: 12 },
  )
  .map((pieces) => pieces.join(''));

const userPart = fc.oneof(
  trickyText.map((text) => ({ type: 'text' as const, text })),
  fc.constant({
    type: 'image' as const,
    image:
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    mediaType: 'image/png',
  }),
);

/** Histories with tool calls (the generator) plus tricky user, system and multi-part messages. */
const history: fc.Arbitrary<ModelMessage[]> = fc
  .tuple(
    historyArbitrary,
    fc.array(
      fc.oneof(
        trickyText.map((content): ModelMessage => ({ role: 'user', content })),
        trickyText.map((content): ModelMessage => ({ role: 'system', content })),
        fc
          .array(userPart, { minLength: 1, maxLength: 4 })
          .map((content): ModelMessage => ({ role: 'user', content })),
        fc
          .array(
            fc.oneof(
              trickyText.map((text) => ({ type: 'text' as const, text })),
              trickyText.map((text) => ({ type: 'reasoning' as const, text })),
            ),
            { minLength: 1, maxLength: 3 },
          )
          .map((content): ModelMessage => ({ role: 'assistant', content })),
      ),
      { maxLength: 8 },
    ),
    fc.nat(),
  )
  .map(([base, extra, at]) => {
    // Inserted where no tool call waits for its result.
    let position = 1 + (at % base.length);
    while (base[position]?.role === 'tool') position++;
    return [...base.slice(0, position), ...extra, ...base.slice(position)];
  });

describe('derived summariser request counts equal a full recount', () => {
  for (const [name, counter] of Object.entries(counters)) {
    it(`${name}: any chunk of any span, with or without a previous summary`, () => {
      fc.assert(
        fc.property(
          history,
          fc.option(trickyText, { nil: undefined }),
          fc.constantFrom('brief', 'concise', 'detailed' as const),
          fc.nat(),
          fc.nat(),
          (messages, previous, detail, from, length) => {
            const start = from % messages.length;
            const span = messages.slice(start, start + 1 + (length % 40));
            const redacted = redactForSummary(span, 1_500);
            const segments = redacted.map((message, offset) =>
              transcriptSegment(message, start + offset, detail, offset === 0),
            );
            const instructions = summaryInstructions({
              detail,
              preserveTopics: [],
              targetTokens: 500,
              hasPreviousSummary: previous !== undefined,
            });
            const countRequest = createRequestCounter(counter);
            const recount = (texts: string[]) =>
              counter.countMessages([
                { role: 'system', content: instructions },
                { role: 'user', content: delimitedPrompt(texts.join('\n'), previous) },
              ]);
            const texts = segments.map((segment) => segmentText(segment));
            // The prompt sent is the one counted.
            expect(joinPrompt(segments, previous)).toBe(
              delimitedPrompt(texts.join('\n'), previous),
            );
            expect(joinPrompt([], previous)).toBe(delimitedPrompt('', previous));
            expect(countRequest(instructions, segments, previous)).toBe(recount(texts));
            // Twice: the remembered per-segment counts give the same figure.
            expect(countRequest(instructions, segments, previous)).toBe(recount(texts));
            // A clipped segment (a plain string) mixed with remembered ones.
            const clipped = [`${texts[0]!.slice(0, 30)}…`, ...segments.slice(1)];
            expect(countRequest(instructions, clipped, previous)).toBe(
              recount([`${texts[0]!.slice(0, 30)}…`, ...texts.slice(1)]),
            );
          },
        ),
        { numRuns: name === 'o200k' || name === 'cl100k' ? 400 : 100, seed },
      );
    });
  }

  it('end to end: every request a summariser receives has inputTokens equal to its recount (chunked and split)', async () => {
    const counter = counters.o200k;
    let chunked = 0;
    await fc.assert(
      fc.asyncProperty(
        history,
        fc.integer({ min: 1_200, max: 6_000 }),
        async (messages, budget) => {
          const requests: SummarizerRequest[] = [];
          const compressor = new ContextCompressor({
            counter,
            summarizerInputBudget: budget,
            protectLastNTokens: 50,
            retryDelayMs: 0,
            summarizer: async (request) => {
              requests.push(request);
              return structuredSummary();
            },
          });
          const result = await compressor.compress(messages, { strategy: 'summarize' });
          for (const request of requests) {
            expect(request.inputTokens).toBe(
              counter.countMessages([
                { role: 'system', content: request.instructions },
                ...request.messages,
              ]),
            );
            expect(request.inputTokens).toBeLessThanOrEqual(budget);
          }
          if (result.strategy === 'summarize') expect(requests.length).toBeGreaterThan(0);
          if (requests.some((request) => request.chunkCount > 1)) chunked++;
        },
      ),
      { numRuns: 60, seed },
    );
    // The chunked path (several requests, each counted by the derivation) is exercised.
    expect(chunked).toBeGreaterThan(0);
  });
});

describe('a prompt joined from segments never serialised before', () => {
  // Such segments are serialised straight into the prompt's transcript and keep a slice of it as
  // their line; the frame (with a previous summary, Latin-1 or not) is put around it afterwards.
  it('holds each line once, and each segment keeps exactly its own line', () => {
    let sliced = 0;
    fc.assert(
      fc.property(
        history,
        fc.oneof(
          fc.constant(undefined),
          trickyText,
          fc.constant('## Goal\nRead — then fix [tool: bash]'),
        ),
        fc.constantFrom('brief', 'concise', 'detailed' as const),
        fc.nat(),
        (messages, previous, detail, from) => {
          const start = from % messages.length;
          // Fresh objects: no segment of them is remembered.
          const span = structuredClone(messages.slice(start, start + 30));
          const redacted = redactForSummary(span, 1_500);
          const segments = redacted.map((message, offset) =>
            transcriptSegment(message, start + offset, detail, offset === 1),
          );
          sliced += segments.filter((segment) => segment.line === undefined).length;
          const prompt = joinPrompt(segments, previous);
          const lines = redacted.map(
            (message, offset) =>
              serializeMessage(message, start + offset, detail, { latestRequest: offset === 1 })
                .line,
          );
          expect(segments.map((segment) => segmentLine(segment))).toEqual(lines);
          expect(prompt).toBe(
            delimitedPrompt(lines.map((line) => line.slice(0, -1)).join('\n'), previous),
          );
        },
      ),
      { numRuns: 150 },
    );
    // The slice path (a line first known from the joined prompt) is what this exercises.
    expect(sliced).toBeGreaterThan(0);
  });
});
