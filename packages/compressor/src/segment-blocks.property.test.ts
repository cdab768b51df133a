import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactForSummary } from './redact-for-summary.js';
import { serializeMessage } from './summary-prompt.js';
import { historyArbitrary } from './test-utils/history-arbitrary.js';
import {
  addStems,
  framePrompt,
  joinPrompt,
  knownSegment,
  SegmentBlocks,
  segmentLine,
  type TranscriptSegment,
  transcriptSegment,
} from './transcript-segments.js';
import { WordStemScanner, wordStemsOf } from './verify-summary.js';

/** Long outputs and texts, so a span fills several blocks and chunks cross from one to the next. */
const bulk = fc
  .tuple(
    fc.constantFrom('word ', 'src/a.ts ', 'Привет ', '日本語', 'x', '</message> ', '\n'),
    fc.integer({ min: 1, max: 40_000 }),
  )
  .map(([unit, copies]) => unit.repeat(copies));

const span: fc.Arbitrary<ModelMessage[]> = fc
  .tuple(historyArbitrary, fc.array(fc.tuple(fc.nat(), bulk), { maxLength: 12 }))
  .map(([base, extra]) => {
    const messages = [...base];
    for (const [at, text] of extra) {
      // Inserted where no tool call waits for its result.
      let position = at % (messages.length + 1);
      while (messages[position]?.role === 'tool') position++;
      messages.splice(position, 0, { role: 'user', content: text });
    }
    return messages;
  });

let chunksAcrossBlocks = 0;
let chunksWithRemembered = 0;

describe('SegmentBlocks', () => {
  it('gives every new segment its serialised line, the same words, and chunk transcripts equal to joinPrompt', () => {
    fc.assert(
      fc.property(
        span,
        fc.constantFrom('brief', 'concise', 'detailed' as const),
        fc.array(fc.boolean(), { maxLength: 400 }),
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (messages, detail, rememberedFlags, sizes, cuts, previous, offset) => {
          const redacted = redactForSummary(messages, 1_500);
          // Fresh copies: nothing of this run is remembered unless the run remembers it here.
          const copies = redacted.map((message) => structuredClone(message));
          const index = (position: number) => offset + position;
          const latest = (position: number) => position === copies.length - 1;
          for (let position = 0; position < copies.length; position++) {
            if (rememberedFlags[position] === true) {
              transcriptSegment(copies[position]!, index(position), detail, latest(position));
            }
          }
          const segments = new Array<TranscriptSegment>(copies.length);
          const stems = new WordStemScanner();
          const blocks = new SegmentBlocks(segments, stems);
          for (let position = 0; position < copies.length; position++) {
            const message = copies[position]!;
            const known = knownSegment(message, index(position), detail, latest(position));
            if (known !== undefined) {
              addStems(known, stems);
              segments[position] = known;
            } else {
              blocks.write(position, message, index(position), detail, latest(position));
            }
          }
          blocks.finish();
          const expected = copies.map((message, position) =>
            serializeMessage(message, index(position), detail, {
              latestRequest: latest(position),
            }),
          );
          for (let position = 0; position < copies.length; position++) {
            const segment = segments[position]!;
            // A new segment has its line at once (a slice of its block); a remembered one may
            // still be serialised when asked.
            if (rememberedFlags[position] !== true) {
              expect(segment.line).toBe(expected[position]!.line);
            }
            expect(segmentLine(segment)).toBe(expected[position]!.line);
            expect(segment.clipped).toBe(expected[position]!.clipped);
            // Remembered by identity, as `transcriptSegment` remembers.
            expect(knownSegment(copies[position]!, index(position), detail, latest(position))).toBe(
              segment,
            );
            expect(blocks.blockOf(position) >= 0).toBe(rememberedFlags[position] !== true);
          }
          expect([...stems.stems].sort()).toEqual(
            [...wordStemsOf(expected.map((item) => item.line))].sort(),
          );
          // Chunks in order, some entries cut to plain strings as packing does.
          let first = 0;
          for (let chunk = 0; first < copies.length; chunk++) {
            const size = sizes[chunk % sizes.length]!;
            const entries: Array<string | TranscriptSegment> = segments.slice(first, first + size);
            for (const cut of cuts) {
              if (cut % 7 === chunk % 7) entries[cut % entries.length] = 'cut text\n';
            }
            const transcript = blocks.transcript(entries, first);
            const allNew = entries.every(
              (entry, at) => typeof entry !== 'string' && blocks.blockOf(first + at) >= 0,
            );
            expect(transcript !== undefined).toBe(allNew);
            if (transcript !== undefined) {
              expect(framePrompt(transcript, previous)).toBe(joinPrompt(entries, previous));
              if (blocks.blockOf(first) !== blocks.blockOf(first + entries.length - 1)) {
                chunksAcrossBlocks++;
              }
            } else if (entries.some((entry) => typeof entry !== 'string')) {
              chunksWithRemembered++;
            }
            // Positions that are not these segments' are never sliced.
            expect(blocks.transcript(entries, first + 1)).toBeUndefined();
            first += entries.length;
          }
        },
      ),
      { numRuns: 60 },
    );
    // The premises: chunks whose lines lie in two or more blocks, and chunks that fall back.
    expect(chunksAcrossBlocks).toBeGreaterThan(0);
    expect(chunksWithRemembered).toBeGreaterThan(0);
  });

  it('a message that cannot be serialised leaves the block usable for the next ones', () => {
    const throwing: ModelMessage = {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'call-1',
          toolName: 'read',
          input: {
            toJSON() {
              throw new Error('no JSON');
            },
          },
        },
      ],
    };
    const fine: ModelMessage[] = [
      { role: 'user', content: 'first ask' },
      { role: 'user', content: 'second ask' },
    ];
    const segments = new Array<TranscriptSegment>(3);
    const blocks = new SegmentBlocks(segments, undefined);
    blocks.write(0, fine[0]!, 0, 'concise', false);
    expect(() => blocks.write(1, throwing, 1, 'concise', false)).toThrow('no JSON');
    blocks.write(2, fine[1]!, 2, 'concise', false);
    blocks.finish();
    // The segment written before the failure has no line yet (serialised again when asked for);
    // the one after it is sliced as usual.
    expect(segments[0]!.line).toBeUndefined();
    expect(segments[2]!.line).toBe(serializeMessage(fine[1]!, 2, 'concise').line);
    expect(blocks.transcript([segments[2]!], 2)).toBe(segments[2]!.line);
    expect(blocks.transcript([segments[0]!], 0)).toBeUndefined();
  });
});
