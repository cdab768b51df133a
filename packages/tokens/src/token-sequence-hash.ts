/**
 * The hash of a pair (`third` -1) or triple of UTF-16 code units in the hashed table of sequences
 * that o200k's tokens hold (token-sequences.ts). Shared by the table's derivation
 * (bench/derive-token-sequences.ts) and the heuristic's scan.
 */
export function tokenSequenceHash(first: number, second: number, third: number): number {
  let key = Math.imul((first << 16) | second, 0x9e3779b1) ^ Math.imul(third + 1, 0x85ebca6b);
  key ^= key >>> 15;
  key = Math.imul(key, 0xc2b2ae35);
  return key ^ (key >>> 13);
}

/** The second bit's hash of a sequence whose `tokenSequenceHash` is `hash` (any bit width). */
export function tokenSequenceSecondHash(hash: number): number {
  return Math.imul(hash ^ (hash >>> 16), 0x7feb352d) >>> 7;
}

/**
 * Where a triple of ASCII letters (either case) sits in the table of letter triples, or -1 for a
 * triple of letters and digits with a digit (never looked up: digits are pieces of their own
 * whatever the table says), or -2 for any other triple (in the hashed table).
 */
export function asciiTripleIndex(first: number, second: number, third: number): number {
  const a = letterIndex(first);
  const b = letterIndex(second);
  const c = letterIndex(third);
  if (a >= 0 && b >= 0 && c >= 0) return (a * 26 + b) * 26 + c;
  return (a >= 0 || isDigit(first)) && (b >= 0 || isDigit(second)) && (c >= 0 || isDigit(third))
    ? -1
    : -2;
}

function letterIndex(code: number): number {
  const folded = (code | 32) - 97;
  return code < 128 && folded >= 0 && folded < 26 ? folded : -1;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
