import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  codePointAt,
  crossableBoundariesOf,
  hasCrossableBoundaries,
} from './crossable-boundaries.js';
import { positionScale } from './pair-heap.js';
import { PairMemo, pairKeyBits, unknownPair } from './pair-memo.js';
import { longestMemoisedPart, PartCountMemo } from './part-count-memo.js';
import { rankFileText } from './rank-file-text.js';
import { RankQueue } from './rank-queue.js';
import { type RankArrays, rankArraysOfFile, rankTableFileName } from './rank-table-file.js';
import { TokenizerError } from './tokenizer-error.js';
import type { TiktokenEncoding } from './types.js';
import { type EdgeHistory, UnitHistoryMemo, unitKey } from './unit-history-memo.js';

const require = createRequire(import.meta.url);

/**
 * Where each encoding's published ranks are (read once per process by `sharedRanks`):
 * `@dqbd/tiktoken` ships them as lines "! <first rank> <base64 token> ...", tokens in rank order.
 * r50k and p50k share GPT-2's vocabulary file names.
 */
export const rankFiles: Record<TiktokenEncoding, string> = {
  o200k_base: '@dqbd/tiktoken/encoders/o200k_base.json',
  cl100k_base: '@dqbd/tiktoken/encoders/cl100k_base.json',
  p50k_base: '@dqbd/tiktoken/encoders/p50k_base.json',
  r50k_base: '@dqbd/tiktoken/encoders/r50k_base.json',
};

/** A rank table, shared by every encoder and counter of its encoding. */
export type RankTable = Omit<Ranks, 'pairMemo' | 'unitMemo'>;

export interface Ranks {
  /** Rank of the token whose bytes are `bytes[start, end)`, or `noRank`. */
  rankOf(bytes: Uint8Array, start: number, end: number): number;
  /** Rank of each two-byte token by `first << 8 | second`, `noRank` if none: the first pass. */
  pairs: Int32Array;
  /** Rank of each one-byte token (every byte is one). */
  byteRanks: Int32Array;
  /**
   * Merged rank of two adjacent tokens, by their ranks: what the byte lookup found before. One per
   * piece counter and encoder (not per process), so a fresh counter has seen nothing.
   */
  pairMemo: PairMemo;
  /** Merge histories of small units of long pieces by their bytes; one per piece counter and encoder. */
  unitMemo: UnitHistoryMemo;
  /** Bytes of the longest token: a longer piece is never one token, so it is not looked up whole. */
  longestToken: number;
  /** The arrays the table reads (every token's bytes: what `crossableBoundariesOf` is built from). */
  arrays: RankArrays;
}

// What each byte of the rank text is: a base64 digit's value, or one of the classes below.
const padding = -1;
const separator = -2;
const other = -3;
const byteClasses = new Int8Array(256).fill(other);
for (let i = 0; i < 64; i++)
  byteClasses['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;
byteClasses[0x3d] = padding; // '='
byteClasses[0x20] = separator;
byteClasses[0x0a] = separator;

function malformedRanks(encoding: string): TokenizerError {
  return new TokenizerError({ message: `the rank file of ${encoding} is not base64 tokens` });
}

const rankMask = (1 << 21) - 1;
// The token filter has 2^(32 - filterShift) words of 32 bits.
const filterShift = 16;
const filterWords = 1 << (32 - filterShift);

/** Up to 4 bytes as one number (with the size, which the table stores beside it, exact). */
function packBytes(bytes: Uint8Array, start: number, size: number): number {
  let packed = 0;
  for (let k = 0; k < size; k++) packed |= bytes[start + k]! << (8 * k);
  return packed;
}

/** The bits of a 32-bit word above `offsetBits`, from `hash` (mixed: not the bits that pick slots). */
function fingerprintOf(hash: number, offsetBits: number): number {
  return offsetBits >= 32 ? 0 : (Math.imul(hash, 0x9e3779b1) >>> offsetBits) << offsetBits;
}

/** FNV-1a of `bytes[start, end)`. */
const fnvOffset = 0x811c9dc5;
const fnvPrime = 0x01000193;
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = fnvOffset;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, fnvPrime);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** Reads an encoding's published ranks (the file of `rankFiles`) into a rank table. */
function loadRanks(encoding: TiktokenEncoding): RankTable {
  const source = readFileSync(require.resolve(rankFiles[encoding]));
  let built: Uint8Array | undefined;
  try {
    built = readFileSync(new URL(rankTableFileName(encoding), import.meta.url));
  } catch {
    // Not built for this encoding (or run from the sources): decoded instead.
  }
  return rankTableOfFiles(source, built, encoding);
}

/**
 * The rank table of the published rank file `source`: from `built`, the table the package build
 * wrote (`rankTableFile`), when it was built from exactly these bytes, else by decoding `source`
 * (overwritten; a dependency's changed or newer file, or no built table), which throws a
 * `TokenizerError` if it is malformed.
 */
export function rankTableOfFiles(
  source: Uint8Array,
  built: Uint8Array | undefined,
  encoding: string,
): RankTable {
  const arrays = built && rankArraysOfFile(built, source, filterWords);
  return arrays ? rankTableOver(arrays) : rankTableOf(rankFileText(source), encoding);
}

/**
 * Decodes the base64 tokens of the rank text `text` in place (see `rankTableOf`) and returns how
 * many there are: token e's bytes end at `starts[e + 1]`, its unmixed FNV-1a hash is `hashes[e]`.
 * Decoding and indexing are separate functions, each a loop that returns a local when it ends: in
 * one function, a cold start's optimised code of the first loop (compiled mid-loop) met the code
 * after it, which had never run, deoptimised, and was compiled again for the next loop.
 */
function decodeRankText(
  text: Uint8Array,
  encoding: string,
  starts: Int32Array,
  hashes: Int32Array,
  markers: number[],
): number {
  const data = text;
  const length = text.length;
  let count = 0;
  let written = 0;
  let rank = 0;
  let i = 0;
  while (i < length) {
    const code = text[i]!;
    if (code === 0x20 || code === 0x0a) {
      i++;
      continue;
    }
    if (code === 0x21) {
      // "! <first rank>": the rank of the next token.
      i++;
      while (i < length && text[i] === 0x20) i++;
      const digits = i;
      let value = 0;
      while (i < length && text[i]! >= 0x30 && text[i]! <= 0x39)
        value = value * 10 + text[i++]! - 0x30;
      if (i === digits) throw malformedRanks(encoding);
      if (value !== rank) markers.push(count, value);
      rank = value;
      continue;
    }
    // One base64 token, padded to whole groups of 4 characters (3 bytes), up to a separator: a
    // group at a time, as a character at a time was most of the build.
    let hash = fnvOffset;
    for (;;) {
      if (i + 4 > length) throw malformedRanks(encoding);
      const first = byteClasses[text[i]!]!;
      const second = byteClasses[text[i + 1]!]!;
      const third = byteClasses[text[i + 2]!]!;
      const fourth = byteClasses[text[i + 3]!]!;
      i += 4;
      if ((first | second) < 0 || third < padding || fourth < padding || (third < 0 && fourth >= 0))
        throw malformedRanks(encoding);
      const byte0 = (first << 2) | (second >> 4);
      data[written++] = byte0;
      hash = Math.imul(hash ^ byte0, fnvPrime);
      if (third < 0) break;
      const byte1 = ((second & 15) << 4) | (third >> 2);
      data[written++] = byte1;
      hash = Math.imul(hash ^ byte1, fnvPrime);
      if (fourth < 0) break;
      const byte2 = ((third & 3) << 6) | fourth;
      data[written++] = byte2;
      hash = Math.imul(hash ^ byte2, fnvPrime);
      if (i === length || byteClasses[text[i]!] === separator) break;
    }
    // A token ends at a separator (or the end), never straight after its padding.
    if (i < length && byteClasses[text[i]!] !== separator) throw malformedRanks(encoding);
    hashes[count++] = hash;
    rank++;
    starts[count] = written;
  }
  return count;
}

/** One past the highest rank of `count` tokens under `markers` (entry, rank) pairs. */
function rankBound(markers: readonly number[], count: number): number {
  let bound = 0;
  let entry = 0;
  let rank = 0;
  for (let m = 0; m <= markers.length; m += 2) {
    const next = m < markers.length ? markers[m]! : count;
    if (next > entry) bound = Math.max(bound, rank + next - entry);
    entry = next;
    rank = markers[m + 1] ?? 0;
  }
  return bound;
}

/**
 * The rank table of a rank text (base64 tokens in rank order, separated by spaces or newlines,
 * "! <rank>" setting the next token's rank), decoded in place: `source` is overwritten. One byte
 * array and an open-addressing table over it: a `Map` keyed by 200,000 token strings took ~0.2 s
 * to build (most of it hashing and inserting the strings); this decodes the base64 by hand and
 * builds in a few tens of milliseconds, and looks up byte ranges of a piece without making a string
 * of them. `encoding` names the encoding in errors.
 */
export function rankTableOf(source: Uint8Array, encoding: string): RankTable {
  return rankTableOver(rankArraysOf(source, encoding));
}

/** The arrays `rankTableOf` looks tokens up in (what the package build writes to a file). */
export function rankArraysOf(source: Uint8Array, encoding: string): RankArrays {
  // A plain byte view even of a Buffer: lookups read the token bytes through one kind of array.
  const data = new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  // Token e has bytes data[starts[e], starts[e + 1]), decoded in place over the text they come
  // from (never ahead of it: 4 characters in, 3 bytes out), so no second array of megabytes is
  // touched page by page. Its rank is e plus the offset of the last "! <rank>" marker before it,
  // kept in `markers` (entry, rank) for the rare file with more than the leading "! 0".
  // A token takes at least 4 base64 characters and a space.
  const capacity = Math.ceil(data.length / 4) + 1;
  const starts = new Int32Array(capacity + 1);
  const markers: number[] = [];
  // FNV-1a of each token, computed while its bytes are decoded: hashing them again from the array
  // afterwards took about a third of the table's build time (on a cold start every ms counts).
  const hashes = new Int32Array(capacity);
  const count = decodeRankText(data, encoding, starts, hashes, markers);
  const written = starts[count]!;
  const ranks = rankBound(markers, count);
  // The pair memo packs ranks into 18 bits (every tiktoken encoding has under 2^18 tokens).
  if (ranks > 2 ** pairKeyBits)
    throw new TokenizerError({
      message: `${encoding} has ranks up to ${ranks - 1}, over 2^${pairKeyBits}`,
    });
  // A slot is two numbers: the token's size and rank (`size << 21 | rank`, never 0: 0 is empty),
  // then for a token of up to 4 bytes the bytes themselves, else where its bytes start and, in the
  // bits the offset leaves free, a fingerprint of its hash. Finding a short token reads one cache
  // line; a longer one is compared with the bytes only when size and fingerprint match. (Slot,
  // start offsets, bytes and ranks in four arrays cost four cache misses a lookup, most of a first
  // merge's time.) The table is about three quarters full (2 MB for o200k): half full, twice the
  // size, a first pass missed cache more often; the longer probes cost little as the fingerprint
  // spares each token of the same size passed on the way a read of the byte array.
  let offsetBits = 1;
  while (2 ** offsetBits <= written) offsetBits++;
  let slots = 1;
  while (slots < count * 1.25) slots <<= 1;
  const table = new Int32Array(slots * 2);
  const pairs = new Int32Array(65_536).fill(noRank);
  // A filter of every token's hash (two bits in one word): about half the lookups of a first pass
  // are byte strings that are no token, and a probe of the table (2 MB, most of a merge's cache
  // misses) ends at an empty slot only after several; this 256 KB answers most of them.
  const filter = new Int32Array(filterWords);
  const byteRanks = new Int32Array(256).fill(noRank);
  markers.push(count, 0);
  const longestToken = indexTokens(
    data,
    starts,
    hashes,
    count,
    markers,
    offsetBits,
    table,
    pairs,
    filter,
    byteRanks,
  );
  return {
    data: data.subarray(0, written),
    table,
    pairs,
    byteRanks,
    filter,
    offsetBits,
    longestToken,
  };
}

/** The rank table that looks tokens up in `arrays`. */
export function rankTableOver(arrays: RankArrays): RankTable {
  const { data, table, filter, offsetBits, longestToken } = arrays;
  const mask = (table.length >> 1) - 1;
  const offsetMask = 2 ** offsetBits - 1;
  const rankOf = (bytes: Uint8Array, start: number, end: number): number => {
    const size = end - start;
    if (size > longestToken) return noRank;
    const hash = hashBytes(bytes, start, end);
    const bits = filter[Math.imul(hash, 0x9e3779b1) >>> filterShift]!;
    if (((bits >>> ((hash >>> 22) & 31)) & (bits >>> (hash >>> 27)) & 1) === 0) return noRank;
    const packed = size <= 4 ? packBytes(bytes, start, size) : fingerprintOf(hash, offsetBits);
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const sizeAndRank = table[slot * 2]!;
      if (sizeAndRank === 0) return noRank;
      if (sizeAndRank >>> 21 !== size) continue;
      const second = table[slot * 2 + 1]!;
      if (size <= 4) {
        if (second === packed) return sizeAndRank & rankMask;
        continue;
      }
      if ((second & ~offsetMask) !== packed) continue;
      const from = second & offsetMask;
      let k = 0;
      while (k < size && data[from + k] === bytes[start + k]) k++;
      if (k === size) return sizeAndRank & rankMask;
    }
  };
  return { rankOf, pairs: arrays.pairs, byteRanks: arrays.byteRanks, longestToken, arrays };
}

/**
 * Enters the tokens decoded by `decodeRankText` into the lookup arrays of `rankTableOf` (the table
 * of `mask + 1` slots, the two-byte ranks, the hash filter and the byte ranks); returns the bytes
 * of the longest token.
 */
function indexTokens(
  data: Uint8Array,
  starts: Int32Array,
  hashes: Int32Array,
  count: number,
  markers: number[],
  offsetBits: number,
  table: Int32Array,
  pairs: Int32Array,
  filter: Int32Array,
  byteRanks: Int32Array,
): number {
  const mask = (table.length >> 1) - 1;
  let longestToken = 0;
  let marker = 0;
  for (let e = 0, rank = 0; e < count; e++, rank++) {
    while (e === markers[marker]) {
      rank = markers[marker + 1]!;
      marker += 2;
    }
    const from = starts[e]!;
    const size = starts[e + 1]! - from;
    if (size > longestToken) longestToken = size;
    if (size === 1) byteRanks[data[from]!] = rank;
    else if (size === 2) pairs[(data[from]! << 8) | data[from + 1]!] = rank;
    // Mixed as `hashBytes` mixes, which lookups use.
    const hash = (hashes[e]! ^ (hashes[e]! >>> 16)) >>> 0;
    const word = Math.imul(hash, 0x9e3779b1) >>> filterShift;
    filter[word] = filter[word]! | (1 << ((hash >>> 22) & 31)) | (1 << (hash >>> 27));
    let slot = hash & mask;
    while (table[slot * 2] !== 0) slot = (slot + 1) & mask;
    table[slot * 2] = (size << 21) | rank;
    table[slot * 2 + 1] =
      size <= 4 ? packBytes(data, from, size) : fingerprintOf(hash, offsetBits) | from;
  }
  return longestToken;
}

const noRank = 2 ** 21;
// A joined pair of at most this many bytes is looked up in the rank table directly, not through the
// pair memo: hashing a few bytes and reading the token filter (256 KB) costs less than a probe of
// the memo (up to 4 MB, most probes a cache miss once it is large), and a piece of many distinct
// short tokens (random letters, punctuation, base64) fills the memo with pairs seldom met again.
// Longer pairs (runs of one symbol, CJK) cost more to hash and repeat, where the memo pays. On 1M
// random letters the memo missed on 35 % of its lookups and cost a fifth of the merge; where short
// pairs do repeat (a few hundred Hangul syllables: pairs of two, 6 bytes) the memo was the cheaper
// by up to ~10 %.
const memoFloor = 8;

/**
 * tiktoken's byte-pair merge, re-implemented with a heap. tiktoken merges, at every step, the
 * adjacent pair of parts whose joined bytes have the lowest rank (the leftmost on ties) and finds
 * it by a linear scan, which is quadratic on a long piece (a 100 KB run of one letter took 12–19 s,
 * and over ~1 MB its WASM build traps). The same choice taken from a priority queue keyed by
 * (rank, position) gives the same merges in the same order, hence the same tokens, in
 * O(n log n). Stale heap entries are skipped by checking them against the current pair ranks.
 * Counts `piece` under `ranks` (with its own pair memo).
 */
export function countLongPiece(piece: string, ranks: Ranks): number {
  const buffer = Buffer.from(piece, 'utf8');
  // A plain byte view, as every other merge reads: a Buffer here (another map) deoptimised the
  // lookups' optimised code on a cold start's first long piece, and they were compiled again.
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  // Between two ASCII characters nothing is cut (see `CrossableBoundaries`), and a piece shorter
  // than two segments is merged whole by one segment merge.
  if (bytes.length === piece.length || bytes.length < segmentBytes * 2)
    return countSegmentedBytePairTokens(bytes, bytes.length, ranks);
  if (!hasCrossableBoundaries(ranks.arrays)) {
    uncutBytes += bytes.length;
    if (uncutBytes < bytesBeforeCuts)
      return countSegmentedBytePairTokens(bytes, bytes.length, ranks);
  }
  return countByCuts(bytes, bytes.length, ranks);
}

// The set of crossable boundaries costs about 50 ms to build (once per process and encoding) and
// saves about 0.15 µs a byte: it is built once long non-ASCII pieces of this many bytes have been
// merged without it (any encoding), so that the first few pieces of a process do not pay for it.
const bytesBeforeCuts = 1 << 18;
let uncutBytes = 0;

// A piece whose boundaries stay crossable for this many bytes since its last cut is merged from
// there as before (runs of letters, of one symbol: nearly every pair of their characters is inside
// some token): the scan's cost stays a small share where it finds nothing.
const uncutRun = 256;

/**
 * `countSegmentedBytePairTokens` of a piece (longer than any token), cut at every boundary between
 * two characters that no token of the vocabulary crosses (`CrossableBoundaries`): no merge crosses
 * such a boundary, so the parts merged apart give the piece's tokens. In runs of Thai, Devanagari,
 * Arabic or Cyrillic letters (random, or words without spaces) such boundaries fall every two to
 * four characters, and their parts of a few bytes cost a short linear merge each instead of heap
 * steps, segment edges and their checks. Where no cut is found for `uncutRun`, the rest of the
 * piece takes the segments.
 */
function countByCuts(bytes: Uint8Array, length: number, table: Ranks): number {
  return cutAndCount(bytes, length, table, false);
}

/**
 * `countShortBytePairTokens` of a piece of at most `shortLimit` bytes holding a non-ASCII byte (no
 * ids), cut like `countByCuts`; -1 when no boundary of it is cut (the piece may then be a token,
 * taken whole, which a merge of its parts would not find) or before the crossable boundaries are
 * built (see `bytesBeforeCuts`; such pieces count towards it). Random characters of any large
 * block (CJK, Hangul, symbols, all of the BMP) form pieces of up to 128 characters in which no
 * boundary is crossable (measured: under 1 % of them): each character is then merged alone, from a
 * memo by code point, instead of a merge of the whole piece whose every step looked up pairs never
 * met before.
 */
export function countPieceByCuts(bytes: Uint8Array, length: number, table: Ranks): number {
  if (!hasCrossableBoundaries(table.arrays)) {
    uncutBytes += length;
    if (uncutBytes < bytesBeforeCuts) return -1;
  }
  return cutAndCount(bytes, length, table, true);
}

/**
 * The loop of `countByCuts`; with `needsCut`, -1 when it cuts nothing. A part of one character is
 * counted from the memo by code point (`characterCounts`).
 */
function cutAndCount(bytes: Uint8Array, length: number, table: Ranks, needsCut: boolean): number {
  const boundaries = crossableBoundariesOf(table.arrays);
  let memo = partCounts.get(table.rankOf);
  if (memo === undefined) {
    memo = new PartCountMemo();
    partCounts.set(table.rankOf, memo);
  }
  const counts = characterCountsOf(table);
  cutCounts.pieces++;
  let total = 0;
  let partFrom = 0;
  let leftFrom = 0;
  let middle = characterEnd(bytes, 0, length);
  let left = codePointAt(bytes, 0, middle);
  while (middle < length) {
    const rightTo = characterEnd(bytes, middle, length);
    const right = codePointAt(bytes, middle, rightTo);
    if (!boundaries.crossable(bytes, leftFrom, middle, rightTo, left, right)) {
      total +=
        partFrom === leftFrom
          ? countCharacter(bytes, leftFrom, middle, left, table, counts)
          : countPart(bytes, partFrom, middle, table, memo);
      partFrom = middle;
      cutCounts.cuts++;
    } else if (middle - partFrom > uncutRun) break;
    else cutCounts.kept++;
    leftFrom = middle;
    middle = rightTo;
    left = right;
  }
  if (needsCut && partFrom === 0) return -1;
  return (
    total +
    (partFrom === leftFrom && middle === length
      ? countCharacter(bytes, leftFrom, length, left, table, counts)
      : countPart(bytes, partFrom, length, table, memo))
  );
}

// By code point, tokens of each character merged alone (plus one; 0 not yet known) in the low four
// bits, and of the character as a whole piece (taken whole when it is a token) in the high four:
// one array per rank table, 1.1 MB, of which text of one block touches a few KB.
const characterCounts = new WeakMap<RankTable['rankOf'], Uint8Array>();

function characterCountsOf(table: Ranks): Uint8Array {
  let counts = characterCounts.get(table.rankOf);
  if (counts === undefined) {
    counts = new Uint8Array(0x110000);
    characterCounts.set(table.rankOf, counts);
  }
  return counts;
}

/**
 * `countShortBytePairTokens` of a piece of one non-ASCII character (`bytes[0, length)`), memoised
 * by its code point: text of random characters has many such pieces (between symbols, digits,
 * case changes), which the memo by bytes hashed and missed in a megabyte of slots.
 */
export function countCharacterPiece(bytes: Uint8Array, length: number, table: Ranks): number {
  const point = codePointAt(bytes, 0, length);
  const counts = characterCountsOf(table);
  const known = counts[point]! >>> 4;
  if (known !== 0) return known - 1;
  const tokens = countShortBytePairTokens(bytes, length, table);
  counts[point] = (counts[point]! & 15) | ((tokens + 1) << 4);
  return tokens;
}

/** `countPart` of the one character `bytes[from, to)` (code point `point`), memoised in `counts`. */
function countCharacter(
  bytes: Uint8Array,
  from: number,
  to: number,
  point: number,
  table: Ranks,
  counts: Uint8Array,
): number {
  if (to - from <= 1) return to - from;
  const known = counts[point]! & 15;
  if (known !== 0) return known - 1;
  const tokens = mergeShort(bytes, from, to, table);
  counts[point] = (counts[point]! & 0xf0) | (tokens + 1);
  return tokens;
}

// Pieces scanned for cuts, boundaries cut and boundaries kept (crossable) since the process
// started: a test's probe.
const cutCounts = { pieces: 0, cuts: 0, kept: 0 };

/** Pieces scanned for cuts and their boundaries cut and kept, so far (a test's probe). */
export function cutProbe(): { pieces: number; cuts: number; kept: number } {
  return { ...cutCounts };
}

/** The end of the UTF-8 character at `from` (the bytes are valid UTF-8: a `Buffer` of a string). */
function characterEnd(bytes: Uint8Array, from: number, length: number): number {
  let end = from + 1;
  while (end < length && (bytes[end]! & 0xc0) === 0x80) end++;
  return end;
}

// Counts of short parts by their bytes, one memo per rank table (its lookup function), shared by
// its counters: a count is the rank table's alone.
const partCounts = new WeakMap<RankTable['rankOf'], PartCountMemo>();

/** Tokens of `bytes[from, to)`, a part of a longer piece: merged, never taken whole. */
function countPart(
  bytes: Uint8Array,
  from: number,
  to: number,
  table: Ranks,
  memo: PartCountMemo,
): number {
  const size = to - from;
  if (size <= 1) return size;
  if (size <= longestMemoisedPart) {
    let tokens = memo.get(bytes, from, to);
    if (tokens < 0) {
      tokens = mergeShort(bytes, from, to, table);
      memo.set(tokens);
    }
    return tokens;
  }
  if (size <= shortLimit) return mergeShort(bytes, from, to, table);
  const part = from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to);
  if (size > table.longestToken) return countSegmentedBytePairTokens(part, size, table);
  mergeSegment(part, 0, size, table, wholeHistory);
  return wholeHistory.parts;
}

/** The shared rank table with a memo of merged pairs of its own. */
export function withPairMemo(table: RankTable): Ranks {
  return { ...table, pairMemo: new PairMemo(), unitMemo: new UnitHistoryMemo() };
}

// The rank tables take ~0.1–0.25 s and tens of MB to build: one per encoding per process, shared
// by every encoder and counter.
const loadedRanks = new Map<TiktokenEncoding, RankTable>();

/** The rank table of `encoding`, read on first use, once per process. */
export function sharedRanks(encoding: TiktokenEncoding): RankTable {
  let ranks = loadedRanks.get(encoding);
  if (!ranks) {
    ranks = loadRanks(encoding);
    loadedRanks.set(encoding, ranks);
  }
  return ranks;
}

/**
 * The count of a piece of at most one byte, or of a piece that is itself a token (tiktoken takes it
 * whole, before any merging); -1 for any other piece.
 */
function wholeOrByte(
  bytes: Uint8Array,
  length: number,
  { rankOf, byteRanks }: Ranks,
  ids?: number[],
): number {
  if (length <= 1) {
    if (ids && length === 1) ids.push(byteRanks[bytes[0]!]!);
    return length;
  }
  const whole = rankOf(bytes, 0, length);
  if (whole === noRank) return -1;
  ids?.push(whole);
  return 1;
}

/**
 * Tokens of `bytes[0, length)` under `ranks`, merged exactly as tiktoken merges; their ids are
 * appended to `ids` when given.
 */
export function countBytePairTokens(
  bytes: Uint8Array,
  length: number,
  table: Ranks,
  ids?: number[],
): number {
  const trivial = wholeOrByte(bytes, length, table, ids);
  if (trivial >= 0) return trivial;
  // A piece that fits the segment merge's scratch is merged there, the same merge (a segment is
  // never taken whole, and this piece is no token): its heap of current pairs and direct lookups
  // of short pairs made pieces of 3,000 random letters ~35 % cheaper. Beyond that size the heap's
  // three arrays a position leave the cache (3 MB of random kana took ~1.8x as long), and the
  // heap below, of stale entries skipped when popped, is kept.
  if (length <= largestSegment) {
    mergeSegment(bytes, 0, length, table, wholeHistory);
    if (ids) {
      const { next, token } = segmentScratch!;
      for (let i = 0; i < length; i = next[i]!) ids.push(token[i]!);
    }
    return wholeHistory.parts;
  }
  oneHeapBytes += length;
  const { rankOf, pairs, byteRanks, pairMemo } = table;
  // Parts form a doubly linked list of their start positions.
  const next = new Int32Array(length + 1);
  const previous = new Int32Array(length + 1);
  const pairRank = new Int32Array(length).fill(noRank);
  // The token (its rank) each part currently is. The rank of a merged pair depends only on its two
  // tokens, so it is memoised by their ranks: a number lookup instead of slicing and hashing bytes.
  const token = new Int32Array(length);
  for (let i = 0; i <= length; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
  }
  for (let i = 0; i < length; i++) token[i] = byteRanks[bytes[i]!]!;
  const rankAt = (start: number): number => {
    const middle = next[start]!;
    if (middle >= length) return noRank;
    const left = token[start]!;
    const right = token[middle]!;
    const known = pairMemo.get(left, right);
    if (known !== unknownPair) return known;
    const rank = rankOf(bytes, start, next[middle]!);
    pairMemo.set(left, right, rank);
    return rank;
  };
  const heap = new MinHeap(length);
  for (let i = 0; i < length - 1; i++) {
    const rank = pairs[(bytes[i]! << 8) | bytes[i + 1]!]!;
    if (rank !== noRank) {
      pairRank[i] = rank;
      heap.add(rank * positionScale + i);
    }
  }
  heap.heapify();
  let parts = length;
  while (heap.size > 0) {
    const key = heap.pop();
    const rank = Math.floor(key / positionScale);
    const start = key - rank * positionScale;
    // A part that was absorbed into its left neighbour is no longer a start (its rank is reset).
    if (pairRank[start] !== rank) continue;
    // Merge the part at `start` with the next one.
    const absorbed = next[start]!;
    const after = next[absorbed]!;
    next[start] = after;
    if (after <= length) previous[after] = start;
    pairRank[absorbed] = noRank;
    // The merged part is the token whose rank was just merged on.
    token[start] = rank;
    parts--;
    const own = rankAt(start);
    pairRank[start] = own;
    if (own !== noRank) heap.push(own * positionScale + start);
    const before = previous[start]!;
    if (before >= 0) {
      const left = rankAt(before);
      pairRank[before] = left;
      if (left !== noRank) heap.push(left * positionScale + before);
    }
  }
  if (ids) for (let i = 0; i < length; i = next[i]!) ids.push(token[i]!);
  return parts;
}

// Bytes merged by one heap beyond a segment's size since the process started, for tests: that
// merge misses cache on every step and is kept for pieces whose segments keep being crossed.
let oneHeapBytes = 0;

/** Bytes of pieces merged by one heap larger than a segment so far (a test's probe). */
export function oneHeapMergedBytes(): number {
  return oneHeapBytes;
}

// Scratch of the short-piece merge: a piece of up to 128 UTF-16 units has at most 384 UTF-8 bytes.
const shortLimit = 512;
const shortTokens = new Int32Array(shortLimit);
const shortStarts = new Int32Array(shortLimit + 1);
const shortRanks = new Int32Array(shortLimit);

/**
 * The same merge for a short piece (at most 512 bytes) by tiktoken's own linear scan over a small
 * array, which beats a heap at these sizes; ids are appended to `ids` when given.
 */
export function countShortBytePairTokens(
  bytes: Uint8Array,
  length: number,
  table: Ranks,
  ids?: number[],
): number {
  if (length > shortLimit) return countBytePairTokens(bytes, length, table, ids);
  const trivial = wholeOrByte(bytes, length, table, ids);
  if (trivial >= 0) return trivial;
  return mergeShort(bytes, 0, length, table, ids);
}

// Counts of whole short pieces by their bytes, one memo per rank table (its lookup function): a
// piece's count, unlike a part's, is 1 when the piece is a token.
const pieceCounts = new WeakMap<RankTable['rankOf'], PartCountMemo>();

/**
 * `countShortBytePairTokens` of a piece of at most `longestMemoisedPart` bytes (no ids), through a
 * fixed-size memo keyed by its bytes. Text of short never-repeating pieces (lone surrogates, random
 * symbols or letters of any block split every few characters) missed the counter's string-keyed
 * memo on about half of its lookups, and each miss cost two map probes, an insertion and garbage:
 * lone surrogates counted at about 14x prose. This memo allocates nothing per piece.
 */
export function countMemoisedShortPiece(bytes: Uint8Array, length: number, table: Ranks): number {
  if (length <= 1) return length;
  let memo = pieceCounts.get(table.rankOf);
  if (memo === undefined) {
    memo = new PartCountMemo();
    pieceCounts.set(table.rankOf, memo);
  }
  let tokens = memo.get(bytes, 0, length);
  if (tokens < 0) {
    // Non-ASCII: a piece of two characters or more may be cut (`countPieceByCuts`).
    tokens = countPieceByCuts(bytes, length, table);
    if (tokens < 0) tokens = countShortBytePairTokens(bytes, length, table);
    memo.set(tokens);
  }
  return tokens;
}

/** The linear-scan merge of `bytes[from, to)` (at most `shortLimit` bytes), never taken whole. */
function mergeShort(
  bytes: Uint8Array,
  from: number,
  to: number,
  table: Ranks,
  ids?: number[],
): number {
  const length = to - from;
  const { pairs, byteRanks } = table;
  const tokens = shortTokens;
  const starts = shortStarts;
  const pairRanks = shortRanks;
  for (let i = 0; i < length; i++) {
    tokens[i] = byteRanks[bytes[from + i]!]!;
    starts[i] = from + i;
  }
  starts[length] = to;
  for (let i = 0; i < length - 1; i++)
    pairRanks[i] = pairs[(bytes[from + i]! << 8) | bytes[from + i + 1]!]!;
  let parts = length;
  for (;;) {
    // The lowest-ranked pair, the leftmost on ties, as tiktoken picks it.
    let best = noRank;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      const rank = pairRanks[i]!;
      if (rank < best) {
        best = rank;
        at = i;
      }
    }
    if (at < 0) break;
    tokens[at] = best;
    // Shifting a few slots by hand: `copyWithin` costs a call into the runtime each time.
    for (let i = at + 1; i < parts - 1; i++) {
      tokens[i] = tokens[i + 1]!;
      starts[i] = starts[i + 1]!;
      pairRanks[i] = pairRanks[i + 1]!;
    }
    starts[parts - 1] = starts[parts]!;
    parts--;
    if (at < parts - 1) pairRanks[at] = joinedRank(bytes, at, table);
    if (at > 0) pairRanks[at - 1] = joinedRank(bytes, at - 1, table);
  }
  if (ids) for (let i = 0; i < parts; i++) ids.push(tokens[i]!);
  return parts;
}

/**
 * The rank of short-merge parts i and i + 1 joined: from the recent pairs (see `recentPairs`), else
 * looked up directly when the joined bytes are few (`memoFloor`), else through the memo of token
 * pairs. Short pieces of rare characters (random text of any script) join pairs met once: the
 * pair memo's probe (megabytes) missed cache on each, then the rank table's as well.
 */
function joinedRank(bytes: Uint8Array, i: number, table: Ranks): number {
  const left = shortTokens[i]!;
  const right = shortTokens[i + 1]!;
  const rankOf = table.rankOf;
  if (recentOwner !== rankOf) {
    recentOwner = rankOf;
    recentPairs.fill(-1);
  }
  const slot = recentSlot(left, right);
  if (recentPairs[slot] === left && recentPairs[slot + 1] === right) return recentPairs[slot + 2]!;
  const start = shortStarts[i]!;
  const end = shortStarts[i + 2]!;
  let rank: number;
  if (end - start <= memoFloor) rank = rankOf(bytes, start, end);
  else {
    const memo = table.pairMemo;
    rank = memo.get(left, right);
    if (rank === unknownPair) {
      rank = rankOf(bytes, start, end);
      memo.set(left, right, rank);
    }
  }
  recentPairs[slot] = left;
  recentPairs[slot + 1] = right;
  recentPairs[slot + 2] = rank;
  return rank;
}

/** A binary min-heap of doubles, growable. */
class MinHeap {
  private items: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.items = new Float64Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.size === this.items.length) {
      const grown = new Float64Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    const items = this.items;
    let index = this.size++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent]!;
      if (above <= value) break;
      items[index] = above;
      index = parent;
    }
    items[index] = value;
  }

  /** Appends without ordering; call `heapify` before any `push` or `pop`. */
  add(value: number): void {
    this.items[this.size++] = value;
  }

  /** Orders the items in O(n), cheaper than n pushes. */
  heapify(): void {
    for (let index = (this.size >> 1) - 1; index >= 0; index--)
      this.siftDown(index, this.items[index]!);
  }

  pop(): number {
    const top = this.items[0]!;
    const last = this.items[--this.size]!;
    this.siftDown(0, last);
    return top;
  }

  /** Places `value` at `index` or below, moving smaller children up. */
  private siftDown(start: number, value: number): void {
    const items = this.items;
    const size = this.size;
    let index = start;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      if (child + 1 < size && items[child + 1]! < items[child]!) child++;
      if (items[child]! >= value) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = value;
  }
}

/**
 * The history of one segment's independent merge, enough to tell whether a merge could have
 * crossed its edges: the rank of each merge in order and, after each merge k (index 0 is the
 * start), the token and extent of its first and last parts.
 */
class MergeHistory implements EdgeHistory {
  ranks: Int32Array;
  firstTokens: Int32Array;
  firstEnds: Int32Array;
  lastTokens: Int32Array;
  lastStarts: Int32Array;
  steps = 0;
  parts = 0;
  lastSettled = 0;
  firstSettled = 0;
  from = 0;
  to = 0;
  memoGeneration = -1;
  memoIndex = -1;

  constructor(merges = 1024) {
    this.ranks = new Int32Array(merges);
    this.firstTokens = new Int32Array(merges + 1);
    this.firstEnds = new Int32Array(merges + 1);
    this.lastTokens = new Int32Array(merges + 1);
    this.lastStarts = new Int32Array(merges + 1);
  }

  reserve(merges: number): void {
    if (merges <= this.ranks.length) return;
    const size = Math.max(merges, this.ranks.length * 2);
    this.ranks = new Int32Array(size);
    this.firstTokens = new Int32Array(size + 1);
    this.firstEnds = new Int32Array(size + 1);
    this.lastTokens = new Int32Array(size + 1);
    this.lastStarts = new Int32Array(size + 1);
  }
}

// Long pieces are merged in segments of about this many bytes. tiktoken's merge order is global
// (lowest rank first over the whole piece), so one heap over a piece of a megabyte jumps across
// tens of MB of arrays and every step misses the cache; segments this size keep the working set in
// the first cache levels, which made 300,000 characters of random CJK ~2x faster per character.
const segmentBytes = 2_048;
// A segment whose edge is crossed is rerun joined with its neighbour, up to this size.
const largestSegment = 32_768;
// Edge positions considered per segment.
const edgeChoices = 64;

/**
 * Exactly `countBytePairTokens`, computed segment by segment. Merging the segments of a piece
 * independently gives the piece's tokens unless some merge crosses a segment edge; whether one
 * would is decided exactly by replaying, for each edge, the two neighbours' merge histories in the
 * global order (lowest rank, leftmost on ties) together with the pair that straddles the edge: a
 * crossing merge happens at the first state where that pair outranks both sides' next merges (or
 * is still a token when both are done). On such an edge the two segments are merged again as one;
 * when that keeps happening (a run of one letter, whose long tokens straddle every edge), the
 * whole piece takes the single-heap merge. Either way the count is tiktoken's, and the work stays
 * O(n log n): reruns are capped at half the piece's length before the fallback.
 */
export function countSegmentedBytePairTokens(
  bytes: Uint8Array,
  length: number,
  table: Ranks,
): number {
  if (length < segmentBytes * 2 || length <= table.longestToken)
    return countBytePairTokens(bytes, length, table);
  const byUnits = countByCharacterUnits(bytes, length, table);
  if (byUnits >= 0) return byUnits;
  return countSegments(bytes, 0, length, table, undefined, 0);
}

/**
 * Tokens of `bytes[from, length)` merged in segments (see `countSegmentedBytePairTokens`), given
 * that `bytes[0, from)` ends with the final unit `unit` (from `unitFrom`) of a unit count, whose
 * edge with the first segment is checked like any other (again when that segment is rejoined);
 * -1 when that edge is crossed, -2 when the segments give up (the caller then counts the whole
 * piece with one heap). Without a unit (`from` 0) neither: giving up counts the piece with one heap.
 */
function countSegments(
  bytes: Uint8Array,
  from: number,
  length: number,
  table: Ranks,
  unit: EdgeHistory | undefined,
  unitFrom: number,
): number {
  const giveUp = () => (unit ? -2 : countBytePairTokens(bytes, length, table));
  // `settled` passed its check against `left`; its count is final once `left` stops changing.
  let settled: MergeHistory | undefined;
  let left = histories[0]!;
  let right = histories[1]!;
  let spare = histories[2]!;
  let free = histories[3]!;
  // Reruns may cost at most half the piece again, and stop early when more than one edge in four
  // is crossed (runs of letters: their long tokens often straddle), where one heap is cheaper.
  let budget = (length - from) >> 1;
  let edges = 0;
  let joins = 0;
  let total = 0;
  // Edges are chosen by byte pairs until one is crossed, by a narrow window's merge until one is
  // crossed again, by a wide window's after that (see `segmentEnd`).
  let choice = byPairs;
  mergeSegment(bytes, from, segmentEnd(bytes, from, length, table, choice), table, left);
  if (unit && crossesEdge(bytes, unit, unitFrom, left, 0, table)) return -1;
  while (left.to < length) {
    mergeSegment(bytes, left.to, segmentEnd(bytes, left.to, length, table, choice), table, right);
    edges++;
    if (!crossesEdge(bytes, left, 0, right, 0, table)) {
      if (settled) {
        total += settled.parts;
        free = settled;
      }
      settled = left;
      left = right;
      right = free;
      continue;
    }
    // The narrow window's first crossed edge tells of long tokens, not of edges crossed often: it
    // is not counted towards giving up (which, counted, the runs of whitespace it met then did).
    if (choice === byNarrowWindow) choice = byWideWindow;
    else {
      joins++;
      choice = choice === byPairs ? byNarrowWindow : choice;
    }
    const size = right.to - left.from;
    budget -= size;
    if (budget < 0 || size > largestSegment || (edges >= 8 && joins * 4 > edges)) return giveUp();
    mergeSegment(bytes, left.from, right.to, table, spare);
    // The joined segment's first part may merge differently from `left`'s: check its left edge
    // again (against the unit before the first segment: crossed, the hand-back tries an earlier one).
    if (settled) {
      if (crossesEdge(bytes, settled, 0, spare, 0, table)) return giveUp();
    } else if (unit && crossesEdge(bytes, unit, unitFrom, spare, 0, table)) return -1;
    const old = left;
    left = spare;
    spare = old;
  }
  return total + (settled?.parts ?? 0) + left.parts;
}

const histories = [new MergeHistory(), new MergeHistory(), new MergeHistory(), new MergeHistory()];
// The history of `countBytePairTokens`'s merges in the segment scratch (unread).
const wholeHistory = new MergeHistory();

/**
 * About `segmentBytes` from `from`: a position where the merge of a window of the bytes around it
 * ends a token, the nearest to the target (the check decides; this only makes reruns rare). Which
 * edges tokens leave uncrossed depends on their merges, not on single byte pairs: an edge between
 * two letters of a multi-byte script sits between a character's last byte and the next one's
 * first, a pair that is a token of almost any two characters, while whether the two characters
 * merge is what counts; in runs of whitespace tokens are tens of bytes long and most edges fall
 * inside one. A boundary of the window's own merge away from the window's ends is, with few
 * exceptions, a boundary of the piece's. Where the window shows none near the target (one token
 * over the whole middle), the byte-pair choice below.
 */
function segmentEnd(
  bytes: Uint8Array,
  from: number,
  length: number,
  table: Ranks,
  choice: number,
): number {
  const target = from + segmentBytes;
  if (target >= length - segmentBytes / 2) return length;
  if (choice === byPairs) return pairEdge(bytes, target, table.pairs);
  // A narrow window while its edges hold: in runs of letters tokens are a few bytes, and the wide
  // window merged a quarter as many bytes again as the segments themselves. In runs of whitespace
  // tokens are tens of bytes, a narrow window's boundaries are not the piece's, and its edges are
  // crossed (then the wide one; also where the narrow one's middle is one token).
  if (choice === byNarrowWindow) {
    const narrow = windowEdge(bytes, target, narrowEdgeWindow, table);
    if (narrow > 0) return narrow;
  }
  const wide = windowEdge(bytes, target, edgeWindow, table);
  return wide > 0 ? wide : pairEdge(bytes, target, table.pairs);
}

/**
 * The boundary of the merge of `bytes[target - window, target + window)` nearest to `target`,
 * within `window / 2` of it; -1 when there is none.
 */
function windowEdge(bytes: Uint8Array, target: number, window: number, table: Ranks): number {
  const windowFrom = target - window;
  mergeSegment(bytes, windowFrom, target + window, table, windowHistory);
  const { next } = segmentScratch!;
  let best = -1;
  for (let i = 0; i < 2 * window; i = next[i]!) {
    const distance = Math.abs(i - window);
    if (distance <= window / 2 && (best < 0 || distance < Math.abs(best - window))) best = i;
  }
  return best > 0 ? windowFrom + best : -1;
}

/**
 * Among the last `edgeChoices` starts of UTF-8 characters before `target`, the edge least likely
 * to be crossed by its byte pairs: an edge between bytes x | y is crossed when the pair xy merges
 * first; it rarely does when x and y each have a neighbour of lower rank (they merge away from the
 * edge), and never when xy is no token at all: prefer the highest rank of xy above its neighbours'.
 */
function pairEdge(bytes: Uint8Array, target: number, pairs: Int32Array): number {
  let best = target;
  let bestScore = -Infinity;
  for (let end = target; end > target - edgeChoices; end--) {
    if ((bytes[end]! & 0xc0) === 0x80) continue;
    const across = pairs[(bytes[end - 1]! << 8) | bytes[end]!]!;
    const before = pairs[(bytes[end - 2]! << 8) | bytes[end - 1]!]!;
    const after = pairs[(bytes[end]! << 8) | bytes[end + 1]!]!;
    const score = across - Math.max(before, after);
    if (score > bestScore) {
      bestScore = score;
      best = end;
    }
  }
  return best;
}

// Bytes either side of a segment's target edge merged to choose it: more than the longest token
// of o200k's runs of whitespace, so the window's middle merges as the piece does.
const edgeWindow = 256;
const narrowEdgeWindow = 64;
// How `segmentEnd` chooses edges.
const byPairs = 0;
const byNarrowWindow = 1;
const byWideWindow = 2;
const windowHistory = new MergeHistory();

/**
 * Whether the global merge of `left` and `right` side by side (histories of their independent
 * merges, positions relative to `leftOffset` and `rightOffset`) would merge across the edge between
 * them. Ties go to the leftmost pair: the left segment's pairs, then the straddling pair, then the
 * right segment's.
 */
function crossesEdge(
  bytes: Uint8Array,
  left: EdgeHistory,
  leftOffset: number,
  right: EdgeHistory,
  rightOffset: number,
  { rankOf, pairMemo }: Ranks,
): boolean {
  let i = 0;
  let j = 0;
  let leftToken = -1;
  let rightToken = -1;
  let straddling = noRank;
  for (;;) {
    const lastToken = left.lastTokens[i]!;
    const firstToken = right.firstTokens[j]!;
    if (lastToken !== leftToken || firstToken !== rightToken) {
      leftToken = lastToken;
      rightToken = firstToken;
      straddling = pairMemo.get(lastToken, firstToken);
      if (straddling === unknownPair) {
        straddling = rankOf(
          bytes,
          leftOffset + left.lastStarts[i]!,
          rightOffset + right.firstEnds[j]!,
        );
        pairMemo.set(lastToken, firstToken, straddling);
      }
    }
    // Both tokens beside the edge are final: the straddling pair merges, at the latest once both
    // sides are done, unless it is no token.
    if (i >= left.lastSettled && j >= right.firstSettled) return straddling !== noRank;
    const leftNext = i < left.steps ? left.ranks[i]! : noRank;
    const rightNext = j < right.steps ? right.ranks[j]! : noRank;
    if (straddling < leftNext && straddling <= rightNext) return true;
    if (leftNext === noRank && rightNext === noRank) return false;
    if (leftNext <= rightNext) i++;
    else j++;
  }
}

/**
 * The last merged ranks of token pairs met by segment merges, direct-mapped (a pair takes its slot
 * from whichever pair held it): 256 KB, in the second cache level (48 KB of 4,096 pairs missed
 * more often on scripts of many syllable tokens, Devanagari, Thai). A segment of a long run in one
 * script meets the same few thousand pairs of tokens over and over (letters, their syllables);
 * the pair memo, of megabytes, and the rank table's filter and slots (2.25 MB) each cost a cache
 * miss a lookup, most of a merge step on random letters of Cyrillic, Arabic, Thai or Devanagari.
 * A pair's rank is a function of the two tokens under one rank table: `recentOwner` is the
 * table's lookup the slots were filled by, and another table's merge empties them.
 */
const recentBits = 14;
// Slot s holds its pair's left token, right token and rank at 4s, 4s + 1 and 4s + 2: one cache line
// a lookup (three arrays cost three misses once the slots outgrew the first cache level).
const recentPairs = new Int32Array(4 << recentBits).fill(-1);
let recentOwner: RankTable['rankOf'] | undefined;

function recentSlot(left: number, right: number): number {
  return ((Math.imul(left, 0x9e3779b1) ^ Math.imul(right, 0x85ebca6b)) >>> (32 - recentBits)) << 2;
}

// A sweep goes on while it merges at least one part in this many.
const sweepShare = 8;

// Scratch of the segment merge (segments stay under `largestSegment` bytes).
// Allocated on the first long piece, not at import (about 0.8 MB, and the queue's 2.3 MB of buckets).
let segmentScratch:
  | {
      next: Int32Array;
      previous: Int32Array;
      pairRank: Int32Array;
      token: Int32Array;
      queue: RankQueue;
    }
  | undefined;

/**
 * tiktoken's merge of `bytes[from, to)` alone (never taken whole: a segment of a piece longer than
 * any token is merged, not looked up), recording its history in `history`.
 */
function mergeSegment(
  bytes: Uint8Array,
  from: number,
  to: number,
  { rankOf, pairs, byteRanks, pairMemo }: Ranks,
  history: MergeHistory,
): void {
  const length = to - from;
  history.reserve(length);
  history.from = from;
  history.to = to;
  segmentScratch ??= {
    next: new Int32Array(largestSegment + 1),
    previous: new Int32Array(largestSegment + 1),
    pairRank: new Int32Array(largestSegment),
    token: new Int32Array(largestSegment),
    queue: new RankQueue(largestSegment),
  };
  const { next, previous, pairRank, token, queue } = segmentScratch;
  if (recentOwner !== rankOf) {
    recentOwner = rankOf;
    recentPairs.fill(-1);
  }
  for (let i = 0; i <= length; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
  }
  for (let i = 0; i < length; i++) token[i] = byteRanks[bytes[from + i]!]!;
  pairRank.fill(noRank, 0, length);
  const rankAt = (start: number): number => {
    const middle = next[start]!;
    if (middle >= length) return noRank;
    const leftToken = token[start]!;
    const rightToken = token[middle]!;
    const slot = recentSlot(leftToken, rightToken);
    if (recentPairs[slot] === leftToken && recentPairs[slot + 1] === rightToken)
      return recentPairs[slot + 2]!;
    const end = next[middle]!;
    let rank: number;
    if (end - start <= memoFloor) rank = rankOf(bytes, from + start, from + end);
    else {
      rank = pairMemo.get(leftToken, rightToken);
      if (rank === unknownPair) {
        rank = rankOf(bytes, from + start, from + end);
        pairMemo.set(leftToken, rightToken, rank);
      }
    }
    recentPairs[slot] = leftToken;
    recentPairs[slot + 1] = rightToken;
    recentPairs[slot + 2] = rank;
    return rank;
  };
  for (let i = 0; i < length - 1; i++)
    pairRank[i] = pairs[(bytes[from + i]! << 8) | bytes[from + i + 1]!]!;
  const { ranks, firstTokens, firstEnds, lastTokens, lastStarts } = history;
  let lastStart = length - 1;
  firstTokens[0] = token[0]!;
  firstEnds[0] = from + 1;
  lastTokens[0] = token[lastStart]!;
  lastStarts[0] = from + lastStart;
  let steps = 0;
  // Sweeps: while the least rank of the current pairs is shared by many of them (the first byte
  // pairs of a script's letters, a run of one symbol), they are merged left to right in one pass,
  // as tiktoken would merge them one after another: each is the least pair (rank, position) when
  // merged, as long as no merge creates a pair of that rank or less (then the queue takes over).
  // A sweep's pass also gathers the least rank for the next one, a bound from below: the least of
  // every rank it passed or wrote (a rank passed may be rewritten higher later in the pass, when its
  // right neighbour merges). Equal to the least current rank, or below all of them: then a sweep
  // finds no pair of it, and one scan gives the exact least (sweeps merge only pairs of the least
  // current rank, tiktoken's next merges; a bound above it would merge out of order).
  let parts = length;
  let least = leastRank(pairRank, next, length);
  let exact = true;
  for (;;) {
    if (least === noRank) break;
    if (!exact) sweepCounts.gathered++;
    let merged = 0;
    let undercut = false;
    let bound = noRank;
    for (let start = 0; start < length; start = next[start]!) {
      const current = pairRank[start]!;
      if (current !== least) {
        if (current < bound) bound = current;
        continue;
      }
      const absorbed = next[start]!;
      const after = next[absorbed]!;
      next[start] = after;
      if (after <= length) previous[after] = start;
      pairRank[absorbed] = noRank;
      token[start] = least;
      if (absorbed === lastStart) lastStart = start;
      ranks[steps++] = least;
      firstTokens[steps] = token[0]!;
      firstEnds[steps] = from + next[0]!;
      lastTokens[steps] = token[lastStart]!;
      lastStarts[steps] = from + lastStart;
      merged++;
      const own = rankAt(start);
      pairRank[start] = own;
      const before = previous[start]!;
      const leftRank = before >= 0 ? rankAt(before) : noRank;
      if (before >= 0) pairRank[before] = leftRank;
      if (own <= least || leftRank <= least) {
        undercut = true;
        break;
      }
      if (own < bound) bound = own;
      if (leftRank < bound) bound = leftRank;
    }
    if (merged === 0 && !exact) {
      // The bound was below every current rank: the exact least, and sweep again.
      sweepCounts.rescans++;
      least = leastRank(pairRank, next, length);
      exact = true;
      continue;
    }
    parts -= merged;
    // A sweep reads every part: it pays while it merges a good share of them.
    if (undercut || merged * sweepShare < parts) break;
    least = bound;
    exact = false;
  }
  queue.reset(length);
  for (let i = 0; i < length; i = next[i]!) if (pairRank[i] !== noRank) queue.set(i, pairRank[i]!);
  while (queue.size > 0) {
    // Every entry is current: the least is the next merge.
    const start = queue.top();
    const rank = pairRank[start]!;
    const absorbed = next[start]!;
    const after = next[absorbed]!;
    next[start] = after;
    if (after <= length) previous[after] = start;
    pairRank[absorbed] = noRank;
    queue.remove(absorbed);
    token[start] = rank;
    if (absorbed === lastStart) lastStart = start;
    ranks[steps++] = rank;
    firstTokens[steps] = token[0]!;
    firstEnds[steps] = from + next[0]!;
    lastTokens[steps] = token[lastStart]!;
    lastStarts[steps] = from + lastStart;
    const own = rankAt(start);
    pairRank[start] = own;
    if (own !== noRank) queue.set(start, own);
    else queue.remove(start);
    const before = previous[start]!;
    if (before >= 0) {
      const leftRank = rankAt(before);
      pairRank[before] = leftRank;
      if (leftRank !== noRank) queue.set(before, leftRank);
      else queue.remove(before);
    }
  }
  history.steps = steps;
  history.parts = length - steps;
  history.lastSettled = settledStep(lastTokens, lastStarts, steps);
  history.firstSettled = settledStep(firstTokens, firstEnds, steps);
}

/** The least rank of the current pairs of a segment merge's parts (`noRank` for none). */
function leastRank(pairRank: Int32Array, next: Int32Array, length: number): number {
  let least = noRank;
  for (let i = 0; i < length; i = next[i]!) if (pairRank[i]! < least) least = pairRank[i]!;
  return least;
}

// Sweeps of segment merges on a gathered least rank, and those of them that matched no pair (the
// parts then scanned again for the least), since the process started: a test's probe.
const sweepCounts = { gathered: 0, rescans: 0 };

/** Sweeps on a gathered least rank, and rescans, so far (a test's probe). */
export function sweepProbe(): { gathered: number; rescans: number } {
  return { ...sweepCounts };
}

/** The first step of `steps` after which a part's token (and extent) stays the same to the end. */
function settledStep(tokens: Int32Array, extents: Int32Array, steps: number): number {
  let step = steps;
  while (step > 0 && tokens[step - 1] === tokens[step] && extents[step - 1] === extents[step])
    step--;
  return step;
}

// A joined unit longer than this ends the unit count (the segments take the piece): units grow this
// long only where merges keep crossing character edges (runs of letters), where units save nothing.
const largestUnit = 64;

/**
 * `countBytePairTokens` of a long piece by units of one UTF-8 character, with the histories of
 * their independent merges memoised by their bytes; -1 when units do not pay (the caller then
 * counts by segments). A long run without whitespace of CJK, kana, box drawing or emoji repeats
 * few distinct characters, and most of the merging happens inside them: from the memo each costs
 * a lookup and a short edge check instead of several heap steps.
 *
 * Exact, by the argument of `countSegmentedBytePairTokens`, which holds for any partition into
 * units: while no merge crosses an edge, every unit evolves as in its independent merge (the
 * lowest-ranked pair of the piece is then some unit's next merge, and a unit's pairs depend on its
 * bytes alone), and the global order restricted to two neighbours is their histories interleaved
 * by (rank, position), which `crossesEdge` replays. A crossing merge happens only if some edge's
 * replay finds the straddling pair outranking both neighbours' next merges; so when every edge
 * between the final units passes, the piece's tokens are the units' tokens. A crossed edge joins
 * its two units into one, merged again from its bytes, and the joined unit is checked against its
 * left neighbour again (joining further left while that crosses); its right edge is checked when
 * the next unit arrives. Every edge between final units is thus checked with final histories.
 *
 * Cost stays linear: a unit never exceeds `largestUnit` bytes, and the count gives up once the
 * bytes merged on memo misses exceed an eighth of the bytes read plus `unitWarmUp`. A miss (a merge,
 * a copied history, a memo entry) costs several times a segment's merge of the same bytes, so units
 * pay only where nearly all are hits (a few distinct characters); where characters are many
 * (random CJK from the whole block, Hangul syllables), they give up within a few hundred bytes.
 */
function countByCharacterUnits(bytes: Uint8Array, length: number, table: Ranks): number {
  const memo = table.unitMemo;
  let missed = 0;
  let total = 0;
  let position = 0;
  const historyOf = (from: number, to: number): EdgeHistory => {
    const key = unitKey(bytes, from, to);
    let history = memo.get(key);
    if (history === undefined) {
      missed += to - from;
      const scratch = histories[0]!;
      mergeSegment(bytes, from, to, table, scratch);
      history = relativeCopy(scratch, from);
      memo.set(key, history);
    }
    return history;
  };
  // The last units, in a ring: a join reaches back at most `largestUnit` bytes, so fewer units.
  const starts = unitStarts;
  const units = unitRing;
  let top = 0;
  let depth = 0;
  while (position < length) {
    let end = position + 1;
    while (end < length && (bytes[end]! & 0xc0) === 0x80) end++;
    let from = position;
    let history = historyOf(from, end);
    while (depth > 0) {
      const before = (top - 1) & ringMask;
      const left = units[before]!;
      const leftFrom = starts[before]!;
      let crossed = memo.crossing(left, history);
      if (crossed < 0) {
        crossed = crossesEdge(bytes, left, leftFrom, history, from, table) ? 1 : 0;
        memo.setCrossing(left, history, crossed === 1);
      }
      if (crossed === 0) break;
      if (end - leftFrom > largestUnit) return handBack(bytes, length, table, total, top, depth);
      top = before;
      depth--;
      total -= left.parts;
      from = leftFrom;
      history = historyOf(from, end);
    }
    if (missed > (end >> 3) + unitWarmUp) return handBack(bytes, length, table, total, top, depth);
    starts[top] = from;
    units[top] = history;
    top = (top + 1) & ringMask;
    if (depth < ringMask) depth++;
    total += history.parts;
    position = end;
  }
  return total;
}

/**
 * Where the unit count gives up (`total` the parts of every unit so far, the last `depth` of them in
 * the ring below `top`), the count of the piece from its units up to some unit L and segments after
 * L, instead of counting the whole piece again by segments: a unit count may give up late (a long
 * run of CJK ending in a run of Latin letters), and the units before are then most of the work.
 * Every edge before L's end was checked between final units, and the edge after L is checked
 * against the first segment (`countSegments`), so every edge between final parts is checked: exact
 * by the argument of `countByCharacterUnits`. The last unit is merged again in the segments (it may
 * still have been joined); when L's edge is crossed, L moves back a unit, up to `handBackTries`
 * times; -1 after that (the caller counts by segments from the start, as before). When the
 * segments give up (edges crossed too often: runs of one letter), the piece takes one heap, as it
 * would after segments from the start: trying again from another unit would give up the same way.
 */
function handBack(
  bytes: Uint8Array,
  length: number,
  table: Ranks,
  total: number,
  top: number,
  depth: number,
): number {
  let before = total;
  for (let back = 1; back <= handBackTries && back < depth; back++) {
    // Units above L (from `top - back` on) are merged again in the segments.
    const dropped = (top - back) & ringMask;
    before -= unitRing[dropped]!.parts;
    const index = (dropped - 1) & ringMask;
    const rest = countSegments(
      bytes,
      unitStarts[dropped]!,
      length,
      table,
      unitRing[index],
      unitStarts[index]!,
    );
    if (rest >= 0) return before + rest;
    if (rest === -2) return countBytePairTokens(bytes, length, table);
  }
  return -1;
}

// Units stepped back over when a hand-back's first edge is crossed: each try costs a segment's merge.
const handBackTries = 4;

// Bytes of misses allowed beyond an eighth of the bytes read: a piece's first distinct characters
// and joins (about 85 of three bytes), after which a piece of few distinct characters hits.
const unitWarmUp = 256;

// Twice the most units a join can reach back over (each unit is at least one byte).
const ringMask = 2 * largestUnit - 1;
const unitStarts = new Int32Array(ringMask + 1);
const unitRing: EdgeHistory[] = [];

/**
 * A copy of `history` (of a segment from `from`) sized to its merges, its positions relative to
 * `from`. Of the same class, so that the edge check reads one shape of history.
 */
function relativeCopy(history: MergeHistory, from: number): EdgeHistory {
  const steps = history.steps;
  const copy = new MergeHistory(steps);
  copy.ranks.set(history.ranks.subarray(0, steps));
  copy.firstTokens.set(history.firstTokens.subarray(0, steps + 1));
  copy.lastTokens.set(history.lastTokens.subarray(0, steps + 1));
  for (let k = 0; k <= steps; k++) {
    copy.firstEnds[k] = history.firstEnds[k]! - from;
    copy.lastStarts[k] = history.lastStarts[k]! - from;
  }
  copy.steps = steps;
  copy.parts = history.parts;
  copy.lastSettled = history.lastSettled;
  copy.firstSettled = history.firstSettled;
  copy.to = history.to - from;
  return copy;
}
