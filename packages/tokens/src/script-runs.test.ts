import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatonError, createTokenCounter, type TiktokenEncoding } from './index.js';
import {
  countBytePairTokens,
  countLongPiece,
  countSegmentedBytePairTokens,
  oneHeapMergedBytes,
  rankTableOf,
  sharedRanks,
  withPairMemo,
} from './long-piece-counter.js';
import { splitPattern } from './split-pattern.js';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const wasm: Partial<Record<TiktokenEncoding, ReturnType<typeof tiktoken.get_encoding>>> = {};
const wasmCount = (encoding: TiktokenEncoding, text: string): number => {
  wasm[encoding] ??= tiktoken.get_encoding(encoding);
  return wasm[encoding].encode_ordinary(text).length;
};

// Letter blocks of scripts written without spaces inside long runs (or attacked that way): code
// point ranges, so that alphabets are drawn at test time, not listed. Combining marks of their
// own script go with Thai and Devanagari (tiktoken's split keeps marks inside letter pieces).
const scripts: Record<string, readonly [number, number][]> = {
  latin: [[0x61, 0x7a]],
  accented: [[0xe0, 0xff]],
  greek: [[0x3b1, 0x3c9]],
  cyrillic: [[0x410, 0x44f]],
  armenian: [[0x561, 0x586]],
  hebrew: [[0x5d0, 0x5ea]],
  arabic: [[0x627, 0x64a]],
  devanagari: [
    [0x915, 0x939],
    [0x93e, 0x94d],
  ],
  thai: [
    [0xe01, 0xe30],
    [0xe31, 0xe3a],
  ],
  georgian: [[0x10d0, 0x10fa]],
  hangul: [[0xac00, 0xd7a3]],
  kana: [[0x3041, 0x3096]],
  cjk: [[0x4e00, 0x9fff]],
};
const scriptNames = Object.keys(scripts);

/** `size` code points drawn from the blocks of `script` (a random alphabet of that script). */
function alphabetOf(script: string, size: number, random: () => number): string[] {
  const blocks = scripts[script]!;
  const letters: string[] = [];
  for (let i = 0; i < size; i++) {
    const [low, high] = blocks[Math.floor(random() * blocks.length)]!;
    letters.push(String.fromCodePoint(low + Math.floor(random() * (high - low + 1))));
  }
  return letters;
}

function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/** At least `bytes` UTF-8 bytes of letters drawn from `alphabet`. */
function runOf(alphabet: readonly string[], bytes: number, random: () => number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const letter = alphabet[Math.floor(random() * alphabet.length)]!;
    parts.push(letter);
    size += Buffer.byteLength(letter);
  }
  return parts.join('');
}

// Runs of one script (an alphabet of 1 to 60 of its letters), or of several scripts' letters.
const letterRun = (minBytes: number, maxBytes: number) =>
  fc
    .record({
      scripts: fc.uniqueArray(fc.constantFrom(...scriptNames), { minLength: 1, maxLength: 3 }),
      letters: fc.integer({ min: 1, max: 60 }),
      bytes: fc.noBias(fc.integer({ min: minBytes, max: maxBytes })),
      seed: fc.integer({ min: 0, max: 2 ** 31 }),
    })
    .map(({ scripts: chosen, letters, bytes, seed }) => {
      const random = generator(seed);
      const alphabet = chosen.flatMap((script) => alphabetOf(script, letters, random));
      return { text: runOf(alphabet, bytes, random), scripts: chosen };
    });

// What may sit between runs: whitespace of every kind tiktoken's split treats apart, digits,
// punctuation, and runs of them long enough to be long pieces themselves.
const separator = fc.oneof(
  fc.constantFrom(
    ' ',
    '\n',
    '\t',
    '\r\n',
    '\n\n  ',
    '  ',
    '\u3000',
    '\u00a0',
    '123',
    '4,5.6',
    '"',
    '!?',
    "'s",
    '/',
  ),
  fc
    .tuple(
      fc.constantFrom(' ', '\n', ' \n', '\t', '  \n\n'),
      fc.noBias(fc.integer({ min: 1, max: 3_000 })),
    )
    .map(([unit, times]) => unit.repeat(times)),
  fc.noBias(fc.integer({ min: 1, max: 2_000 })).map((digits) => '7'.repeat(digits)),
);

/**
 * The reference count: tiktoken's split (its pattern), each piece counted by tiktoken's WASM when
 * its quadratic merge is quick (up to 2,000 bytes), and above that by the one-heap merge, which
 * long-piece-counter.test.ts and long-text.test.ts check against the WASM merge on every piece
 * it can take in test time. Neither segments, units, nor the counter's memos are involved.
 */
function referenceCount(encoding: TiktokenEncoding, text: string): number {
  const ranks = withPairMemo(sharedRanks(encoding));
  let total = 0;
  for (const piece of text.match(splitPattern(encoding)) ?? []) {
    const bytes = Buffer.from(piece, 'utf8');
    total +=
      bytes.length <= 2_000
        ? wasmCount(encoding, piece)
        : countBytePairTokens(new Uint8Array(bytes), bytes.length, ranks);
  }
  return total;
}

describe('long runs in other scripts', () => {
  it('count exactly like tiktoken, runs of 4 KB to 24 KB between separators (property)', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            letterRun(4_100, 24_000).map((run) => run.text),
            separator,
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        (parts) => {
          const text = parts.join('');
          expect(counter.count(text)).toBe(wasmCount('o200k_base', text));
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  it('count exactly like the reference on mixes of up to 600 KB (property)', () => {
    const counters = {
      o200k_base: createTokenCounter({ encoding: 'o200k_base' }),
      cl100k_base: createTokenCounter({ encoding: 'cl100k_base' }),
    };
    let longRuns = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            letterRun(20_000, 300_000).map((run) => run.text),
            separator,
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        fc.constantFrom('o200k_base' as const, 'cl100k_base' as const),
        (parts, encoding) => {
          const text = parts.join('');
          if (parts.some((part) => part.length >= 20_000 / 4 && /\p{L}/u.test(part))) longRuns++;
          expect(counters[encoding].count(text)).toBe(referenceCount(encoding, text));
        },
      ),
      { numRuns: 30 },
    );
    // The premise: most cases held a long run of letters.
    expect(longRuns).toBeGreaterThan(5);
  }, 240_000);

  it('count a run of letters of any script without the one-heap merge (property)', () => {
    const ranks = withPairMemo(sharedRanks('o200k_base'));
    fc.assert(
      fc.property(letterRun(70_000, 300_000), fc.boolean(), ({ text }, lines) => {
        // The same run with whitespace instead of letters, as tiktoken takes it: one piece.
        const piece = lines
          ? text.replace(/\p{L}/gu, (letter) => ((letter.codePointAt(0)! & 1) === 1 ? ' ' : '\n'))
          : text;
        const before = oneHeapMergedBytes();
        const tokens = countLongPiece(piece, ranks);
        expect(oneHeapMergedBytes() - before).toBe(0);
        expect(tokens).toBeGreaterThan(0);
      }),
      { numRuns: 30 },
    );
    // Control: the probe sees the one-heap merge when it is taken.
    const before = oneHeapMergedBytes();
    const bytes = Buffer.from('абв'.repeat(20_000));
    countBytePairTokens(new Uint8Array(bytes), bytes.length, ranks);
    expect(oneHeapMergedBytes() - before).toBe(bytes.length);
  }, 240_000);

  it('count runs of one or two repeated units after a short prefix like one heap (property)', () => {
    // Their long tokens line up with the piece's start, so a segment edge chosen from a window's
    // merge can be crossed: the edge check, not the choice, keeps these exact.
    const ranks = withPairMemo(sharedRanks('o200k_base'));
    const unit = fc.oneof(
      fc.constantFrom(' ', '\n', '=', '-', '*', '0', 'a', '字', '\t'),
      fc
        .constantFrom(...scriptNames)
        .chain((script) =>
          fc
            .integer({ min: 0, max: 2 ** 31 })
            .map((seed) => alphabetOf(script, 1, generator(seed))[0]!),
        ),
    );
    fc.assert(
      fc.property(
        fc.string({ maxLength: 3 }),
        fc.array(unit, { minLength: 1, maxLength: 2 }),
        fc.noBias(fc.integer({ min: 5_000, max: 40_000 })),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (prefix, units, bytes, seed) => {
          const piece = prefix + runOf(units, bytes, generator(seed));
          const utf8 = Buffer.from(piece, 'utf8');
          const heap = countBytePairTokens(
            new Uint8Array(utf8),
            utf8.length,
            withPairMemo(sharedRanks('o200k_base')),
          );
          expect(countLongPiece(piece, ranks)).toBe(heap);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('throws nothing but BatonErrors on any text (property)', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 200 }),
            letterRun(100, 9_000).map((run) => run.text),
            separator,
          ),
          { maxLength: 6 },
        ),
        (parts) => {
          const text = parts.join('');
          try {
            expect(Number.isInteger(counter.count(text))).toBe(true);
          } catch (error) {
            expect(BatonError.isInstance(error)).toBe(true);
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});

/** tiktoken's merge as written: the lowest-ranked adjacent pair, leftmost on ties, until none. */
function naiveMerge(bytes: Uint8Array, ranks: ReadonlyMap<string, number>): number {
  const parts = [...bytes].map((byte) => String.fromCharCode(byte));
  for (;;) {
    let best = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = 0; i + 1 < parts.length; i++) {
      const rank = ranks.get(parts[i]! + parts[i + 1]!);
      if (rank !== undefined && rank < best) {
        best = rank;
        at = i;
      }
    }
    if (at < 0) return parts.length;
    parts.splice(at, 2, parts[at]! + parts[at + 1]!);
  }
}

/** The rank table of the single bytes (ranks 0-255) then `tokens` in order, and its ranks by token. */
function syntheticTable(tokens: readonly string[]) {
  const ranks = new Map<string, number>();
  const words: string[] = [];
  for (let byte = 0; byte < 256; byte++) {
    ranks.set(String.fromCharCode(byte), byte);
    words.push(Buffer.from([byte]).toString('base64'));
  }
  for (const token of tokens) {
    ranks.set(token, ranks.size);
    words.push(Buffer.from(token, 'latin1').toString('base64'));
  }
  return { ranks, table: rankTableOf(Buffer.from(words.join('\n'), 'latin1'), 'test') };
}

describe('the merge on any rank table', () => {
  it('merges ties of equal rank leftmost first on runs of one or two letters (property)', () => {
    // A run of "a" with "aa" a token holds that pair at every position: which of two overlapping
    // pairs of one rank goes first decides the tokens ("aaa" is "aa a", never "a aa"). Segments of
    // runs of one letter are crossed at their edges and rejoined, so both merges meet long ties.
    let oddRuns = 0;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[ab]{2,6}$/), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.noBias(fc.integer({ min: 2, max: 5_000 })),
        fc.boolean(),
        (tokens, seed, length, oneLetter) => {
          const random = generator(seed);
          const order = [...tokens].sort(() => random() - 0.5);
          const { ranks, table } = syntheticTable(order);
          const letters = oneLetter ? [order[0]![0]!] : ['a', 'b'];
          const text = new Uint8Array(Buffer.from(runOf(letters, length, random), 'latin1'));
          const expected = naiveMerge(text, ranks);
          if (expected % 2 === 1) oddRuns++;
          expect(countBytePairTokens(text, text.length, withPairMemo(table))).toBe(expected);
          expect(countSegmentedBytePairTokens(text, text.length, withPairMemo(table))).toBe(
            expected,
          );
        },
      ),
      { numRuns: 120 },
    );
    // The premise: counts of both parities, not only runs that split evenly either way.
    expect(oddRuns).toBeGreaterThan(10);
  }, 120_000);

  it('equals the merge as tiktoken writes it, ranks of longer tokens below their parts included (property)', () => {
    // Vocabularies of a few letters whose longer tokens often rank below the pairs they contain
    // (a merge then creates a pair ranked below the one just merged), on texts of every size up
    // to several segments.
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[abcd]{2,5}$/), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.noBias(fc.integer({ min: 2, max: 5_000 })),
        (tokens, seed, length) => {
          const random = generator(seed);
          const order = [...tokens].sort(() => random() - 0.5);
          const { ranks, table } = syntheticTable(order);
          const letters = [...new Set(order.join(''))];
          const text = Buffer.from(runOf(letters, length, random), 'latin1');
          const bytes = new Uint8Array(text);
          const expected = naiveMerge(bytes, ranks);
          expect(countBytePairTokens(bytes, bytes.length, withPairMemo(table))).toBe(expected);
          expect(countSegmentedBytePairTokens(bytes, bytes.length, withPairMemo(table))).toBe(
            expected,
          );
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);
});
