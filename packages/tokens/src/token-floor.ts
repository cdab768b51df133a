import { isPatternSpace } from './is-pattern-space.js';
import {
  asciiTripleIndex,
  tokenSequenceHash,
  tokenSequenceSecondHash,
} from './token-sequence-hash.js';
import { tokenSequenceMask, tokenSequenceTables } from './token-sequences.js';

// Tokens the floor charges where three neighbours share no token though each two of them do. The
// fewest pieces cut such a run once; BPE, merging by rank rather than towards the fewest pieces,
// cuts it more often: exact o200k counts are 1.3-1.5 such cuts' worth over the floor on random
// Hebrew, Arabic, punctuation runs and mixed-script names (where these cuts are 13-40 % of the
// tokens), while real text of every class stays at or under 0.92 of its exact count at 1.3.
const tripleCutTokens = 1.3;

// The tables, decoded on the first floor (the exact counter never pays them).
let extra: Uint8Array = new Uint8Array(0);
let asciiPairs: Uint8Array = new Uint8Array(0);
let letterTriples: Uint8Array = new Uint8Array(0);
let sequences: Uint8Array = new Uint8Array(0);
// ASCII letters, either case, as 0-25; digits 32; anything else 64 (an index into the letter
// triples, or why a triple is not in that table).
const asciiKind = new Uint8Array(128).fill(64);
let filled = false;

function fill(): void {
  filled = true;
  // Plain typed arrays, not the tables' Buffers: element loads of one array kind stay monomorphic.
  const tables = tokenSequenceTables();
  extra = new Uint8Array(tables.extra);
  asciiPairs = new Uint8Array(tables.ascii);
  letterTriples = new Uint8Array(tables.letterTriples);
  sequences = new Uint8Array(tables.sequences);
  for (let code = 0; code < 128; code++) {
    const index = asciiTripleIndex(code, code, code);
    asciiKind[code] = index >= 0 ? index / (26 * 26 + 26 + 1) : index === -1 ? 32 : 64;
  }
}

/**
 * A floor under the o200k count of `text`: the cuts BPE cannot avoid, whatever its merges. Every run
 * of characters between whitespace is at least one token, and so is a line break after a letter or
 * digit; two neighbours that no o200k token holds
 * together (token-sequences.ts) are cut apart, and so are three that no token holds though each two
 * do (at `tripleCutTokens`); a piece of two units between certain cuts that is no token is two; a
 * character alone in its piece costs what it costs alone (a character that is no token is two or
 * three). Counted as the fewest pieces under those rules, cutting as late as possible (the fewest
 * for such a rule). Runs of one character past their second unit are left to tokensOfRepeatRun.
 *
 * The weighted features describe text as the fit saw it, and on text it never saw (random letters
 * of any script, a word trailed by random letters, runs of random punctuation, mixed-script names)
 * they priced pieces as merged that the vocabulary cannot merge: random Greek letters at 0.58 of
 * the exact count, Hangul 0.26, Armenian, Georgian, Arabic and Devanagari 0.36-0.38, punctuation
 * runs 0.15. On real text of every class the package draws the floor is 0.7-0.92 of the exact
 * count, so it lifts estimates that were low, and seldom others.
 */
export function tokenFloor(text: string): number {
  if (!filled) fill();
  const pairs = asciiPairs;
  const triples = letterTriples;
  const kinds = asciiKind;
  let floor = 0;
  // The piece's last two code units (-1 where it has fewer), its length, whether it began where a
  // cut is certain (a run's start or an absent pair: a triple's cut may fall a unit earlier), and
  // the tokens beyond one its character costs while the piece is that one character: charged when
  // the piece ends so, not when it grows (a character two tokens alone can be inside a longer one).
  let previous = -1;
  let beforePrevious = -1;
  // Their kinds (asciiKind; 128 outside ASCII), carried so each unit is classified once.
  let previousKind = 0;
  let beforePreviousKind = 0;
  let pieceExtra = 0;
  let pieceLength = 0;
  let pieceCertain = false;
  // Units of the current run of one code unit after its first: past the second, the run is left
  // to tokensOfRepeatRun, whose merged runs' tokens estimateTokens adds to the floor (cut here at
  // every absent triple as well, a run of g, which o200k merges only in twos, was counted twice).
  let same = 0;
  // Whether a line break here is a piece of its own: at the start, or after a letter or digit
  // (and any spaces). After punctuation both split patterns glue it to the punctuation's piece.
  let newlinePiece = true;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === previous) {
      if (++same >= 2) continue;
    } else same = 0;
    const kind = code < 128 ? kinds[code]! : 128;
    // An ASCII letter after an ASCII letter, on a short path (the general one cost a third of the
    // heuristic's speed on English text): an absent pair is left to the general path, a triple is
    // asked case-folded.
    if ((kind | previousKind) < 32 && previous >= 0 && pairs[(previous << 7) | code] === 1) {
      if (beforePrevious >= 0 && beforePreviousKind < 32) {
        const index = (beforePreviousKind * 26 + previousKind) * 26 + kind;
        if (((triples[index >>> 3]! >> (index & 7)) & 1) === 0) {
          floor += tripleCutTokens;
          pieceCertain = false;
          pieceLength = 1;
          beforePrevious = -1;
          previous = code;
          previousKind = kind;
          continue;
        }
      }
      pieceLength++;
      beforePrevious = previous;
      beforePreviousKind = previousKind;
      previous = code;
      previousKind = kind;
      continue;
    }
    if (code <= 32 || (code >= 128 && isRunBreak(code))) {
      if (previous >= 0) {
        if (pieceCertain && pieceLength === 2)
          floor += isSequenceAbsent(beforePrevious, previous, -2);
        floor += pieceExtra;
        pieceExtra = 0;
        pieceLength = 0;
        newlinePiece = previousKind < 64 || (previousKind === 128 && isLetterBlock(previous));
        previous = -1;
        beforePrevious = -1;
      }
      if ((code === 10 || code === 13) && newlinePiece) {
        floor += 1;
        newlinePiece = false;
      }
      continue;
    }
    let cut: number;
    if (previous < 0) cut = 1;
    else if ((previous | code) < 128) cut = 1 - pairs[(previous << 7) | code]!;
    else cut = isSequenceAbsent(previous, code, -1);
    if (cut === 1) {
      if (pieceCertain && pieceLength === 2)
        floor += isSequenceAbsent(beforePrevious, previous, -2);
      floor += 1 + pieceExtra;
      pieceCertain = true;
    } else if (beforePrevious >= 0) {
      if ((beforePreviousKind | previousKind | kind) >= 64)
        cut = isSequenceAbsent(beforePrevious, previous, code);
      if (cut === 1) {
        floor += tripleCutTokens + pieceExtra;
        pieceCertain = false;
      }
    }
    if (cut === 1) {
      // After a space the character may merge with it: its fewer cost there.
      pieceExtra =
        code < 128 ? 0 : (extra[code >>> 1]! >> ((code & 1) * 4 + (previous < 0 ? 0 : 2))) & 3;
      pieceLength = 1;
      beforePrevious = -1;
    } else {
      pieceExtra = 0;
      pieceLength++;
      beforePrevious = previous;
      beforePreviousKind = previousKind;
    }
    previous = code;
    previousKind = kind;
  }
  if (previous >= 0) {
    if (pieceCertain && pieceLength === 2) floor += isSequenceAbsent(beforePrevious, previous, -2);
    floor += pieceExtra;
  }
  return floor;
}

/** Blocks of letters outside ASCII (Latin, Greek to Ethiopic and Khmer, kana and Han, Hangul). */
function isLetterBlock(code: number): boolean {
  return (
    (code >= 0xc0 && code < 0x2000) ||
    (code >= 0x3040 && code < 0xa000) ||
    (code >= 0xac00 && code < 0xd7b0)
  );
}

/** 1 when no o200k token holds the code units side by side (`third` -1 for a pair), else 0. */
function isSequenceAbsent(first: number, second: number, third: number): number {
  const hash = tokenSequenceHash(first, second, third);
  const low = hash & tokenSequenceMask;
  const high = tokenSequenceSecondHash(hash) & tokenSequenceMask;
  return ((sequences[low >>> 3]! >> (low & 7)) & (sequences[high >>> 3]! >> (high & 7)) & 1) ^ 1;
}

/**
 * Where a run between whitespace ends outside ASCII: whitespace (\s of the split patterns) and
 * astral characters (emoji; left out of the floor, a run restarts after them).
 */
function isRunBreak(code: number): boolean {
  return (code >= 0xd800 && code <= 0xdfff) || isPatternSpace(code);
}
