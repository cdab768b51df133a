import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPieceCounter } from './create-piece-counter.js';
import { loadBytePairEncoder } from './load-byte-pair-encoder.js';
import type { TiktokenEncoding } from './types.js';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');

const units = (alphabet: string) => fc.constantFrom(...alphabet);
// Each class the counter takes a different path for: packed ASCII words (up to 8 characters),
// longer ASCII pieces, symbols above 127 in the ASCII scan, Latin-1 and CJK (the Unicode pattern),
// astral emoji, and long runs without spaces (the heap merge).
const classes = {
  ascii: fc.string({ unit: units(' \n\tabcxyzABCXYZ019\'.,;:-_/()[]{}"`$#@!?'), maxLength: 120 }),
  words: fc
    .array(fc.stringMatching(/^[A-Za-z]{1,12}$/), { maxLength: 30 })
    .map((words) => words.join(' ')),
  binary: fc.string({ unit: 'binary-ascii', maxLength: 120 }),
  latin1: fc.string({ unit: units(' abcéèêàçñöüßÆøÅ¿¡«»°±×÷'), maxLength: 80 }),
  cjk: fc.string({
    unit: units(' 的一是不了人我在有他这中大来上个国到说们为子和你。、'),
    maxLength: 80,
  }),
  emoji: fc.string({ unit: units(' a😀🎉👍🏽🚀👨‍👩‍👧❤️\uFE0F'), maxLength: 40 }),
  symbols: fc.string({ unit: units(' ─│┌┐└┘├┤→←…–—“”‘’•€™'), maxLength: 80 }),
  grapheme: fc.string({ unit: 'grapheme', maxLength: 60 }),
  runs: fc
    .tuple(
      fc.constantFrom('a', 'ab', 'xyz', '字', '─', '0', '=', 'Aa'),
      fc.integer({ min: 1, max: 400 }),
    )
    .map(([unit, times]) => unit.repeat(times)),
};
const text = fc.noBias(fc.oneof(...Object.values(classes)));

// Every code point JavaScript calls a letter, number or mark (the classes the split patterns read),
// drawn uniformly: scripts and ideographs of the newest Unicode versions are drawn as often as
// their share, where a grapheme arbitrary rarely reaches them.
const propertyCharacters: number[] = [];
for (let code = 0x80; code <= 0x10ffff; code++)
  if (/[\p{L}\p{N}\p{M}]/u.test(String.fromCodePoint(code))) propertyCharacters.push(code);
const propertyCharacter = fc
  .nat({ max: propertyCharacters.length - 1 })
  .map((index) => String.fromCodePoint(propertyCharacters[index]!));
const mixed = fc.noBias(
  fc.array(text, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')),
);

describe('createPieceCounter (the default JavaScript encoder)', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const satisfies TiktokenEncoding[]) {
    const wasm = tiktoken.get_encoding(encoding);
    const exact = (value: string) => wasm.encode_ordinary(value).length;

    it(`counts like tiktoken on every class of text, fresh and memoised, ${encoding} (property)`, () => {
      // One counter for the whole run (its memos fill up and are hit), and a fresh one per text
      // (every piece merged from its bytes).
      const shared = createPieceCounter(loadBytePairEncoder(encoding), encoding);
      fc.assert(
        fc.property(mixed, (value) => {
          const expected = exact(value);
          expect(shared.count(value)).toBe(expected);
          const fresh = createPieceCounter(loadBytePairEncoder(encoding), encoding);
          expect(fresh.count(value)).toBe(expected);
          // A piece seen before, now inside other text: the memo keyed by the piece itself.
          expect(shared.count(`${value} ${value}`)).toBe(exact(`${value} ${value}`));
        }),
        { numRuns: Number(process.env.BYTE_PAIR_RUNS ?? 600) },
      );
    });

    it(`stays exact through memo growth and generations: 150,000 distinct short pieces, ${encoding}`, () => {
      // Pieces of 1 to 12 printable ASCII characters (packed up to 8, range-keyed above), a space
      // before every third: more than two generations of both memos, then a sample seen again.
      const counter = createPieceCounter(loadBytePairEncoder(encoding), encoding);
      let state = fc.sample(fc.integer({ min: 1 }), 1)[0]!;
      const next = () => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return state >>> 8;
      };
      const pieces: string[] = [];
      for (let i = 0; i < 150_000; i++) {
        let piece = i % 3 === 0 ? ' ' : '';
        const length = 1 + (next() % 12);
        for (let k = 0; k < length; k++) piece += String.fromCharCode(33 + (next() % 94));
        pieces.push(piece);
      }
      let wrong = 0;
      for (const piece of pieces) if (counter.count(piece) !== exact(piece)) wrong++;
      for (let i = 0; i < pieces.length; i += 97)
        if (counter.count(pieces[i]!) !== exact(pieces[i]!)) wrong++;
      expect(wrong).toBe(0);
    });

    it(`classifies any BMP code unit among ASCII text as the pattern does, first and cached, ${encoding} (property)`, () => {
      // Whether a code unit above 127 needs the Unicode pattern is decided once per process and
      // then read from a table: a text counts the same the first time its units are seen and
      // after. Any unit, surrogates (paired or lone) included, next to words, spaces, digits,
      // apostrophes and line breaks, whose pieces it could join or split.
      const counter = createPieceCounter(loadBytePairEncoder(encoding), encoding);
      const unit = fc.integer({ min: 0x80, max: 0xffff }).map((code) => String.fromCharCode(code));
      const context = fc.constantFrom(
        ' ',
        'ab',
        'Ab',
        'Z',
        '12',
        "'s",
        '\n',
        '\r\n',
        '.',
        '/',
        '  ',
      );
      fc.assert(
        fc.property(
          fc.noBias(fc.array(fc.oneof(unit, context), { minLength: 1, maxLength: 12 })),
          (parts) => {
            const value = parts.join('');
            const expected = exact(value);
            expect(counter.count(value)).toBe(expected);
            expect(counter.count(value)).toBe(expected);
            const fresh = createPieceCounter(loadBytePairEncoder(encoding), encoding);
            expect(fresh.count(value)).toBe(expected);
          },
        ),
        { numRuns: Number(process.env.BYTE_PAIR_RUNS ?? 600) },
      );
    });

    it(`splits every letter, number and mark as tiktoken's Unicode tables do, ${encoding} (property)`, () => {
      // JavaScript's tables may be newer than tiktoken's: a character assigned since is not a
      // letter to tiktoken, and must not be one to the split.
      const counter = createPieceCounter(loadBytePairEncoder(encoding), encoding);
      const context = fc.constantFrom('/', ' ', 'a', 'A', '9', "'s", '\n', '.');
      fc.assert(
        fc.property(
          fc.noBias(fc.array(fc.oneof(propertyCharacter, context), { minLength: 1, maxLength: 8 })),
          (parts) => {
            const value = parts.join('');
            expect(counter.count(value)).toBe(exact(value));
          },
        ),
        { numRuns: Number(process.env.BYTE_PAIR_RUNS ?? 600) * 4 },
      );
    });
  }
});
