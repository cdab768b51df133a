import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter, type TiktokenEncoding } from './index.js';
import {
  countBytePairTokens,
  countSegmentedBytePairTokens,
  sharedRanks,
  withPairMemo,
} from './long-piece-counter.js';
import { UnitHistoryMemo } from './unit-history-memo.js';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const raw: Partial<Record<TiktokenEncoding, ReturnType<typeof tiktoken.get_encoding>>> = {};
const rawCount = (encoding: TiktokenEncoding, text: string): number => {
  raw[encoding] ??= tiktoken.get_encoding(encoding);
  return raw[encoding].encode_ordinary(text).length;
};

// Scripts whose runs without whitespace are long pieces counted by character units, and some that
// join them or end the unit count (letters, marks); rare CJK (astral, four bytes) beside common.
const scripts: readonly (readonly string[])[] = [
  [...'的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年'],
  [...'我们中国时间人民工作问题'],
  [...'鬱鑿龘麤爨齉靐讟灪癵驫'],
  [...'𠀀𠀁𠀂𠁆𡈽𢌬𣴀𤆬𥫗𦉪𧦅𨳒𩸽𪚥'],
  [...'あいうえおかきくけこのはをにがアイウエオッー'],
  [...'한국어대학교사람이가는을를에서하다'],
  ['字'],
  ['の'],
  [...'абвгдеёжзийклмнопрстуфхцчшщ'],
  [...'abcdefghijklmnopqrstuvwxyz'],
  ['e\u0301', 'a\u0308', '\u0915\u094d'],
  [...'─│┌┐└┘├┤┬┴┼═║╔╗╚╝'],
];

/** Runs of the scripts back to back (no whitespace), `length` units in all, from `seed`. */
const mixedText = (runs: readonly (readonly [number, number, boolean])[], length: number) => {
  const parts: string[] = [];
  let units = 0;
  for (let r = 0; units < length; r++) {
    const [script, seed, repeated] = runs[r % runs.length]!;
    const alphabet = scripts[script]!;
    let state = seed + r;
    const runLength = Math.min(length - units, 1 + (seed % 2_000));
    for (let i = 0; i < runLength; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      parts.push(repeated ? alphabet[seed % alphabet.length]! : alphabet[state % alphabet.length]!);
    }
    units += runLength;
  }
  return parts.join('');
};

const runs = fc.array(
  fc.tuple(
    fc.integer({ min: 0, max: scripts.length - 1 }),
    fc.integer({ min: 0, max: 2 ** 31 }),
    fc.boolean(),
  ),
  { minLength: 1, maxLength: 6 },
);

describe('long pieces counted by character units', () => {
  it('count mixed runs of CJK, kana, Hangul and other scripts like tiktoken (property)', () => {
    fc.assert(
      fc.property(
        runs,
        // From under a segment pair (4,096 bytes: no units) to a few segments, within WASM's reach.
        fc.noBias(fc.integer({ min: 1_000, max: 6_000 })),
        fc.constantFrom<TiktokenEncoding>('o200k_base', 'cl100k_base'),
        (chosen, length, encoding) => {
          const text = mixedText(chosen, length);
          const counter = createTokenCounter({ encoding });
          expect(counter.count(text)).toBe(rawCount(encoding, text));
        },
      ),
      { numRuns: Number(process.env.CHARACTER_UNIT_RUNS ?? 40) },
    );
  }, 300_000);

  it('equal the single-heap merge on long mixed runs, also when the unit memo restarts (property)', () => {
    fc.assert(
      fc.property(
        runs,
        fc.noBias(fc.integer({ min: 2_000, max: 30_000 })),
        fc.constantFrom<TiktokenEncoding>('o200k_base', 'cl100k_base'),
        fc.constantFrom(4, 64, 2 ** 12),
        (chosen, length, encoding, capacity) => {
          const piece = Buffer.from(mixedText(chosen, length));
          const single = countBytePairTokens(
            piece,
            piece.length,
            withPairMemo(sharedRanks(encoding)),
          );
          const ranks = {
            ...withPairMemo(sharedRanks(encoding)),
            unitMemo: new UnitHistoryMemo(capacity),
          };
          expect(countSegmentedBytePairTokens(piece, piece.length, ranks)).toBe(single);
          // Again with the memos warm: remembered histories and edges must give the same count.
          expect(countSegmentedBytePairTokens(piece, piece.length, ranks)).toBe(single);
        },
      ),
      { numRuns: Number(process.env.CHARACTER_UNIT_RUNS ?? 40) },
    );
  }, 300_000);
});
