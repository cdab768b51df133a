import type { RankArrays } from './rank-table-file.js';

const recentBits = 12;
const recentShift = 32 - recentBits;

/**
 * Byte-pair merges only ever make tokens of the vocabulary, so a merge crosses the boundary between
 * two adjacent characters A and B of a piece only by making a token that holds the last byte of A
 * and the first of B: all of A (the token starts at or before A) or a proper suffix of A's bytes
 * (it starts inside A), followed by all of B or a proper prefix of B's bytes (it ends inside B).
 * When no token of the vocabulary has such bytes, no merge ever crosses that boundary: the merge of
 * the whole piece is the merges of its parts on either side (the pairs the merge ranks are all
 * inside parts, and restricted to one part the global order by rank and position is the part's own
 * order). This set answers, per boundary, whether some token crosses it; a "yes" may be spurious
 * (the piece is then not cut there, which is never wrong), a "no" never is.
 *
 * What is stored, read from every token's bytes at every position where a character starts inside
 * it: the pair (left side, right side), each side a code point when the token holds that character
 * whole, else a key of the partial bytes it holds (a suffix of the left character's bytes at the
 * token's start, a prefix of the right character's at its end), in an open-addressing set. Every
 * boundary between two ASCII characters is taken as crossed, without looking: nearly every pair of
 * them is inside some token, long ASCII pieces have their own paths, and most of the vocabulary is
 * ASCII, whose tokens are then skipped when the set is built. Per code point, two flags say
 * whether some token holds that character whole followed by a partial character, or preceded by
 * one, so that a boundary looks partial keys up only where such tokens exist; a map of byte pairs
 * does the same for tokens whose both sides are partial.
 */
export class CrossableBoundaries {
  private keys: Int32Array;
  private mask: number;
  private size = 0;
  // Bit 1: some token holds this character whole, then a proper prefix of the next one's bytes.
  // Bit 2: some token starts inside a character, then holds this one whole. Indexed by the code
  // point of a leniently decoded sequence (up to 2^21: a lead byte 0xf7 and three continuations).
  private readonly flags = new Uint8Array(1 << 21);
  // (last byte of A, first byte of B) of tokens starting inside A and ending inside B.
  private readonly partialPairs = new Uint8Array(1 << 16);
  // The last answers by pair of code points, direct-mapped (left, right, answer): a run of a few
  // distinct characters (CJK, box drawing) meets the same pairs again, and the lookups above cost
  // several cache misses (the set, the flags of 2 MB) where this one costs none.
  private readonly recent = new Int32Array(3 << recentBits).fill(-1);
  // One bit per BMP code point: whether some stored boundary has that character (whole, or a proper
  // suffix of its bytes) on its left, and (whole, or a proper prefix) on its right. A boundary whose
  // left character has no left bit, or right character no right bit, is no stored boundary: answered
  // from 16 KB instead of the recent answers, the set and the flags (random characters of a large
  // block meet pairs never seen before, each several cache misses). Built by `indexSides`.
  private leftSides: Int32Array | undefined;
  private rightSides: Int32Array | undefined;

  constructor(initialSlots = 1 << 16) {
    this.keys = new Int32Array(initialSlots * 2).fill(-1);
    this.mask = initialSlots - 1;
  }

  /**
   * Whether some token can cross the boundary between the characters at `bytes[leftFrom, middle)`
   * (code point `left`) and `bytes[middle, rightTo)` (code point `right`), both decoded by
   * `codePointAt`.
   */
  crossable(
    bytes: Uint8Array,
    leftFrom: number,
    middle: number,
    rightTo: number,
    left: number,
    right: number,
  ): boolean {
    if ((left | right) < 128) return true;
    const leftSides = this.leftSides;
    if (
      leftSides !== undefined &&
      (left | right) < bmpEnd &&
      ((leftSides[left >>> 5]! >>> left) & (this.rightSides![right >>> 5]! >>> right) & 1) === 0
    )
      return false;
    const recent = this.recent;
    const slot = ((Math.imul(left, 0x9e3779b1) ^ Math.imul(right, 0x85ebca6b)) >>> recentShift) * 3;
    if (recent[slot] === left && recent[slot + 1] === right) return recent[slot + 2] === 1;
    const crossed = this.looksCrossed(bytes, leftFrom, middle, rightTo, left, right);
    recent[slot] = left;
    recent[slot + 1] = right;
    recent[slot + 2] = crossed ? 1 : 0;
    return crossed;
  }

  private looksCrossed(
    bytes: Uint8Array,
    leftFrom: number,
    middle: number,
    rightTo: number,
    left: number,
    right: number,
  ): boolean {
    if (this.has(left, right)) return true;
    const flags = this.flags;
    if ((flags[left]! & 1) !== 0)
      for (let end = middle + 1; end < rightTo; end++)
        if (this.has(left, prefixKey(bytes, middle, end))) return true;
    if ((flags[right]! & 2) !== 0)
      for (let start = middle - 1; start > leftFrom; start--)
        if (this.has(suffixKey(bytes, start, middle), right)) return true;
    if (this.partialPairs[(bytes[middle - 1]! << 8) | bytes[middle]!] !== 0)
      for (let start = middle - 1; start > leftFrom; start--)
        for (let end = middle + 1; end < rightTo; end++)
          if (this.has(suffixKey(bytes, start, middle), prefixKey(bytes, middle, end))) return true;
    return false;
  }

  /**
   * Builds the side bits of every BMP code point from the stored boundaries (after the last
   * `addToken`): a stored left side is a code point or the key of a suffix of 1–3 bytes, a right
   * side a code point or the key of a prefix, so a character has a left bit when it or one of its
   * proper suffixes is some stored left side (likewise right with prefixes).
   */
  indexSides(): void {
    const keys = this.keys;
    const wholeLeft = new Int32Array(bmpEnd >>> 5);
    const wholeRight = new Int32Array(bmpEnd >>> 5);
    const partialLeft = new Set<number>();
    const partialRight = new Set<number>();
    for (let slot = 0; slot < keys.length; slot += 2) {
      const left = keys[slot]!;
      if (left === -1) continue;
      const right = keys[slot + 1]!;
      if (left >= prefixTag) partialLeft.add(left);
      else if (left < bmpEnd) wholeLeft[left >>> 5]! |= 1 << left;
      if (right >= prefixTag) partialRight.add(right);
      else if (right < bmpEnd) wholeRight[right >>> 5]! |= 1 << right;
    }
    const leftSides = wholeLeft;
    const rightSides = wholeRight;
    const bytes = new Uint8Array(3);
    for (let point = 0x80; point < bmpEnd; point++) {
      const width = point < 0x800 ? 2 : 3;
      if (width === 2) {
        bytes[0] = 0xc0 | (point >>> 6);
        bytes[1] = 0x80 | (point & 0x3f);
      } else {
        bytes[0] = 0xe0 | (point >>> 12);
        bytes[1] = 0x80 | ((point >>> 6) & 0x3f);
        bytes[2] = 0x80 | (point & 0x3f);
      }
      for (let k = 1; k < width; k++) {
        if (partialLeft.has(suffixKey(bytes, k, width))) leftSides[point >>> 5]! |= 1 << point;
        if (partialRight.has(prefixKey(bytes, 0, k))) rightSides[point >>> 5]! |= 1 << point;
      }
    }
    this.leftSides = leftSides;
    this.rightSides = rightSides;
  }

  private slotOf(left: number, right: number): number {
    let hash = Math.imul(left, 0x9e3779b1) ^ Math.imul(right + 0x7f4a7c15, 0x85ebca6b);
    hash ^= hash >>> 15;
    return hash & this.mask;
  }

  private has(left: number, right: number): boolean {
    const keys = this.keys;
    const mask = this.mask;
    for (let slot = this.slotOf(left, right); ; slot = (slot + 1) & mask) {
      const stored = keys[slot * 2]!;
      if (stored === -1) return false;
      if (stored === left && keys[slot * 2 + 1] === right) return true;
    }
  }

  private add(left: number, right: number): void {
    const keys = this.keys;
    const mask = this.mask;
    let slot = this.slotOf(left, right);
    for (; ; slot = (slot + 1) & mask) {
      const stored = keys[slot * 2]!;
      if (stored === -1) break;
      if (stored === left && keys[slot * 2 + 1] === right) return;
    }
    keys[slot * 2] = left;
    keys[slot * 2 + 1] = right;
    if (++this.size * 2 > mask) this.grow();
  }

  private grow(): void {
    const old = this.keys;
    this.keys = new Int32Array(old.length * 2).fill(-1);
    this.mask = this.mask * 2 + 1;
    this.size = 0;
    for (let slot = 0; slot < old.length; slot += 2)
      if (old[slot] !== -1) this.add(old[slot]!, old[slot + 1]!);
  }

  /**
   * Records every boundary the token `token[from, to)` crosses. A token that no valid UTF-8 text
   * holds (some continuation byte out of place, a byte no sequence has) crosses nothing and is
   * skipped: valid text holds a token as a run of continuation bytes (the end of a character), whole
   * characters, then the start of one.
   */
  addToken(token: Uint8Array, from: number, to: number): void {
    let p = from;
    while (p < to && (token[p]! & 0xc0) === 0x80) p++;
    if (p === to || p - from > 3) return;
    // The left side of the boundary at p: none at the token's start (-1), else a code point or key.
    let left = p > from ? suffixKey(token, from, p) : -1;
    let leftPartial = p > from;
    while (p < to) {
      const width = sequenceWidth(token[p]!);
      if (width === 0) return;
      const end = p + width;
      const rightPartial = end > to;
      const last = rightPartial ? to : end;
      for (let k = p + 1; k < last; k++) if ((token[k]! & 0xc0) !== 0x80) return;
      const right = rightPartial ? prefixKey(token, p, to) : codePointAt(token, p, end);
      if (left !== -1 && (left | right) >= 128) {
        this.add(left, right);
        if (leftPartial && rightPartial) this.partialPairs[(token[p - 1]! << 8) | token[p]!] = 1;
        else if (rightPartial) this.flags[left]! |= 1;
        else if (leftPartial) this.flags[right]! |= 2;
      }
      left = right;
      leftPartial = false;
      p = end;
    }
  }
}

/**
 * Bytes of the UTF-8 sequence a lead byte starts, leniently (0xc0–0xf7 by their bit patterns, so
 * that no sequence valid text can hold is missed); 0 for a continuation byte or 0xf8–0xff.
 */
export function sequenceWidth(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte < 0xc0) return 0;
  if (byte < 0xe0) return 2;
  if (byte < 0xf0) return 3;
  return byte < 0xf8 ? 4 : 0;
}

/** The code point of the sequence `bytes[from, to)` (its lead byte's bits, then six a continuation). */
export function codePointAt(bytes: Uint8Array, from: number, to: number): number {
  const size = to - from;
  if (size === 1) return bytes[from]!;
  let point = bytes[from]! & (0x7f >> size);
  for (let i = from + 1; i < to; i++) point = (point << 6) | (bytes[i]! & 0x3f);
  return point;
}

// Code points below this have side bits (see `indexSides`).
const bmpEnd = 0x10000;

// Keys of partial characters, above every code point and apart from each other: 1 to 3 bytes.
const prefixTag = 0x40000000;
const suffixTag = 0x60000000;

function packed(bytes: Uint8Array, from: number, to: number): number {
  let value = (to - from) << 24;
  for (let i = from; i < to; i++) value |= bytes[i]! << (8 * (i - from));
  return value;
}

/** Key of the first bytes of a character, `bytes[from, to)`, held at a token's end. */
function prefixKey(bytes: Uint8Array, from: number, to: number): number {
  return prefixTag | packed(bytes, from, to);
}

/** Key of the last bytes of a character, `bytes[from, to)`, held at a token's start. */
function suffixKey(bytes: Uint8Array, from: number, to: number): number {
  return suffixTag | packed(bytes, from, to);
}

const built = new WeakMap<Int32Array, CrossableBoundaries>();

/**
 * The crossable boundaries of the vocabulary of `arrays`, built on first need (the first long piece
 * of an encoding) and kept while its rank table lives: once per process per encoding.
 */
export function crossableBoundariesOf(arrays: RankArrays): CrossableBoundaries {
  let boundaries = built.get(arrays.table);
  if (boundaries === undefined) {
    boundaries = buildCrossableBoundaries(arrays);
    built.set(arrays.table, boundaries);
  }
  return boundaries;
}

/** Whether the set of `arrays` is built already (see `crossableBoundariesOf`). */
export function hasCrossableBoundaries(arrays: RankArrays): boolean {
  return built.has(arrays.table);
}

/** Reads every token of the rank table's slots (bytes packed in the slot, or their offset). */
export function buildCrossableBoundaries({
  data,
  table,
  offsetBits,
}: RankArrays): CrossableBoundaries {
  const boundaries = new CrossableBoundaries();
  const offsetMask = 2 ** offsetBits - 1;
  const short = new Uint8Array(4);
  for (let slot = 0; slot < table.length; slot += 2) {
    const sizeAndRank = table[slot]!;
    if (sizeAndRank === 0) continue;
    const size = sizeAndRank >>> 21;
    if (size < 2) continue;
    const second = table[slot + 1]!;
    if (size <= 4) {
      // Tokens of ASCII bytes only cross nothing the set holds (see the class comment).
      if ((second & 0x80808080) === 0) continue;
      for (let k = 0; k < size; k++) short[k] = (second >>> (8 * k)) & 0xff;
      boundaries.addToken(short, 0, size);
    } else {
      const from = second & offsetMask;
      let high = from;
      while (high < from + size && data[high]! < 0x80) high++;
      if (high < from + size) boundaries.addToken(data, from, from + size);
    }
  }
  boundaries.indexSides();
  return boundaries;
}
