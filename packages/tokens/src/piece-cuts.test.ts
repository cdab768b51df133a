import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter } from './create-token-counter.js';
import { crossableBoundariesOf } from './crossable-boundaries.js';
import { loadBytePairEncoder } from './load-byte-pair-encoder.js';
import { cutProbe, sharedRanks } from './long-piece-counter.js';
import { tiktokenCount } from './test-utils/tiktoken-count.js';
import type { TiktokenEncoding } from './types.js';

// Pieces of up to 128 units holding a non-ASCII character are cut where no vocabulary token
// crosses a character boundary (`countPieceByCuts`), characters counted from a memo by code point
// (alone as a part, or whole as a one-character piece), and crossings of BMP characters ruled out
// by their side bits (`CrossableBoundaries.indexSides`). Every class below (random characters of
// large blocks and their mixtures, the issue 10 §1 probes) must count exactly as tiktoken.

const blocks: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0xd800], // any BMP character below the surrogates
  [0x3400, 0x4dc0], // CJK Extension A
  [0xac00, 0xd7a4], // Hangul syllables
  [0x2000, 0x2800], // punctuation, symbols, arrows, dingbats
  [0xff00, 0xfff0], // halfwidth and fullwidth forms
  [0x00a0, 0x0100], // Latin-1 Supplement
  [0x0400, 0x0500], // Cyrillic
  [0x0600, 0x0700], // Arabic (with format characters such as U+0600)
  [0x0e00, 0x0e80], // Thai
  [0x4e00, 0x9fff], // CJK
  [0x0300, 0x0370], // combining marks
  [0x10000, 0x30000], // supplementary planes
  [0xd800, 0xe000], // lone surrogates (U+FFFD in UTF-8)
];
// Separators between runs: none (runs of several blocks glued), spaces, ASCII, digits, line breaks.
const separators = ['', '', ' ', ' ', 'a', '1', '.', '\n', ' a'];

const runs = fc.array(
  fc.record({
    block: fc.noBias(fc.integer({ min: 0, max: blocks.length - 1 })),
    codes: fc.array(fc.noBias(fc.nat()), { minLength: 1, maxLength: 12 }),
    separator: fc.noBias(fc.integer({ min: 0, max: separators.length - 1 })),
  }),
  { minLength: 5, maxLength: 200 },
);

const textOf = (parts: Array<{ block: number; codes: number[]; separator: number }>) =>
  parts
    .map(({ block, codes, separator }) => {
      const [from, to] = blocks[block]!;
      return (
        codes.map((code) => String.fromCodePoint(from + (code % (to - from)))).join('') +
        separators[separator]
      );
    })
    .join('');

const counterOf = (encoding: TiktokenEncoding) =>
  createTokenCounter({ encoding, loadEncoder: loadBytePairEncoder });

describe('short pieces cut where no token crosses', () => {
  beforeAll(() => {
    // The crossable boundaries are built once 256 KB of cuttable non-ASCII pieces have been met;
    // built here up front, so that every text below takes the cuts.
    for (const encoding of ['o200k_base', 'cl100k_base'] as TiktokenEncoding[])
      crossableBoundariesOf(sharedRanks(encoding).arrays);
  }, 60_000);

  for (const encoding of ['o200k_base', 'cl100k_base'] as TiktokenEncoding[]) {
    it(`count random characters of many blocks exactly as tiktoken (${encoding}, property)`, () => {
      const counter = counterOf(encoding);
      const before = cutProbe().cuts;
      let characters = 0;
      fc.assert(
        fc.property(runs, (parts) => {
          const text = textOf(parts);
          characters += text.length;
          const expected = tiktokenCount(encoding, text);
          expect(counter.count(text)).toBe(expected);
          // A fresh counter (memos by code point are per rank table, shared) agrees too.
          expect(counterOf(encoding).count(text)).toBe(expected);
        }),
        { numRuns: 80 },
      );
      // Premise: the texts were cut, at a good share of their characters.
      expect(cutProbe().cuts - before).toBeGreaterThan(characters / 10);
    }, 120_000);
  }

  it('one-character and two-character pieces count as tiktoken, alone and after each other', () => {
    const counter = counterOf('o200k_base');
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            first: fc.noBias(fc.integer({ min: 0x80, max: 0x10ffff })),
            second: fc.noBias(fc.integer({ min: 0, max: 0x10ffff })),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        (pairs) => {
          for (const { first, second } of pairs) {
            // Surrogate code points stand alone (lone surrogates), the rest as characters.
            const one = String.fromCodePoint(first);
            const two = one + String.fromCodePoint(second);
            for (const piece of [one, two, one])
              expect(counter.count(piece)).toBe(tiktokenCount('o200k_base', piece));
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('control: pieces that are tokens (common CJK words) are not cut, and count 1', () => {
    const counter = counterOf('o200k_base');
    const words = ['中国', '数据库', '服务器', '我们', '这个', '的是', '一个', '可以', 'Москва'];
    for (const word of words) expect(tiktokenCount('o200k_base', word)).toBe(1);
    const before = cutProbe();
    for (const word of words) expect(counter.count(word)).toBe(1);
    const after = cutProbe();
    expect(after.cuts).toBe(before.cuts);
  });
});
