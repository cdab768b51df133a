import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointAt, crossableBoundariesOf } from './crossable-boundaries.js';
import { createTokenCounter, type TiktokenEncoding } from './index.js';
import {
  countBytePairTokens,
  countLongPiece,
  cutProbe,
  sharedRanks,
  withPairMemo,
} from './long-piece-counter.js';
import { publishedRanks } from './test-utils/published-ranks.js';
import { tiktokenCount as rawCount } from './test-utils/tiktoken-count.js';

const encodings: readonly TiktokenEncoding[] = [
  'o200k_base',
  'cl100k_base',
  'p50k_base',
  'r50k_base',
];
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The token's bytes completed into valid UTF-8, as text around it would hold them: a lead byte
 * before leading continuation bytes, continuation bytes after a last character cut short (the
 * second byte in the range its lead byte allows). Undefined when no text holds the token.
 */
function completed(token: Uint8Array): { bytes: Uint8Array; offset: number } | undefined {
  let leading = 0;
  while (leading < token.length && (token[leading]! & 0xc0) === 0x80) leading++;
  if (leading > 3) return undefined;
  const before = leading === 0 ? [] : [[0xc3], [0xe1], [0xf1]][leading - 1]!;
  let last = token.length - 1;
  while (last > leading && (token[last]! & 0xc0) === 0x80) last--;
  const lead = token[last]!;
  const width = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
  const after: number[] = [];
  for (let k = token.length - last; k < width; k++) {
    if (k > 1) after.push(0x80);
    else after.push(lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80);
  }
  const bytes = Uint8Array.from([...before, ...token, ...after]);
  try {
    utf8.decode(bytes);
  } catch {
    return undefined;
  }
  return { bytes, offset: before.length };
}

/** Start of the UTF-8 character that holds byte `i`. */
const characterStart = (bytes: Uint8Array, i: number) => {
  let start = i;
  while ((bytes[start]! & 0xc0) === 0x80) start--;
  return start;
};
const characterEnd = (bytes: Uint8Array, i: number) => {
  let end = i + 1;
  while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end++;
  return end;
};

describe('crossable boundaries', () => {
  it('never takes a boundary that some token of the vocabulary crosses as uncrossed (every token, every encoding)', () => {
    for (const encoding of encodings) {
      const boundaries = crossableBoundariesOf(sharedRanks(encoding).arrays);
      let checked = 0;
      let partial = 0;
      let unheld = 0;
      for (const text of publishedRanks(encoding).keys()) {
        const token = Buffer.from(text, 'latin1');
        if (!token.some((byte) => byte >= 0x80) || token.length < 2) continue;
        const holding = completed(token);
        if (holding === undefined) {
          unheld++;
          continue;
        }
        const { bytes, offset } = holding;
        for (let p = offset + 1; p < offset + token.length; p++) {
          if ((bytes[p]! & 0xc0) === 0x80) continue;
          const leftFrom = characterStart(bytes, p - 1);
          const rightTo = characterEnd(bytes, p);
          if (leftFrom < offset || rightTo > offset + token.length) partial++;
          const crossed = boundaries.crossable(
            bytes,
            leftFrom,
            p,
            rightTo,
            codePointAt(bytes, leftFrom, p),
            codePointAt(bytes, p, rightTo),
          );
          if (!crossed) expect.fail(`${encoding}: token ${token.toString('hex')} crosses ${p}`);
          checked++;
        }
      }
      // The premise: boundaries of whole characters and of partial ones at a token's ends both met.
      expect(checked, encoding).toBeGreaterThan(100);
      expect(partial, encoding).toBeGreaterThan(10);
      expect(unheld, encoding).toBeLessThan(checked);
    }
  });

  it('cuts between characters that no token joins (a control: Thai letters, Latin letters)', () => {
    const boundaries = crossableBoundariesOf(sharedRanks('o200k_base').arrays);
    const at = (text: string, index: number) => {
      const bytes = Buffer.from(text);
      const middle = Buffer.byteLength(text.slice(0, index));
      const leftFrom = characterStart(bytes, middle - 1);
      const rightTo = characterEnd(bytes, middle);
      return boundaries.crossable(
        bytes,
        leftFrom,
        middle,
        rightTo,
        codePointAt(bytes, leftFrom, middle),
        codePointAt(bytes, middle, rightTo),
      );
    };
    // "ภาษา" is one of o200k's tokens: none of its boundaries may be cut.
    const thai = 'ภาษา';
    expect(publishedRanks('o200k_base').has(Buffer.from(thai).toString('latin1'))).toBe(true);
    for (let i = 1; i < thai.length; i++) expect(at(thai, i)).toBe(true);
    expect(at('ab', 1)).toBe(true);
    expect(at('ф😀', 1)).toBe(false);
  });
});

// Alphabets of runs without whitespace whose pieces take the cut path (over 4 KB, not ASCII).
const alphabets: Record<string, readonly string[]> = {
  thai: [...'กขคงจฉชซญดตถทนบปผพฟมยรลวสหอ่้ัิีุาเแโ'],
  devanagari: [...'कखगघचछजझटठडढणतथदधनपफबभमयरलवशषसहिीुू्ंा'],
  arabic: [...'ابتثجحخدذرزسشصضطظعغفقكلمنهوي'],
  cyrillic: [...'абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГД'],
  greek: [...'αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔ'],
  hebrew: [...'אבגדהוזחטיכלמנסעפצקרשת'],
  hangul: [...'가나다라마바사아자차카타파하한국어입니다'],
  cjk: [...'的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年'],
  emoji: ['👨‍👩‍👧', '👍🏽', '🏳️‍🌈', '❤️', '🇯🇵', '🧑‍💻', '😀'],
  marks: ['e\u0301', 'a\u0308', 'о\u0301', '\u0915\u094d', '\u0e01\u0e48', 'i\u0323\u0307'],
  surrogates: ['а', 'б', '\ud800', '\udfff', '\ud83d', 'в'],
  latinMixed: [...'aбcдeфgхiйkлmнoпqрsтuвwхyз'],
  mixed: [...'กขअआабαβאבاب가字'],
};

/**
 * Characters around the ends of o200k's tokens that start or end inside a character (their
 * completions, as `completed` builds them), so that runs meet the partial keys of the set.
 */
function partialCharacters(): string[] {
  const found = new Set<string>();
  for (const text of publishedRanks('o200k_base').keys()) {
    const token = Buffer.from(text, 'latin1');
    const first = token[0]!;
    const last = token[token.length - 1]!;
    if (token.length < 2 || ((first & 0xc0) !== 0x80 && last < 0xc0)) continue;
    const holding = completed(token);
    if (holding === undefined) continue;
    for (const character of utf8.decode(holding.bytes))
      if (character.charCodeAt(0) >= 0x80) found.add(character);
    if (found.size >= 400) break;
  }
  return [...found];
}
alphabets.partial = partialCharacters();

/** A run of about `bytes` UTF-8 bytes of units drawn from `units` by `seed`. */
function runOf(units: readonly string[], bytes: number, seed: number): string {
  let state = seed;
  let text = '';
  let size = 0;
  while (size < bytes) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const unit = units[state % units.length]!;
    text += unit;
    size += Buffer.byteLength(unit);
  }
  return text;
}

describe('long pieces cut where no token crosses', () => {
  // Pieces are cut once the set is built (after 256 KB of long pieces in a process): built here.
  for (const encoding of encodings) crossableBoundariesOf(sharedRanks(encoding).arrays);

  it('counts runs of 4,100–7,000 bytes in many scripts exactly like tiktoken, every encoding (property)', () => {
    const counters = Object.fromEntries(
      encodings.map((encoding) => [encoding, createTokenCounter({ encoding })]),
    ) as Record<TiktokenEncoding, ReturnType<typeof createTokenCounter>>;
    const before = cutProbe();
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(alphabets)),
        fc.integer({ min: 4_100, max: 7_000 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom(...encodings),
        (name, bytes, seed, encoding) => {
          const text = runOf(alphabets[name]!, bytes, seed);
          expect(counters[encoding].count(text)).toBe(rawCount(encoding, text));
        },
      ),
      { numRuns: Number(process.env.CUT_PIECE_RUNS ?? 60) },
    );
    // The premise: pieces were cut, and boundaries were kept whole as well.
    const after = cutProbe();
    expect(after.pieces).toBeGreaterThan(before.pieces);
    expect(after.cuts).toBeGreaterThan(before.cuts);
    expect(after.kept).toBeGreaterThan(before.kept);
  });

  it('counts runs of characters around partial tokens exactly like tiktoken (property)', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    const units = alphabets.partial!;
    expect(units.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(
        fc.integer({ min: 4_100, max: 6_000 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (bytes, seed) => {
          const text = runOf(units, bytes, seed);
          expect(counter.count(text)).toBe(rawCount('o200k_base', text));
        },
      ),
      { numRuns: Number(process.env.CUT_PIECE_RUNS ?? 20) },
    );
  });

  it('counts pieces of 30–120 KB like the single heap (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('thai', 'devanagari', 'arabic', 'cyrillic', 'mixed', 'partial'),
        fc.integer({ min: 30_000, max: 120_000 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom('o200k_base' as const, 'cl100k_base' as const),
        (name, bytes, seed, encoding) => {
          const piece = runOf(alphabets[name]!, bytes, seed);
          const ranks = withPairMemo(sharedRanks(encoding));
          const buffer = Buffer.from(piece);
          const single = countBytePairTokens(new Uint8Array(buffer), buffer.length, ranks);
          expect(countLongPiece(piece, ranks)).toBe(single);
        },
      ),
      { numRuns: Number(process.env.CUT_PIECE_RUNS ?? 12) },
    );
  });
});
