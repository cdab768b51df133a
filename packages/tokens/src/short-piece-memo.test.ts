import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './create-token-counter.js';
import { loadBytePairEncoder } from './load-byte-pair-encoder.js';
import { splitPattern } from './split-pattern.js';
import { tiktokenCount } from './test-utils/tiktoken-count.js';
import type { TiktokenEncoding } from './types.js';

// Short pieces holding a non-ASCII unit skip the counter's string-keyed memo and are memoised by
// their UTF-8 bytes (`countMemoisedShortPiece`): a whole-token piece must count 1 there, a piece
// that is not a token its merge, and a lone surrogate its U+FFFD bytes, exactly as tiktoken.

const alphabets = [
  'АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЫЭЮЯабвгдеёжз',
  'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩάέήί',
  'ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوي',
  'ابجدหกขคงจฉชซญดตถทนบปผพฟมยรลวสหอ่้ั',
  'अआइईउऊएऐओऔकखगघचछजझटठडढणतथदधन',
  '中文字词语言计算机程序设计数据库网络服务器',
  'アイウエオカキクケコさしすせそたちつてと',
  'ㄱㄴ한국어대한민국서울부산',
  'ქართულიაბგდევზთიკლმნოპ',
  'ñéüößçàèìòùâêîôûĳœæøåłżźćń',
].map((letters) => [...letters]);
const separators = [' ', '', '.', ',', '-', '/', '\n', '1', '42', '😀', '\u200d', '\t'];

/** One unit of a text of short pieces: a class picked by `kind`, its characters by `codes`. */
function unitOf(kind: number, codes: number[]): string {
  const at = (i: number, n: number) => codes[i % codes.length]! % n;
  switch (kind) {
    case 0: // lone surrogates, high or low
      return String.fromCharCode(0xd800 + at(0, 0x800));
    case 1: // any BMP character below the surrogates
      return String.fromCharCode(at(0, 0xd800));
    case 2: // characters outside the BMP
      return String.fromCodePoint(0x10000 + at(0, 0xf0000));
    case 3: // a letter and combining marks
      return `${alphabets[at(0, 3)]![at(1, 20)]}${String.fromCharCode(0x300 + at(2, 0x70))}`;
    case 4: // private use
      return String.fromCharCode(0xe000 + at(0, 0x1900));
    default: {
      // one to four letters of one alphabet: common short words among them are single tokens
      const letters = alphabets[at(0, alphabets.length)]!;
      let word = '';
      for (let i = 1; i <= 1 + at(1, 4); i++) word += letters[at(i + 1, letters.length)];
      return word;
    }
  }
}

const units = fc.array(
  fc.record({
    kind: fc.noBias(fc.integer({ min: 0, max: 7 })),
    codes: fc.array(fc.noBias(fc.nat()), { minLength: 6, maxLength: 6 }),
    separator: fc.noBias(fc.integer({ min: 0, max: separators.length - 1 })),
  }),
  { minLength: 20, maxLength: 400 },
);

const textOf = (parts: Array<{ kind: number; codes: number[]; separator: number }>) =>
  parts.map(({ kind, codes, separator }) => unitOf(kind, codes) + separators[separator]).join('');

const isAscii = (piece: string) => [...piece].every((c) => c.charCodeAt(0) < 128);

describe('short non-ASCII pieces memoised by their bytes', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as TiktokenEncoding[]) {
    it(`count exactly as tiktoken, first time and again (${encoding}, property)`, () => {
      const pattern = splitPattern(encoding);
      // One counter across runs: later runs meet pieces an earlier run memoised.
      const counter = createTokenCounter({ encoding, loadEncoder: loadBytePairEncoder });
      fc.assert(
        fc.property(units, (parts) => {
          const text = textOf(parts);
          const pieces = text.match(pattern) ?? [];
          // Premise: the text has pieces the byte memo takes (up to 5 units, not all ASCII).
          fc.pre(pieces.some((piece) => piece.length <= 5 && !isAscii(piece)));
          const expected = tiktokenCount(encoding, text);
          expect(counter.count(text)).toBe(expected);
          // A fresh counter (the memos are per rank table, shared) and a repeat agree too.
          const fresh = createTokenCounter({ encoding, loadEncoder: loadBytePairEncoder });
          expect(fresh.count(text)).toBe(expected);
          expect(fresh.count(`${text}`)).toBe(expected);
          // Each piece alone as well: the memo keys a piece by its bytes, whole or merged.
          for (const piece of pieces.slice(0, 40))
            expect(fresh.count(piece)).toBe(tiktokenCount(encoding, piece));
        }),
        { numRuns: 60 },
      );
    });
  }

  it('control: ASCII pieces of the same shapes (the string-keyed memo) count exactly too', () => {
    const counter = createTokenCounter({
      encoding: 'o200k_base',
      loadEncoder: loadBytePairEncoder,
    });
    fc.assert(
      fc.property(units, (parts) => {
        const text = textOf(parts.map((part) => ({ ...part, kind: 5 })))
          .normalize('NFD')
          .replace(/[^\x00-\x7f]/g, (c) => String.fromCharCode(97 + (c.charCodeAt(0) % 26)));
        fc.pre(text.length > 0 && isAscii(text));
        expect(counter.count(text)).toBe(tiktokenCount('o200k_base', text));
      }),
      { numRuns: 30 },
    );
  });
});
