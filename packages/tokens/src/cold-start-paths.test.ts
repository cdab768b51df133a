// The paths a cold start takes differently from a warm process: the once-per-process warm-up of
// the default encoder's counter, the Unicode pattern built on the first text that needs it, and the
// fast path's stretches of a mixed text counted in one call. Each must count exactly as tiktoken.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Encoder } from './load-encoder.js';
import type { TiktokenEncoding } from './types.js';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const encodings = ['o200k_base', 'cl100k_base'] as const satisfies TiktokenEncoding[];
const wasm = Object.fromEntries(encodings.map((e) => [e, tiktoken.get_encoding(e)]));
const exact = (encoding: TiktokenEncoding, text: string) =>
  wasm[encoding]!.encode_ordinary(text).length;

/** The counter modules as a fresh process has them: nothing warmed up, no pattern built. */
async function freshModules() {
  vi.resetModules();
  const counter = await import('./create-piece-counter.js');
  const encoder = await import('./load-byte-pair-encoder.js');
  return { ...counter, ...encoder };
}

// Lines the fast path counts (ASCII, symbols above 127 that are neither letter, number nor space)
// and lines that need the Unicode pattern (a non-ASCII letter, number, mark or space, an astral
// character), in any order: a mixed text alternates stretches of both.
const asciiLine = fc.string({
  unit: fc.constantFrom(...' \tabcXYZ019\'.,;:-_/()"→—“”…'),
  maxLength: 40,
});
const unicodeLine = fc
  .tuple(asciiLine, fc.constantFrom('é', 'Δ', 'ж', '中', '٣', '\u0301', '\u00a0', '🎯', '️', '𝐀'))
  .map(([line, character]) => `${line.slice(0, 20)}${character}${line.slice(20)}`);
const lineBreak = fc.constantFrom('\n', '\r\n', '\n\n', ' \n');
const mixedText = fc.noBias(
  fc
    .array(fc.tuple(fc.oneof(asciiLine, unicodeLine), lineBreak), { minLength: 1, maxLength: 120 })
    .map((lines) => lines.map(([line, end]) => line + end).join('')),
);

describe('cold-start paths of the piece counter', () => {
  for (const encoding of encodings) {
    it(`counts the warm-up text as tiktoken does (it runs every branch once), ${encoding}`, async () => {
      // Premise: the warm-up swallows errors (it is only a head start), so a text it could not
      // count would go unnoticed there; counted here, any error or wrong count shows.
      const { createPieceCounter, loadBytePairEncoder, warmUpText } = await freshModules();
      const counter = createPieceCounter(loadBytePairEncoder(encoding), encoding);
      expect(counter.count(warmUpText)).toBe(exact(encoding, warmUpText));
    });

    it(`counts exactly on the first counter of a process, after the warm-up, ${encoding} (property)`, async () => {
      // The first counter of a fresh module set is the one created right after the warm-up (which
      // shares its encoder); a later counter has none. Control: both agree with tiktoken on
      // ordinary ASCII text too.
      const { createPieceCounter, loadBytePairEncoder } = await freshModules();
      const encoder = loadBytePairEncoder(encoding);
      const first = createPieceCounter(encoder, encoding);
      fc.assert(
        fc.property(fc.oneof(mixedText, asciiLine), (text) => {
          const expected = exact(encoding, text);
          expect(first.count(text)).toBe(expected);
          expect(createPieceCounter(encoder, encoding).count(text)).toBe(expected);
        }),
        { numRuns: 150 },
      );
    });

    it(`never hands the warm-up text to a caller's encoder, ${encoding}`, async () => {
      // Premise: only the default encoder is warmed up; a caller's encoder sees the pieces of the
      // texts the caller counts and nothing else, also as the first counter of a process.
      const { createPieceCounter } = await freshModules();
      const seen: string[] = [];
      const recording: Encoder = {
        encode_ordinary: (text) => wasm[encoding]!.encode_ordinary(text),
        countOrdinary: (piece) => {
          seen.push(piece);
          return wasm[encoding]!.encode_ordinary(piece).length;
        },
      };
      const counter = createPieceCounter(recording, encoding);
      expect(counter.count('Hello, world')).toBe(exact(encoding, 'Hello, world'));
      // One-character ASCII pieces are one token without asking the encoder.
      expect(seen).toEqual(['Hello', ' world']);
    });

    it(`builds the Unicode pattern on the first text that needs it, after ASCII-only ones, ${encoding} (property)`, async () => {
      // A fresh counter that has counted only ASCII text has no Unicode pattern yet; the first
      // mixed text builds it. Control: the ASCII texts before it count exactly as well.
      await freshModules();
      await fc.assert(
        fc.asyncProperty(
          fc.array(asciiLine, { maxLength: 4 }),
          mixedText,
          async (asciiTexts, mixed) => {
            const { createPieceCounter, loadBytePairEncoder } = await freshModules();
            const counter = createPieceCounter(loadBytePairEncoder(encoding), encoding);
            for (const text of asciiTexts) expect(counter.count(text)).toBe(exact(encoding, text));
            expect(counter.count(mixed)).toBe(exact(encoding, mixed));
            // The default encoder's own split, also built on first use.
            const encoder = loadBytePairEncoder(encoding);
            expect(Array.from(encoder.encode_ordinary(mixed))).toEqual(
              Array.from(wasm[encoding]!.encode_ordinary(mixed)),
            );
          },
        ),
        { numRuns: 12 },
      );
    });

    it(`counts every fast-path stretch of a text with thousands of them in one call, ${encoding}`, async () => {
      // More stretches than the range list starts with (it grows) and than it keeps (it is dropped
      // after the text); the same counter then counts a text of a few stretches. Control: the same
      // lines without their Unicode characters, one stretch.
      const { createPieceCounter, loadBytePairEncoder } = await freshModules();
      const counter = createPieceCounter(loadBytePairEncoder(encoding), encoding);
      const lines = fc.sample(fc.tuple(asciiLine, unicodeLine), { numRuns: 5_000 });
      const many = lines.map(([ascii, unicode]) => `${ascii}\n${unicode}\n`).join('');
      expect(counter.count(many)).toBe(exact(encoding, many));
      const few = lines
        .slice(0, 3)
        .map(([ascii, unicode]) => `${ascii}\n${unicode}\n`)
        .join('');
      expect(counter.count(few)).toBe(exact(encoding, few));
      const control = many.replace(/[^\x00-\x7f→—“”…]/gu, 'x');
      expect(counter.count(control)).toBe(exact(encoding, control));
    });
  }
});
