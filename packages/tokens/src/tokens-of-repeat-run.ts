import { tokenSequenceTables } from './token-sequences.js';

/**
 * Units of a run of one character priced as any other text before the repeat rule takes over: runs
 * this short are ordinary (ellipses, `!!!`, short rules), and pricing them as before keeps real
 * text's estimates where the fit put them.
 */
export const repeatFreeUnits = 8;

/**
 * The repeat-run code of `code`: itself, or -1 for whitespace and digits, whose runs are priced
 * apart (whitespace-run overflow; digits split in threes before any merge).
 */
export function repeatCodeOf(code: number): number {
  return code > 32 && (code < 48 || code > 57) ? code : -1;
}

/**
 * Tokens of a run of `length` units of `code` past the first `repeatFreeUnits`. BPE merges a run of
 * one character pair by pair, into 2, 4, 8, ... units while o200k has a token of that many: a chunk
 * of as many units as the character's doublings allow, or, for a character without (no token holds
 * two of it), what it costs alone.
 */
export function tokensOfRepeatRun(code: number, length: number): number {
  const { doublings, extra } = tokenSequenceTables();
  const steps = doublings[code]!;
  const rest = length - repeatFreeUnits;
  if (steps > 0) return Math.ceil(rest / (1 << steps));
  return code < 128 ? rest : rest * (1 + ((extra[code >>> 1]! >> ((code & 1) * 4 + 2)) & 3));
}

/** Whether o200k merges runs of `code` (has a token of two or more of it). */
export function isMergedInRuns(code: number): boolean {
  return tokenSequenceTables().doublings[code]! > 0;
}
