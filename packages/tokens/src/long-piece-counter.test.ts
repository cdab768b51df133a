import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countBytePairTokens,
  countSegmentedBytePairTokens,
  sharedRanks,
  withPairMemo,
} from './long-piece-counter.js';
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
