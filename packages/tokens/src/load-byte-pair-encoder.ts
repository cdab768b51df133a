import type { Encoder, EncoderLoader } from './load-encoder.js';
import {
  countBytePairTokens,
  countCharacterPiece,
  countMemoisedShortPiece,
  countPieceByCuts,
  countShortBytePairTokens,
  type Ranks,
  sharedRanks,
  withPairMemo,
} from './long-piece-counter.js';
import { longestMemoisedPart } from './part-count-memo.js';
import { splitPattern } from './split-pattern.js';
import type { TiktokenEncoding } from './types.js';

const utf8 = new TextEncoder();
// Scratch for a piece's UTF-8 bytes: at most 3 bytes per UTF-16 unit.
let scratch = new Uint8Array(1024);

// A short piece's code units: strings and ranges of a counter's buffer share the non-ASCII path.
const pieceUnits = new Uint16Array(128);

function pieceTokens(piece: string, ranks: Ranks, ids?: number[]): number {
  const units = piece.length;
  if (units * 3 > scratch.length) scratch = new Uint8Array(units * 3);
  const bytes = scratch;
  let length = 0;
  for (; length < units; length++) {
    const code = piece.charCodeAt(length);
    if (code >= 128) break;
    bytes[length] = code;
  }
  if (length < units) {
    if (units > 128) length = utf8.encodeInto(piece, bytes).written;
    else {
      for (let i = 0; i < units; i++) pieceUnits[i] = piece.charCodeAt(i);
      return unitRangeTokens(pieceUnits, 0, units, ranks, ids);
    }
  }
  return units <= 128
    ? countShortBytePairTokens(bytes, length, ranks, ids)
    : countBytePairTokens(bytes, length, ranks, ids);
}

/** Tokens of the piece whose UTF-16 code units are `units[start, end)`, at most 128 of them. */
function unitRangeTokens(
  units: Uint16Array,
  start: number,
  end: number,
  ranks: Ranks,
  ids?: number[],
): number {
  const count = end - start;
  // `scratch` never shrinks below its first 1,024 bytes: room for 128 units of 3 bytes.
  const bytes = scratch;
  let length = 0;
  for (; length < count; length++) {
    const code = units[start + length]!;
    if (code >= 128) break;
    bytes[length] = code;
  }
  // Anything but ASCII is encoded as UTF-8 by hand (lone surrogates as U+FFFD, like tiktoken's
  // conversion of a JavaScript string): at this length the platform's call cost more than the loop.
  if (length < count) {
    const ascii = length;
    length = encodeRest(units, start + ascii, end, bytes, ascii);
    if (ids === undefined) {
      // One character (a non-ASCII unit or a surrogate pair): counted by its code point.
      if (ascii === 0 && (count === 1 || (count === 2 && length === 4 && isPair(units, start))))
        return countCharacterPiece(bytes, length, ranks);
      if (length <= longestMemoisedPart) return countMemoisedShortPiece(bytes, length, ranks);
      const tokens = countPieceByCuts(bytes, length, ranks);
      if (tokens >= 0) return tokens;
    }
  }
  return countShortBytePairTokens(bytes, length, ranks, ids);
}

/**
 * Writes the UTF-8 bytes of `units[from, end)` into `bytes` from index `at` and returns the end;
 * a lone surrogate becomes U+FFFD.
 */
function encodeRest(
  units: Uint16Array,
  from: number,
  end: number,
  bytes: Uint8Array,
  at: number,
): number {
  for (let i = from; i < end; i++) {
    let code = units[i]!;
    if (code < 0x80) bytes[at++] = code;
    else if (code < 0x800) {
      bytes[at++] = 0xc0 | (code >>> 6);
      bytes[at++] = 0x80 | (code & 0x3f);
    } else {
      if (code >= 0xd800 && code <= 0xdfff) {
        const low = i + 1 < end ? units[i + 1]! : 0;
        if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i++;
          bytes[at++] = 0xf0 | (code >>> 18);
          bytes[at++] = 0x80 | ((code >>> 12) & 0x3f);
          bytes[at++] = 0x80 | ((code >>> 6) & 0x3f);
          bytes[at++] = 0x80 | (code & 0x3f);
          continue;
        }
        code = 0xfffd;
      }
      bytes[at++] = 0xe0 | (code >>> 12);
      bytes[at++] = 0x80 | ((code >>> 6) & 0x3f);
      bytes[at++] = 0x80 | (code & 0x3f);
    }
  }
  return at;
}

/** Whether `units[start]` and `units[start + 1]` are a surrogate pair (one astral character). */
function isPair(units: Uint16Array, start: number): boolean {
  const high = units[start]!;
  const low = units[start + 1]!;
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/**
 * A pure-JavaScript tiktoken encoder: the encoding's published ranks (`@dqbd/tiktoken`'s encoder
 * files, read once per process on first use, for o200k from the table the package build derived
 * from them: a few ms of CPU against ~0.35 s to instantiate the WASM encoder, and tens of MB
 * instead of ~90) merged exactly as tiktoken merges (lowest rank
 * first, leftmost on ties, a piece that is a token stays whole). The default of `createTokenCounter`.
 */
export const loadBytePairEncoder: EncoderLoader = (encoding: TiktokenEncoding): Encoder =>
  // Its own memo of merged pairs: an encoder from a fresh loader starts with nothing seen.
  new BytePairEncoder(withPairMemo(sharedRanks(encoding)), encoding);

/**
 * The encoder `loadBytePairEncoder` returns. A class rather than an object of closures: a counter's
 * optimised code that inlined one encoder's closure deoptimised on the next encoder's (a fresh
 * closure each), on every fresh counter.
 */
export class BytePairEncoder implements Encoder {
  private readonly ranks: Ranks;
  private readonly encoding: TiktokenEncoding;
  // Built on the first `encode_ordinary`: counters call `countOrdinary` on pieces they split
  // themselves, and constructing the Unicode pattern cost ~4 ms of a cold start.
  private pattern: RegExp | undefined;

  constructor(ranks: Ranks, encoding: TiktokenEncoding) {
    this.ranks = ranks;
    this.encoding = encoding;
  }

  encode_ordinary(text: string): Uint32Array {
    this.pattern ??= splitPattern(this.encoding);
    const ids: number[] = [];
    for (const piece of text.match(this.pattern) ?? []) pieceTokens(piece, this.ranks, ids);
    return Uint32Array.from(ids);
  }

  countOrdinary(piece: string): number {
    return pieceTokens(piece, this.ranks);
  }

  /** `countOrdinary` of the piece whose UTF-16 code units are `units[start, end)`, at most 128. */
  countUnits(units: Uint16Array, start: number, end: number): number {
    return unitRangeTokens(units, start, end, this.ranks);
  }

  /**
   * `countUnits` of a piece whose code units are all ASCII (so also its UTF-8 bytes), at most 128
   * of them.
   */
  countAscii(units: Uint16Array, start: number, end: number): number {
    const length = end - start;
    const bytes = scratch;
    for (let i = 0; i < length; i++) bytes[i] = units[start + i]!;
    return countShortBytePairTokens(bytes, length, this.ranks);
  }
}
