import { createRequire } from 'node:module';
import { corpusSkipReason } from '@baton/test-corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeUnits } from './code-unit-buffer.js';
import { createTokenCounter } from './index.js';
import { nextCl100kPieceEnd, nextO200kPieceEnd } from './next-ascii-piece-end.js';
import { asciiSplitPattern } from './split-pattern.js';
import { transcriptSamples } from './test-utils/corpus-texts.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');

const scanners = { o200k_base: nextO200kPieceEnd, cl100k_base: nextCl100kPieceEnd } as const;
type Encoding = keyof typeof scanners;

function scan(encoding: Encoding, text: string): string[] {
  const pieces: string[] = [];
  const units = codeUnits(text);
  for (let index = 0; index < text.length; ) {
    const end = scanners[encoding](units, index, text.length);
    expect(end).toBeGreaterThan(index);
    pieces.push(text.slice(index, end));
    index = end;
  }
  return pieces;
}

const pattern = (encoding: Encoding) => (text: string) =>
  text.match(asciiSplitPattern(encoding)) ?? [];

// Units the patterns treat specially: contraction letters in either case, every ASCII space and
// line break, `/` (o200k glues it after symbols), digits (runs of 1-3), symbols outside ASCII that
// the ASCII-class pattern sees as "neither letter, number nor space", and control characters.
const units = [
  "'",
  "'s",
  "'S",
  "'t",
  "'re",
  "'RE",
  "'Ve",
  "'m",
  "'ll",
  "'LL",
  "'d",
  "'x",
  "'l",
  's',
  't',
  'r',
  'e',
  'v',
  'm',
  'l',
  'd',
  'S',
  'T',
  'R',
  'E',
  'a',
  'Z',
  'Hello',
  'HTTP',
  'Server',
  'camelCase',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\v',
  '\f',
  '\n\n',
  ' \n',
  '\t\n ',
  '/',
  '//',
  '.',
  ',',
  '(',
  ')',
  '{',
  '}',
  '"',
  '-',
  '_',
  '=',
  '#',
  '\\',
  '\x00',
  '\x1b',
  '\x7f',
  '0',
  '1',
  '12',
  '123',
  '1234',
  '→',
  '─',
  '“',
  '”',
  '…',
  '€',
];
const asciiText = fc
  .array(fc.constantFrom(...units), { maxLength: 60 })
  .map((parts) => parts.join(''));

describe('the ASCII-class scanners', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`split exactly as the ${encoding} pattern (property, edge units)`, () => {
      const split = pattern(encoding);
      fc.assert(
        fc.property(asciiText, (text) => {
          expect(scan(encoding, text)).toEqual(split(text));
        }),
        { numRuns: 5_000 },
      );
    });

    it(`split exactly as the ${encoding} pattern (property, any printable ASCII and controls)`, () => {
      const split = pattern(encoding);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: 127 }), { maxLength: 200 }), (codes) => {
          const text = String.fromCharCode(...codes);
          expect(scan(encoding, text)).toEqual(split(text));
        }),
        { numRuns: 3_000 },
      );
    });
  }

  const skip = corpusSkipReason;
  it.skipIf(skip !== undefined)(
    `split every ASCII-class line of the transcripts as the patterns do${skip ? ` (${skip})` : ''}`,
    () => {
      let lines = 0;
      for (const { text } of transcriptSamples()) {
        for (const line of text.split(/(?<=\n)/)) {
          // The counter sends only lines without non-ASCII letters, numbers, marks or spaces here.
          if (/[\p{L}\p{N}\p{M}\p{White_Space}]/u.test(line.replace(/[\x00-\x7f]/g, ''))) continue;
          if (/[\u{10000}-\u{10FFFF}]|\p{Cs}/u.test(line)) continue;
          lines++;
          for (const encoding of ['o200k_base', 'cl100k_base'] as const)
            expect(scan(encoding, line)).toEqual(pattern(encoding)(line));
        }
      }
      expect(lines).toBeGreaterThan(1_000);
    },
    // Every line of the corpus, which grows; 12-24 s today, and CI runs packages side by side.
    180_000,
  );
});

describe('exact counts through the scanner', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`equal the raw ${encoding} encoder on generated ASCII-class text (property)`, () => {
      const wasm = tiktoken.get_encoding(encoding);
      const counter = createTokenCounter({ encoding });
      fc.assert(
        fc.property(asciiText, (text) => {
          expect(counter.count(text)).toBe(wasm.encode_ordinary(text).length);
        }),
        { numRuns: 2_000 },
      );
      wasm.free();
    });
  }
});
