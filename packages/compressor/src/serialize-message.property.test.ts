import type { ModelMessage } from '@ai-sdk/provider-utils';
import { toolOutputText } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SummaryDetail } from './context-compressor-options.js';
import { clipMiddle, hasElisionMarker } from './peer-api.js';
import { serializeMessage, toolOutputChars } from './summary-prompt.js';
import { segmentLine, segmentText, transcriptSegment } from './transcript-segments.js';

// The serialiser as it was before it stopped making two closures per message (a reference: the
// transcript the summariser reads must not change by a character).
function escapeData(text: string): string {
  if (!text.includes('</')) return text;
  return text.replace(/<\/(transcript|previous-summary|message)/gi, '<\\/$1');
}

function referenceSerialize(
  message: ModelMessage,
  index: number,
  detail: SummaryDetail,
  options: { latestRequest?: boolean } = {},
): { text: string; line: string; clipped: boolean } {
  const limit = toolOutputChars[detail];
  let clipped = false;
  const clipField = (text: string) => {
    if (text.length <= limit) return text;
    clipped = true;
    return clipMiddle(text, limit);
  };
  const pieces = [
    `<message index="${index}" role="${message.role}"${options.latestRequest ? ' latest-request="true"' : ''}>\n`,
  ];
  const data = (text: string) => {
    if (!clipped && hasElisionMarker(text)) clipped = true;
    pieces.push(escapeData(text));
  };
  if (typeof message.content === 'string') {
    data(message.content);
  } else {
    const parts = message.content;
    for (let position = 0; position < parts.length; position++) {
      const part = parts[position]!;
      if (position > 0) pieces.push('\n');
      switch (part.type) {
        case 'text':
          data(part.text);
          break;
        case 'reasoning':
          pieces.push('(reasoning) ');
          data(clipField(part.text));
          break;
        case 'tool-call':
          pieces.push('[tool call ');
          data(part.toolCallId);
          pieces.push(': ');
          data(part.toolName);
          pieces.push(' ');
          data(clipField(JSON.stringify(part.input) ?? ''));
          pieces.push(']');
          break;
        case 'tool-result':
          pieces.push('[tool result ');
          data(part.toolCallId);
          pieces.push(': ');
          data(part.toolName);
          pieces.push(' (');
          data(part.output.type);
          pieces.push(')]\n');
          data(clipField(toolOutputText(part.output)));
          break;
        default:
          pieces.push('[');
          data(part.type);
          pieces.push(']');
      }
    }
  }
  pieces.push('\n</message>\n');
  const line = pieces.join('');
  return { text: line.slice(0, -1), line, clipped };
}

// Short text, text long enough to be clipped at every detail, text holding an elision mark (as a
// redaction window leaves), and text holding the tags the transcript escapes.
const word = fc.constantFrom(
  'fix',
  'src/a.ts',
  '</message>',
  '</TRANSCRIPT',
  'é',
  '\n',
  'ok',
  '42',
);
const shortText = fc.array(word, { maxLength: 8 }).map((words) => words.join(' '));
const text = fc.oneof(
  shortText,
  fc
    .tuple(shortText, fc.integer({ min: 1_000, max: 9_000 }))
    .map(([start, length]) => `${start}${'x'.repeat(length)}${start}`),
  fc
    .tuple(shortText, fc.integer({ min: 20, max: 200 }))
    .map(([start, length]) => clipMiddle(`${start}${'y '.repeat(length)}`, 10)),
);
const output = fc.oneof(
  text.map((value) => ({ type: 'text' as const, value })),
  text.map((value) => ({ type: 'error-text' as const, value })),
  fc
    .dictionary(fc.constantFrom('path', 'body', 'n'), text, { maxKeys: 3 })
    .map((value) => ({ type: 'json' as const, value })),
);
const part = fc.oneof(
  text.map((value) => ({ type: 'text' as const, text: value })),
  text.map((value) => ({ type: 'reasoning' as const, text: value })),
  fc.record({
    type: fc.constant('tool-call' as const),
    toolCallId: shortText,
    toolName: shortText,
    input: fc.dictionary(fc.constantFrom('path', 'command', 'content'), text, { maxKeys: 3 }),
  }),
  fc.record({
    type: fc.constant('tool-result' as const),
    toolCallId: shortText,
    toolName: shortText,
    output,
  }),
  fc.record({
    type: fc.constant('file' as const),
    data: fc.constant('aGVsbG8='),
    mediaType: fc.constant('text/plain'),
  }),
);
const message: fc.Arbitrary<ModelMessage> = fc.oneof(
  fc.record({
    role: fc.constantFrom('user', 'system'),
    content: text,
  }) as fc.Arbitrary<ModelMessage>,
  fc.record({
    role: fc.constantFrom('assistant', 'tool', 'user'),
    content: fc.array(part, { minLength: 1, maxLength: 4 }),
  }) as fc.Arbitrary<ModelMessage>,
);
const detail = fc.constantFrom<SummaryDetail>('brief', 'concise', 'detailed');

describe('serializeMessage', () => {
  it('writes the same transcript line and clipped flag as the closure-based serialiser', () => {
    fc.assert(
      fc.property(
        message,
        fc.nat({ max: 100_000 }),
        detail,
        fc.boolean(),
        (item, index, level, latestRequest) => {
          expect(serializeMessage(item, index, level, { latestRequest })).toEqual(
            referenceSerialize(item, index, level, { latestRequest }),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('memoised segments hold the same line, and a repeat returns the same segment', () => {
    fc.assert(
      fc.property(message, fc.nat({ max: 1_000 }), detail, (item, index, level) => {
        const segment = transcriptSegment(item, index, level, false);
        const reference = referenceSerialize(item, index, level);
        expect({
          text: segmentText(segment),
          line: segmentLine(segment),
          clipped: segment.clipped,
        }).toEqual(reference);
        expect(transcriptSegment(item, index, level, false)).toBe(segment);
        // Another index is another segment, and the first is still remembered beside it.
        const other = transcriptSegment(item, index + 1, level, false);
        expect(other).not.toBe(segment);
        expect(transcriptSegment(item, index, level, false)).toBe(segment);
      }),
      { numRuns: 200 },
    );
  });

  it('a message serialised at many places: each segment right, the last four remembered', () => {
    const place = fc.record({ index: fc.nat({ max: 20 }), level: detail, latest: fc.boolean() });
    fc.assert(
      fc.property(message, fc.array(place, { minLength: 1, maxLength: 10 }), (item, places) => {
        const seen: Array<{ key: string; segment: unknown }> = [];
        for (const { index, level, latest } of places) {
          const segment = transcriptSegment(item, index, level, latest);
          expect({
            text: segmentText(segment),
            line: segmentLine(segment),
            clipped: segment.clipped,
          }).toEqual(referenceSerialize(item, index, level, { latestRequest: latest }));
          const key = `${index} ${level} ${latest}`;
          const earlier = seen.findIndex((entry) => entry.key === key);
          // Among the last four distinct places: the very segment made there.
          if (earlier >= 0 && earlier >= seen.length - 4) {
            expect(segment).toBe(seen[earlier]!.segment);
          }
          if (earlier < 0) seen.push({ key, segment });
          else if (seen[earlier]!.segment !== segment) {
            seen.splice(earlier, 1);
            seen.push({ key, segment });
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a tool input that serialises a message while it is serialised (toJSON) breaks neither', () => {
    fc.assert(
      fc.property(
        message,
        message,
        fc.nat({ max: 1_000 }),
        detail,
        (inner, outer, index, level) => {
          let nested: unknown;
          const input = {
            toJSON: () => {
              nested = serializeMessage(inner, index, level);
              return { path: 'src/a.ts' };
            },
          };
          const item = {
            role: 'assistant',
            content: [
              ...(Array.isArray(outer.content)
                ? outer.content
                : [{ type: 'text', text: outer.content }]),
              { type: 'tool-call', toolCallId: 'c', toolName: 'read', input },
            ],
          } as ModelMessage;
          const actual = serializeMessage(item, index, level);
          expect(nested).toEqual(referenceSerialize(inner, index, level));
          expect(actual).toEqual(referenceSerialize(item, index, level));
          // And the next call, with the shared list back in place, is right too.
          expect(serializeMessage(outer, index, level)).toEqual(
            referenceSerialize(outer, index, level),
          );
        },
      ),
      { numRuns: 100 },
    );
  });
});
