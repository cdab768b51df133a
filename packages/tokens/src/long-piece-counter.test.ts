import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './index.js';
import {
  countBytePairTokens,
  countSegmentedBytePairTokens,
  rankTableOf,
  sharedRanks,
  sweepProbe,
  withPairMemo,
} from './long-piece-counter.js';
import { splitPattern } from './split-pattern.js';
import { publishedRanks } from './test-utils/published-ranks.js';
import { TokenizerError } from './tokenizer-error.js';
import type { TiktokenEncoding } from './types.js';

// The segmented merge must give exactly the single-heap merge (itself checked against tiktoken's
// WASM in long-text.test.ts) on pieces far longer than WASM can merge in test time.
const alphabets: readonly (readonly string[])[] = [
  [...'的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年'],
  [...'我们中国时间人民工作问题'],
  [...'abcdefghijklmnopqrstuvwxyz'],
  ['a'],
  ['a', 'b'],
  ['字'],
  [...'─│┌┐└┘├┤┬┴┼═║╔╗╚╝'],
  ['😀', '🎉', '👍🏽', '🚀', '👨‍👩‍👧', '❤️'],
  [...'!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'],
  [...'абвгдеёжзийклмнопрстуфхцчшщ'],
  [...'あいうえおかきくけこのはをにが'],
];

describe('countSegmentedBytePairTokens', () => {
  it('equals the single-heap merge on runs of 4 KB to 400 KB (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...alphabets),
        fc.integer({ min: 4_096, max: 400_000 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom<TiktokenEncoding>('o200k_base', 'cl100k_base'),
        (units, bytes, seed, encoding) => {
          let state = seed;
          const parts: string[] = [];
          let size = 0;
          while (size < bytes) {
            state = (Math.imul(state, 1103515245) + 12345) >>> 0;
            const unit = units[state % units.length]!;
            parts.push(unit);
            size += Buffer.byteLength(unit);
          }
          const piece = Buffer.from(parts.join(''));
          // Fresh pair memos: neither run may profit from the other's.
          const single = countBytePairTokens(
            piece,
            piece.length,
            withPairMemo(sharedRanks(encoding)),
          );
          const segmented = countSegmentedBytePairTokens(
            piece,
            piece.length,
            withPairMemo(sharedRanks(encoding)),
          );
          expect(segmented).toBe(single);
        },
      ),
      { numRuns: Number(process.env.LONG_PIECE_RUNS ?? 40) },
    );
  }, 120_000);
});

const noRank = 2 ** 21;

/** Every token of the published file and its rank, read independently of the table's loader. */
const vocabulary = (encoding: TiktokenEncoding) => publishedRanks(encoding);

const bytesOf = (token: string) => Buffer.from(token, 'latin1');

describe('the rank table', () => {
  for (const encoding of ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'] as const) {
    const tokens = vocabulary(encoding);
    const all = [...tokens.keys()];

    it(`finds every token of ${encoding} at its rank (its no-token filter never refuses a token)`, () => {
      const { rankOf } = sharedRanks(encoding);
      let wrong = 0;
      for (const [token, rank] of tokens) {
        const bytes = bytesOf(token);
        if (rankOf(bytes, 0, bytes.length) !== rank) wrong++;
      }
      expect(tokens.size).toBeGreaterThan(50_000);
      expect(wrong).toBe(0);
    });

    it(`answers byte strings near tokens exactly, tokens or not, inside longer bytes, ${encoding} (property)`, () => {
      // Tokens with a byte changed, added or removed: mostly no token, and the ones that are
      // must still be found; looked up at an offset inside other bytes, as merges look them up.
      const { rankOf } = sharedRanks(encoding);
      const edit = fc.tuple(
        fc.nat({ max: all.length - 1 }),
        fc.constantFrom('replace', 'append', 'prepend', 'drop'),
        fc.nat({ max: 255 }),
        fc.nat(),
        fc.string({ unit: 'binary-ascii', maxLength: 3 }),
      );
      fc.assert(
        fc.property(fc.noBias(fc.array(edit, { minLength: 1, maxLength: 50 })), (edits) => {
          for (const [index, kind, byte, at, padding] of edits) {
            const token = all[index]!;
            const position = at % (token.length + 1);
            const char = String.fromCharCode(byte);
            const value =
              kind === 'replace'
                ? token.slice(0, position) + char + token.slice(position + 1)
                : kind === 'append'
                  ? token + char
                  : kind === 'prepend'
                    ? char + token
                    : token.slice(0, position) + token.slice(position + 1);
            if (value.length === 0) continue;
            const bytes = bytesOf(padding + value + padding);
            expect(rankOf(bytes, padding.length, padding.length + value.length)).toBe(
              tokens.get(value) ?? noRank,
            );
          }
        }),
        { numRuns: 200 },
      );
    });
  }
});

/** What a call throws, or undefined. */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('rankTableOf', () => {
  // Vocabularies of every token size base64 pads differently, with "! <rank>" markers anywhere
  // (ranks that jump either way) and any run of separators.
  const vocabularyText = fc.record({
    tokens: fc.uniqueArray(fc.uint8Array({ minLength: 1, maxLength: 10 }), {
      minLength: 1,
      maxLength: 200,
      selector: (token) => Buffer.from(token).toString('latin1'),
    }),
    markers: fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 ** 18 - 1_000 })), { maxLength: 4 }),
    separators: fc.array(fc.constantFrom(' ', '\n', '  ', ' \n'), { minLength: 1, maxLength: 4 }),
  });

  it('finds every token at its rank, and gives its bytes, pairs and longest token (property)', () => {
    fc.assert(
      fc.property(fc.noBias(vocabularyText), ({ tokens, markers, separators }) => {
        const ranks = new Map<string, number>();
        const words: string[] = [];
        let rank = 0;
        tokens.forEach((token, index) => {
          for (const [at, value] of markers)
            if (at % tokens.length === index) {
              words.push(`! ${value}`);
              rank = value;
            }
          words.push(Buffer.from(token).toString('base64'));
          ranks.set(Buffer.from(token).toString('latin1'), rank++);
        });
        const text = words.map((word, i) => word + separators[i % separators.length]).join('');
        const table = rankTableOf(Buffer.from(text, 'latin1'), 'test');
        for (const [token, expected] of ranks) {
          // Inside other bytes, as merges look tokens up.
          const bytes = Buffer.from(`\u00ff${token}\u0000`, 'latin1');
          expect(table.rankOf(bytes, 1, bytes.length - 1)).toBe(expected);
        }
        const noRank = 2 ** 21;
        for (let first = 0; first < 256; first++) {
          const single = String.fromCharCode(first);
          expect(table.byteRanks[first]).toBe(ranks.get(single) ?? noRank);
          for (const second of [0, 65, first, 255]) {
            const pair = single + String.fromCharCode(second);
            expect(table.pairs[(first << 8) | second]).toBe(ranks.get(pair) ?? noRank);
          }
        }
        expect(table.longestToken).toBe(Math.max(...tokens.map((token) => token.length)));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a vocabulary exactly when a token would rank 2^18 or above, wherever the markers set it (property)', () => {
    // The highest rank is read back from the markers after decoding: ranks that climb past the
    // limit and fall again, markers with no token after them (none is ranked), the limit itself.
    const limit = 2 ** 18;
    fc.assert(
      fc.property(
        fc.noBias(
          fc.array(
            fc.record({
              marker: fc.option(fc.integer({ min: limit - 40, max: limit + 2 }), {
                nil: undefined,
              }),
              tokens: fc.oneof(fc.constant(0), fc.nat({ max: 30 })),
            }),
            { minLength: 1, maxLength: 6 },
          ),
        ),
        (runs) => {
          const words: string[] = [];
          let rank = 0;
          let highest = -1;
          let next = 0;
          for (const { marker, tokens } of runs) {
            if (marker !== undefined) {
              words.push(`! ${marker}`);
              rank = marker;
            }
            for (let k = 0; k < tokens; k++, next++) {
              // Distinct tokens of two bytes each.
              words.push(Buffer.from([next >> 8, next & 255]).toString('base64'));
              highest = Math.max(highest, rank++);
            }
          }
          const error = thrown(() => rankTableOf(Buffer.from(words.join(' '), 'latin1'), 'test'));
          expect(TokenizerError.isInstance(error)).toBe(highest >= limit);
          if (highest >= 0 && highest < limit) {
            const table = rankTableOf(Buffer.from(words.join(' '), 'latin1'), 'test');
            expect(table.longestToken).toBe(2);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses text that is not base64 tokens and rank markers', () => {
    for (const text of [
      'QQ',
      'Q$==',
      'QQ==QQ==',
      'Q=Q=',
      'QQ=A',
      'QUJD\tQQ==',
      '! QQ==',
      '!x QQ==',
    ]) {
      const error = thrown(() => rankTableOf(Buffer.from(text, 'latin1'), 'test'));
      expect(TokenizerError.isInstance(error), text).toBe(true);
    }
    expect(
      TokenizerError.isInstance(thrown(() => rankTableOf(Buffer.from('! 262144 QQ=='), 'test'))),
    ).toBe(true);
  });
});

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const encoders = new Map<TiktokenEncoding, ReturnType<typeof tiktoken.get_encoding>>();
const tiktokenCount = (encoding: TiktokenEncoding, text: string): number => {
  if (!encoders.has(encoding)) encoders.set(encoding, tiktoken.get_encoding(encoding));
  return encoders.get(encoding)!.encode_ordinary(text).length;
};

// Code point blocks of letters (with their scripts' combining signs) written in long runs without
// spaces, or attacked that way, and the whole BMP below the surrogates.
const blocks: readonly (readonly [number, number])[] = [
  [0x61, 0x7a],
  [0xc0, 0x24f],
  [0x3b1, 0x3c9],
  [0x410, 0x44f],
  [0x531, 0x586],
  [0x5d0, 0x5ea],
  [0x620, 0x64a],
  [0x900, 0x97f],
  [0x980, 0x9ff],
  [0xb80, 0xbff],
  [0xe01, 0xe3a],
  [0x10a0, 0x10ff],
  [0x3041, 0x30ff],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
  [0x0, 0xd7ff],
];

/** `length` code points from an alphabet of `letters` drawn from `block` (a seeded generator). */
function runOf(block: readonly [number, number], letters: number, length: number, seed: number) {
  let state = seed >>> 0;
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
  const [low, high] = block;
  const alphabet = Array.from({ length: letters }, () => low + next(high - low + 1));
  return String.fromCodePoint(...Array.from({ length }, () => alphabet[next(letters)]!));
}

describe('segment sweeps on a gathered least rank', () => {
  it('count runs of every script block exactly like tiktoken, o200k and cl100k (property)', () => {
    const counters = {
      o200k_base: createTokenCounter({ encoding: 'o200k_base' }),
      cl100k_base: createTokenCounter({ encoding: 'cl100k_base' }),
    };
    let engaged = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...blocks),
        fc.noBias(fc.integer({ min: 1, max: 80 })),
        fc.noBias(fc.integer({ min: 200, max: 3_000 })),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom('o200k_base' as const, 'cl100k_base' as const),
        (block, letters, length, seed, encoding) => {
          const text = runOf(block, letters, length, seed);
          const expected = tiktokenCount(encoding, text);
          expect(counters[encoding].count(text)).toBe(expected);
          // Long pieces are cut where no token crosses (crossable-boundaries.ts) and their parts
          // merged apart: the segment merge, whose sweeps this checks, is called on each long
          // piece directly as well.
          const before = sweepProbe().gathered;
          const ranks = withPairMemo(sharedRanks(encoding));
          let segmented = 0;
          for (const piece of text.match(splitPattern(encoding)) ?? []) {
            if (piece.length <= 128) segmented += counters[encoding].count(piece);
            else {
              const bytes = new Uint8Array(Buffer.from(piece));
              segmented += countSegmentedBytePairTokens(bytes, bytes.length, ranks);
            }
          }
          expect(segmented).toBe(expected);
          if (sweepProbe().gathered > before) engaged++;
        },
      ),
      { numRuns: 150 },
    );
    // The premise: runs merged with sweeps on a gathered least rank (about 1 in 5; mean - 4 sd).
    expect(engaged).toBeGreaterThan(8);
  }, 120_000);

  it('leaves pieces of a few bytes to the short merge (control)', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 60 }), (words) => {
        const text = words.join(' ');
        const before = sweepProbe();
        expect(counter.count(text)).toBe(tiktokenCount('o200k_base', text));
        expect(sweepProbe()).toEqual(before);
      }),
      { numRuns: 100 },
    );
  });
});
