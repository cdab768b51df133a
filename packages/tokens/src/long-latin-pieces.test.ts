import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './index.js';
import { publishedRanks } from './test-utils/published-ranks.js';

// Long pieces of Latin letters (random alphabets, mixed with other scripts) counted exactly: against
// tiktoken's WASM where it is fast enough (up to ~24 KB; its merge is quadratic), and beyond that
// against a reference merge written here from the published ranks alone (checked against WASM
// first), which shares nothing with the counter's merge (no heap, memo, segments or rank table).

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const wasm = tiktoken.get_encoding('o200k_base');
const wasmCount = (text: string) => wasm.encode_ordinary(text).length;

const noRank = Number.MAX_SAFE_INTEGER;
/** o200k's tokens (bytes as latin1 strings) and ranks, read from the published file. */
const vocabulary = () => publishedRanks('o200k_base');

/**
 * Tokens of one piece by tiktoken's rule (merge the adjacent pair whose joined bytes have the lowest
 * rank, leftmost on ties, until none is a token; a piece that is a token is taken whole), the
 * lowest pair found by a segment tree over the pair starting at each byte position: O(n log n),
 * simple enough to be plainly right.
 */
function referenceCount(piece: string): number {
  const ranks = vocabulary();
  const bytes = Buffer.from(piece, 'utf8').toString('latin1');
  const n = bytes.length;
  if (n <= 1) return n;
  if (ranks.has(bytes)) return 1;
  let leaves = 1;
  while (leaves < n) leaves *= 2;
  // rank[i]: rank of the pair starting at part i (noRank if none); inner nodes of `tree` hold the
  // position of their subtree's lowest pair, the leftmost on ties.
  const rank = new Float64Array(leaves).fill(noRank);
  const tree = new Int32Array(leaves);
  const next = new Int32Array(n + 1);
  const previous = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
  }
  const pairRank = (start: number): number => {
    const middle = next[start]!;
    if (middle >= n) return noRank;
    return ranks.get(bytes.slice(start, next[middle]!)) ?? noRank;
  };
  const lowest = (node: number) => (node >= leaves ? node - leaves : tree[node]!);
  const better = (a: number, b: number) => (rank[b]! < rank[a]! ? b : a);
  const update = (i: number, value: number) => {
    rank[i] = value;
    for (let node = (leaves + i) >> 1; node >= 1; node >>= 1)
      tree[node] = better(lowest(2 * node), lowest(2 * node + 1));
  };
  for (let i = 0; i < n; i++) rank[i] = pairRank(i);
  for (let node = leaves - 1; node >= 1; node--)
    tree[node] = better(lowest(2 * node), lowest(2 * node + 1));
  let parts = n;
  for (;;) {
    const start = tree[1]!;
    if (rank[start] === noRank) return parts;
    const absorbed = next[start]!;
    next[start] = next[absorbed]!;
    if (next[start]! <= n) previous[next[start]!] = start;
    parts--;
    update(absorbed, noRank);
    update(start, pairRank(start));
    if (previous[start]! >= 0) update(previous[start]!, pairRank(previous[start]!));
  }
}

// Latin alphabets drawn at test time (a random subset of a pool), alone or mixed with letters of
// other scripts that join a lower-case Latin piece (CJK, kana, Cyrillic, Greek, combining marks).
const latinPools: readonly (readonly string[])[] = [
  [...'abcdefghijklmnopqrstuvwxyz'],
  [...'abcdefghijklmnopqrstuvwxyzàáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßœ'],
  [...'āăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĵķĺļľŀłńņňŉŋōŏőŕŗřśŝşšţťŧũūŭůűųŵŷźżž'],
];
const otherLetters: readonly (readonly string[])[] = [
  [...'的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年'],
  [...'あいうえおかきくけこのはをにがアイウエオ'],
  [...'абвгдежзийклмнопрстуфхцчшщыэюя'],
  [...'αβγδεζηθικλμνξοπρστυφχψω'],
  ['\u0301', '\u0308', '\u0327'],
];
// Runs of the other worst-case classes, not letters: they split a Latin piece where they stand.
const otherRuns: readonly (readonly string[])[] = [
  [...'0123456789'],
  [...'!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'],
  [...'─│┌┐└┘├┤┬┴┼═║╔╗╚╝'],
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='],
  ['😀', '🎉', '👍🏽', '🚀', '👨‍👩‍👧', '❤️'],
];

/**
 * One piece of lower-case letters (and marks) of `minBytes` to `maxBytes` UTF-8 bytes: runs from a
 * random Latin alphabet, some glued to runs of another script; `upper` leads it with a run of
 * capitals (one piece still: tiktoken's pattern takes capitals then lower case).
 */
const latinPiece = (minBytes: number, maxBytes: number) =>
  fc
    .record({
      bytes: fc.noBias(fc.integer({ min: minBytes, max: maxBytes })),
      pool: fc.nat({ max: latinPools.length - 1 }),
      // Bit mask choosing the alphabet's letters from the pool (at least two).
      mask: fc.integer({ min: 0, max: 2 ** 30 - 1 }),
      other: fc.option(fc.nat({ max: otherLetters.length - 1 }), { nil: undefined }),
      // Share of the other script's runs, in eighths.
      otherShare: fc.integer({ min: 1, max: 4 }),
      // Mean run length of Latin letters.
      runLength: fc.noBias(fc.integer({ min: 1, max: 2_000 })),
      upper: fc.boolean(),
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    })
    .map(({ bytes, pool, mask, other, otherShare, runLength, upper, seed }) => {
      const letters = latinPools[pool]!.filter((_, i) => (mask >>> i) & 1);
      const alphabet = letters.length >= 2 ? letters : latinPools[pool]!.slice(0, 2);
      let state = seed;
      const random = (limit: number) => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return (state >>> 8) % limit;
      };
      const parts: string[] = [];
      if (upper)
        for (let i = 1 + random(40); i > 0; i--)
          parts.push('ABCDEFGHIJKLMNOPQRSTUVWXYZ'[random(26)]!);
      // Latin first: a mark first would attach to nothing.
      parts.push(alphabet[0]!);
      let size = Buffer.byteLength(parts.join(''));
      while (size < minBytes || size < bytes) {
        const foreign = other !== undefined && random(8) < otherShare;
        const units = foreign ? otherLetters[other]! : alphabet;
        const length = 1 + random(foreign ? 40 : 2 * runLength);
        for (let i = 0; i < length && size < bytes; i++) {
          const unit = units[random(units.length)]!;
          parts.push(unit);
          size += Buffer.byteLength(unit);
        }
      }
      return parts.join('');
    });

// One piece by construction: capitals, then lower-case letters, other-script letters and marks.
const onePiece = /^[A-Z]*[\p{Ll}\p{Lo}\p{M}]+$/u;

describe('long Latin pieces', () => {
  it('the reference merge equals tiktoken on pieces up to 3 KB (property)', () => {
    fc.assert(
      fc.property(latinPiece(2, 3_000), (piece) => {
        expect(piece).toMatch(onePiece);
        expect(referenceCount(piece)).toBe(wasmCount(piece));
      }),
      { numRuns: Number(process.env.LATIN_PIECE_RUNS ?? 60) },
    );
  }, 60_000);

  it('counts pieces of 4 KB to 24 KB like tiktoken, alone or among runs of other classes (property)', () => {
    fc.assert(
      fc.property(
        latinPiece(4_096, 24_000),
        fc.array(
          fc.tuple(fc.nat(), fc.constantFrom(...otherRuns), fc.integer({ min: 1, max: 300 })),
          { maxLength: 6 },
        ),
        (piece, inserts) => {
          // Runs of digits, punctuation, box drawing, base64 or emoji cut into the piece (or glued
          // to it): the split around them, and pieces that end or start there, count exactly too.
          let text = piece;
          for (const [at, units, length] of inserts) {
            const cut = at % (text.length + 1);
            let run = '';
            for (let i = 0; i < length; i++) run += units[(at + i * 7) % units.length]!;
            // Never inside a surrogate pair.
            const high = cut > 0 ? text.charCodeAt(cut - 1) : 0;
            const safe = high >= 0xd800 && high <= 0xdbff ? cut - 1 : cut;
            text = text.slice(0, safe) + run + text.slice(safe);
          }
          const counter = createTokenCounter({ encoding: 'o200k_base' });
          expect(counter.count(text)).toBe(wasmCount(text));
        },
      ),
      { numRuns: Number(process.env.LATIN_PIECE_RUNS ?? 12) },
    );
  }, 120_000);

  it('counts pieces of 4 KB to 200 KB like the reference merge, one counter for all (property)', () => {
    // One counter: its pair memo, unit memo and scratch carry over from piece to piece.
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    fc.assert(
      fc.property(latinPiece(4_096, 200_000), (piece) => {
        expect(piece).toMatch(onePiece);
        expect(counter.count(piece)).toBe(referenceCount(piece));
      }),
      { numRuns: Number(process.env.LATIN_PIECE_RUNS ?? 20) },
    );
  }, 180_000);
});
