import { CodeUnitBuffer } from './code-unit-buffer.js';
import { GenerationalCache } from './generational-cache.js';
import { isPatternSpace } from './is-pattern-space.js';
import { BytePairEncoder } from './load-byte-pair-encoder.js';
import type { Encoder } from './load-encoder.js';
import { countLongPiece, type Ranks, sharedRanks, withPairMemo } from './long-piece-counter.js';
import { MemoBypass } from './memo-bypass.js';
import { nextCl100kPieceEnd, nextO200kPieceEnd } from './next-ascii-piece-end.js';
import { nextNeedingUnicode } from './next-needing-unicode.js';
import {
  nextCl100kUnicodePieceEnd,
  nextO200kUnicodePieceEnd,
  scannableStretch,
} from './next-unicode-piece-end.js';
import { longestPackedPiece, PackedPieceMemo, packHead, packTail } from './packed-piece-memo.js';
import { hashRange, PieceMemo } from './piece-memo.js';
import { asciiSplitPattern, splitPattern } from './split-pattern.js';
import { TokenizerError } from './tokenizer-error.js';
import type { TiktokenEncoding } from './types.js';

/** Length of the parts a run too long for the split pattern is counted in (see `countInParts`). */
const overflowPartLength = 1 << 18;

/** Exact token counts for one encoder, memoised per pre-tokenisation piece. */
export interface PieceCounter {
  count(text: string): number;
}

const pieceCacheGeneration = 65_536;
// Short pieces live in a count-bounded cache. Longer ones (unpunctuated CJK runs, base64, runs of
// one symbol) are keyed by the string itself in a second cache bounded by characters, so a long
// piece seen again costs one hash and one comparison instead of a BPE pass, and memory stays bounded.
// Longer pieces also leave the WASM encoder, whose merge loop is quadratic in the piece length:
// they go to the heap-based merge of long-piece-counter.ts (same tokens, O(n log n)). 128 is about
// where the two cost the same (measured on runs of letters, CJK and box drawing).
const longestShortPiece = 128;
const longPieceGeneration = 4_096;
const longPieceCharacters = 4_000_000;
const initialRanges = 64;
const retainedRanges = 1 << 12;
/**
 * Tiktoken runs BPE on each piece of its pre-tokenisation split independently, so a piece's count
 * never depends on its neighbours: memoising counts per piece is exact, and only pieces not seen
 * before reach the WASM encoder. Splitting is the remaining cost, so stretches of text without
 * non-ASCII letters, numbers, marks or spaces use an ASCII-class copy of the pattern, which runs
 * several times faster than Unicode property classes.
 */
export function createPieceCounter(encoder: Encoder, encoding: TiktokenEncoding): PieceCounter {
  const counter = new MemoisedPieceCounter(encoder, encoding);
  if (encoder instanceof BytePairEncoder && !warmedUp.has(encoding)) {
    warmedUp.add(encoding);
    warmUp(encoder, encoding);
  }
  return counter;
}

/**
 * Text through every branch of the ASCII scan and of the counter's loop: words of each case shape,
 * every contraction in both cases, runs of digits, symbols before line breaks and `/`, a space
 * before symbols, runs of spaces, tabs and line breaks (also at the very end), symbols above 127,
 * pieces of every length class (one character, packed, memoised by range, over 128 units), each
 * at least twice so the memos' hits are met too.
 */
const warmUpBlock = [
  "The quick Brown fox's HTTP XMLHttpRequest internationalization; it'S they're WE'VE I'm",
  "you'll he'd don't ll'x ' 7 42 123 1234567 (a, b.) {c}: [d]; \"e\" `f` $g #h @i !j ?k %l",
  '^m &n *o +p =q |r ~s <t> \\u => ->\n//\n */\r\n?/ x/y\n  word\t\tword a \n\n b line \r\n',
  '\u2192 \u2014 \u201cquoted\u201d \u2026 \u2502\u2500\u2500\u2502\n',
  '='.repeat(longestShortPiece + 8),
  '\n',
].join(' ');
export const warmUpText = `${warmUpBlock}${warmUpBlock}end \t  `;
// Encodings whose loops have met `warmUpText` in this process.
const warmedUp = new Set<TiktokenEncoding>();

/**
 * A cold start's first count is long enough that its loops are optimised mid-text, with type
 * feedback only for the branches met so far: a branch first met later (a contraction, a run of
 * digits, a long piece) threw the optimised code away, and the biggest loop, with its scanner and
 * memo lookups inlined, was compiled three or four times instead of once (~30 ms of compiler
 * thread each, the largest part of a cold start's CPU). Counting `warmUpText` once per process on
 * a counter of its own (its memos dropped after) gives every branch feedback first. Only the
 * default encoder: a caller's encoder is never handed text the caller did not pass.
 */
function warmUp(encoder: BytePairEncoder, encoding: TiktokenEncoding): void {
  try {
    new MemoisedPieceCounter(encoder, encoding).count(warmUpText);
  } catch {
    // Only a head start: the caller's own count meets the same code and reports its errors.
  }
}

// A class, not closures over the counter's state: optimised code that inlined one counter's
// closures deoptimised ("wrong call target") on the next counter's, so every fresh counter ran
// its first pass partly unoptimised. Methods are one function per process, whichever counter calls.
class MemoisedPieceCounter implements PieceCounter {
  private readonly encoder: Encoder;
  private readonly encoding: TiktokenEncoding;
  private readonly hasCountOrdinary: boolean;
  // The default encoder, whose merge can read a piece's ASCII code units directly.
  private readonly bytePair: BytePairEncoder | undefined;
  // Built on the first text that needs it: constructing the Unicode pattern (class subtractions
  // over Unicode properties) cost ~4 ms of a cold start, spent for nothing on ASCII-only text.
  private unicodePatternOnce: RegExp | undefined;
  private readonly asciiPattern: RegExp;
  private readonly cache = new GenerationalCache<string, number>(pieceCacheGeneration);
  // Short pieces of the Unicode path skip `cache` while it keeps missing (never-repeating pieces).
  private readonly cacheBypass = new MemoBypass();
  private readonly longCache = new GenerationalCache<string, number>(
    longPieceGeneration,
    longPieceCharacters,
  );
  private longRanks: Ranks | undefined;
  // o200k and cl100k split ASCII-class text with a scanner instead of the pattern: the same pieces
  // (see next-ascii-piece-end.ts), without a match array or the regular expression's backtracking.
  private readonly nextPieceEnd:
    | ((units: Uint16Array, index: number, end: number) => number)
    | undefined;
  // The same for the lines that need Unicode classes, when they hold no surrogate: the split
  // pattern's matches were an array of a string per piece (most of them one to four characters on
  // random letters and symbols), most of such a text's time with their garbage.
  private readonly nextUnicodePieceEnd:
    | ((units: Uint16Array, index: number, end: number) => number)
    | undefined;
  // Short pieces of those lines skip `memo` while it keeps missing (never-repeating pieces).
  private readonly unicodeBypass = new MemoBypass();
  // The text's code units, for the scanner and the memo keys.
  private readonly units = new CodeUnitBuffer();
  // Short pieces of scanned text are looked up by their range of the text: a hit allocates nothing.
  private readonly memo = new PieceMemo(pieceCacheGeneration);
  private readonly packed = new PackedPieceMemo(pieceCacheGeneration);
  // Start and end of each stretch of a text that the fast path counts (see `countAscii`).
  private ranges = new Int32Array(initialRanges);

  constructor(encoder: Encoder, encoding: TiktokenEncoding) {
    this.encoder = encoder;
    this.encoding = encoding;
    this.hasCountOrdinary = typeof encoder.countOrdinary === 'function';
    this.bytePair = encoder instanceof BytePairEncoder ? encoder : undefined;
    this.asciiPattern = asciiSplitPattern(encoding);
    this.nextPieceEnd =
      encoding === 'o200k_base'
        ? nextO200kPieceEnd
        : encoding === 'cl100k_base'
          ? nextCl100kPieceEnd
          : undefined;
    this.nextUnicodePieceEnd =
      encoding === 'o200k_base'
        ? nextO200kUnicodePieceEnd
        : encoding === 'cl100k_base'
          ? nextCl100kUnicodePieceEnd
          : undefined;
  }

  private unicodePattern(): RegExp {
    this.unicodePatternOnce ??= splitPattern(this.encoding);
    return this.unicodePatternOnce;
  }

  private encodeShort(piece: string): number {
    try {
      return this.hasCountOrdinary
        ? this.encoder.countOrdinary!(piece)
        : this.encoder.encode_ordinary(piece).length;
    } catch (error) {
      throw new TokenizerError({
        message: `the ${this.encoding} encoder failed on a piece of ${piece.length} characters`,
        cause: error,
      });
    }
  }

  private countPiece(piece: string): number {
    if (piece.length <= longestShortPiece) {
      // The default encoder memoises pieces of up to 5 units holding a non-ASCII one by their bytes
      // (`countMemoisedShortPiece`), without this map's per-piece string hashing and garbage.
      if (piece.length <= 5 && this.bytePair !== undefined && !isAscii(piece))
        return this.encodeShort(piece);
      if (this.cacheBypass.skip()) return this.encodeShort(piece);
      let tokens = this.cache.get(piece);
      this.cacheBypass.record(tokens !== undefined);
      if (tokens === undefined) {
        tokens = this.encodeShort(piece);
        this.cache.set(piece, tokens);
      }
      return tokens;
    }
    let tokens = this.longCache.get(piece, piece.length);
    if (tokens === undefined) {
      try {
        this.longRanks ??= withPairMemo(sharedRanks(this.encoding));
        tokens = countLongPiece(piece, this.longRanks);
      } catch (error) {
        throw new TokenizerError({
          message: `could not count a piece of ${piece.length} characters with ${this.encoding}`,
          cause: error,
        });
      }
      this.longCache.set(piece, tokens, piece.length);
    }
    return tokens;
  }

  private countPieces(text: string, pattern: RegExp): number {
    let pieces: RegExpMatchArray | null;
    try {
      pieces = text.match(pattern);
    } catch (error) {
      // The split pattern backtracks once per character of a run it matches, and V8 stops it with a
      // RangeError (its backtrack stack) on runs of a few million characters without a break.
      if (!(error instanceof RangeError) || text.length < 4096) {
        throw new TokenizerError({
          message: `could not split a text of ${text.length} characters with ${this.encoding}`,
          cause: error,
        });
      }
      return this.countInParts(text, pattern);
    }
    if (pieces === null) return 0;
    let total = 0;
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      // Every byte is a token of every encoding, so a one-character ASCII piece is one token.
      total += piece.length === 1 && piece.charCodeAt(0) < 128 ? 1 : this.countPiece(piece);
    }
    return total;
  }

  /**
   * A text the split pattern cannot match in one go, counted in parts of about
   * `overflowPartLength` characters at most (never between the halves of a surrogate pair). Tokens cannot
   * merge across a part's edge, so the count may differ from the encoder's by a few tokens per
   * part (under 0.01 %); the README documents the bound.
   */
  private countInParts(text: string, pattern: RegExp): number {
    // Halving as well, so a part that still overflows is split again instead of failing.
    const partLength = Math.min(overflowPartLength, Math.ceil(text.length / 2));
    let total = 0;
    for (let start = 0; start < text.length; ) {
      let end = Math.min(text.length, start + partLength);
      const before = text.charCodeAt(end - 1);
      if (end < text.length && before >= 0xd800 && before <= 0xdbff) end++;
      total += this.countPieces(text.slice(start, end), pattern);
      start = end;
    }
    return total;
  }

  // Tokens of a short ASCII piece through the memo keyed by its packed characters; -1 when the
  // piece holds a code unit of 128 or more (not packable).
  private countPacked(text: string, units: Uint16Array, start: number, end: number): number {
    const head = packHead(units, start, end);
    if (head === -1) return -1;
    const tail = end - start > 4 ? packTail(units, start, end) : 0;
    if (tail === -1) return -1;
    const tokens = this.packed.get(head, tail);
    // The first sight apart: a lookup small enough to be inlined into the scan loop.
    return tokens >= 0 ? tokens : this.countNewPacked(text, units, start, end, head, tail);
  }

  /** A packable piece the memo does not hold. */
  private countNewPacked(
    text: string,
    units: Uint16Array,
    start: number,
    end: number,
    head: number,
    tail: number,
  ): number {
    let tokens: number;
    if (this.bytePair === undefined) tokens = this.encodeShort(text.slice(start, end));
    else {
      // ASCII code units are the piece's UTF-8 bytes: merged from the units, without a string.
      try {
        tokens = this.bytePair.countAscii(units, start, end);
      } catch (error) {
        throw new TokenizerError({
          message: `the ${this.encoding} encoder failed on a piece of ${end - start} characters`,
          cause: error,
        });
      }
    }
    this.packed.set(head, tail, tokens);
    return tokens;
  }

  /**
   * Tokens of the ranges `ranges[2k], ranges[2k + 1]` of the text, for k below `rangeCount`, with
   * the fast path. One call for every range of a text: each further call of the scan loop with a
   * long first pass (a cold start's one text) ran unoptimised code until the function was compiled
   * a second time, apart from the loop's optimised code entered mid-loop; ~30 ms of compiler thread.
   */
  private countAscii(
    text: string,
    units: Uint16Array,
    ranges: Int32Array,
    rangeCount: number,
  ): number {
    // Called only when there is a scanner (see `count`).
    const nextPieceEnd = this.nextPieceEnd!;
    const memo = this.memo;
    let total = 0;
    for (let range = 0; range < rangeCount; range++) {
      let index = ranges[2 * range]!;
      const end = ranges[2 * range + 1]!;
      while (index < end) {
        const pieceEnd = nextPieceEnd(units, index, end);
        const length = pieceEnd - index;
        if (length === 1 && units[index]! < 128) total += 1;
        else {
          const packedTokens =
            length <= longestPackedPiece ? this.countPacked(text, units, index, pieceEnd) : -1;
          if (packedTokens >= 0) total += packedTokens;
          else if (length <= longestShortPiece) {
            const hash = hashRange(units, index, pieceEnd);
            let tokens = memo.get(text, index, pieceEnd, hash);
            if (tokens < 0) {
              const piece = text.slice(index, pieceEnd);
              tokens = this.encodeShort(piece);
              memo.set(piece, hash, tokens);
            }
            total += tokens;
          } else total += this.countPiece(text.slice(index, pieceEnd));
        }
        index = pieceEnd;
      }
    }
    return total;
  }

  count(text: string): number {
    try {
      const units = this.units.of(text);
      const words = this.units.words;
      const index = nextNeedingUnicode(units, words, 0, text.length);
      // Only o200k and cl100k have a scanner. GPT-2's pattern (r50k, p50k) has no newline
      // alternative, so its line starts are not guaranteed piece boundaries: no cutting at lines.
      if (this.nextPieceEnd === undefined)
        return this.countPieces(text, index < 0 ? this.asciiPattern : this.unicodePattern());
      if (index >= 0) return this.countMixed(text, index, units, words);
      const ranges = this.ranges;
      ranges[0] = 0;
      ranges[1] = text.length;
      return this.countAscii(text, units, ranges, 1);
    } finally {
      this.units.release();
    }
  }

  /**
   * Counts the lines around each character at `index` and after that needs the Unicode pattern
   * with it, and the stretches between them with the fast path (all of them in one call, after the
   * lines: a count is a sum); cuts fall only where a piece must end anyway.
   */
  private countMixed(text: string, index: number, units: Uint16Array, words: Int32Array): number {
    let total = 0;
    let start = 0;
    let rangeCount = 0;
    while (index >= 0) {
      // An astral character is two code units; the cut after it never splits the pair.
      const width = text.charCodeAt(index) >= 0xd800 && text.charCodeAt(index) <= 0xdbff ? 2 : 1;
      const cutBefore = safeCutBefore(text, index, start);
      const cutAfter = safeCutAfter(text, Math.min(text.length, index + width));
      if (cutBefore > start) rangeCount = this.addRange(rangeCount, start, cutBefore);
      total +=
        this.nextUnicodePieceEnd !== undefined && scannableStretch(units, cutBefore, cutAfter)
          ? this.countUnicode(text, units, cutBefore, cutAfter)
          : this.countPieces(text.slice(cutBefore, cutAfter), this.unicodePattern());
      start = cutAfter;
      index = nextNeedingUnicode(units, words, start, text.length);
    }
    if (start < text.length) rangeCount = this.addRange(rangeCount, start, text.length);
    total += this.countAscii(text, units, this.ranges, rangeCount);
    // A text of very many stretches leaves no large array behind.
    if (this.ranges.length > retainedRanges) this.ranges = new Int32Array(initialRanges);
    return total;
  }

  /** Tokens of `units[start, end)`, a stretch `scannableStretch` accepted, split by its scanner. */
  private countUnicode(text: string, units: Uint16Array, start: number, end: number): number {
    const nextPieceEnd = this.nextUnicodePieceEnd!;
    let total = 0;
    for (let index = start; index < end; ) {
      const pieceEnd = nextPieceEnd(units, index, end);
      const length = pieceEnd - index;
      if (length === 1 && units[index]! < 128) total += 1;
      else if (length > longestShortPiece) total += this.countPiece(text.slice(index, pieceEnd));
      else total += this.countShortRange(text, units, index, pieceEnd);
      index = pieceEnd;
    }
    return total;
  }

  /**
   * A piece of at most `longestShortPiece` units of a Unicode stretch, by its range: a string only
   * when the memo stores it (or for an encoder that counts strings only).
   */
  private countShortRange(text: string, units: Uint16Array, start: number, end: number): number {
    const length = end - start;
    if (length <= longestPackedPiece) {
      const packed = this.countPacked(text, units, start, end);
      if (packed >= 0) return packed;
    }
    const bytePair = this.bytePair;
    // Up to 5 units holding a non-ASCII one: the default encoder memoises them by their bytes.
    if (bytePair !== undefined && (length <= 5 || this.unicodeBypass.skip()))
      return this.countUnits(bytePair, units, start, end);
    const hash = hashRange(units, start, end);
    let tokens = this.memo.get(text, start, end, hash);
    this.unicodeBypass.record(tokens >= 0);
    if (tokens < 0) {
      const piece = text.slice(start, end);
      tokens =
        bytePair !== undefined
          ? this.countUnits(bytePair, units, start, end)
          : this.encodeShort(piece);
      this.memo.set(piece, hash, tokens);
    }
    return tokens;
  }

  private countUnits(bytePair: BytePairEncoder, units: Uint16Array, start: number, end: number) {
    try {
      return bytePair.countUnits(units, start, end);
    } catch (error) {
      throw new TokenizerError({
        message: `the ${this.encoding} encoder failed on a piece of ${end - start} characters`,
        cause: error,
      });
    }
  }

  /** Appends the range `[start, end)` as range number `rangeCount` and returns the new count. */
  private addRange(rangeCount: number, start: number, end: number): number {
    if (2 * rangeCount + 2 > this.ranges.length) {
      const grown = new Int32Array(2 * this.ranges.length);
      grown.set(this.ranges);
      this.ranges = grown;
    }
    this.ranges[2 * rangeCount] = start;
    this.ranges[2 * rangeCount + 1] = end;
    return rangeCount + 1;
  }
}

/**
 * True when o200k/cl100k's split must have a piece boundary at `position` and the text on either
 * side splits the same alone: right after a newline, when the whitespace that follows (if any)
 * holds no further line break (else `\s*[\r\n]+` would join them) and no `/` follows (o200k
 * glues `[\r\n/]*` to punctuation).
 */
function isSafeCut(text: string, position: number): boolean {
  if (position <= 0 || position >= text.length || text.charCodeAt(position - 1) !== 10)
    return false;
  for (let i = position; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13) return false;
    if (code === 47) return i > position;
    if (!isPatternSpace(code)) return true;
  }
  return true;
}

function safeCutBefore(text: string, index: number, floor: number): number {
  let newline = index > 0 ? text.lastIndexOf('\n', index - 1) : -1;
  while (newline >= floor) {
    if (isSafeCut(text, newline + 1)) return newline + 1;
    // lastIndexOf treats a negative start as 0 and would find the same newline forever.
    newline = newline > 0 ? text.lastIndexOf('\n', newline - 1) : -1;
  }
  return floor;
}

function safeCutAfter(text: string, from: number): number {
  let newline = text.indexOf('\n', from);
  while (newline !== -1) {
    if (isSafeCut(text, newline + 1)) return newline + 1;
    newline = text.indexOf('\n', newline + 1);
  }
  return text.length;
}

/** Whether every unit of a short `piece` is ASCII. */
function isAscii(piece: string): boolean {
  for (let i = 0; i < piece.length; i++) if (piece.charCodeAt(i) >= 128) return false;
  return true;
}
