// `text.charCodeAt(i)` without a lookup on `text` per character, and a local constant rather than
// an import (see redact-secrets.ts).
const charCodeAt = String.prototype.charCodeAt;

// Each base64 character's 6-bit value, plus one (0: not a base64 character).
const sextets = new Uint8Array(128);
for (const [value, character] of [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
].entries()) {
  sextets[character.charCodeAt(0)] = value + 1;
}

/**
 * True when the base64 run `text[start, end)` (base64 characters, and `\/` for `/` as some JSON
 * encoders write it; no padding) holds a capital or a digit past its first
 * character (a capitalised word of eight letters is a run too) and decodes to bytes holding `:` (an encoded `user:password`). Runs past 300 characters are not decoded.
 * Decoded in place, without slicing, unescaping or building the decoded string: the redaction
 * prefilter meets such runs in ordinary identifiers (`getValue(`) of every text it reads.
 */
export function encodesPair(text: string, start: number, end: number): boolean {
  if (end - start > 300) return false;
  let marked = false;
  for (let index = start + 1; index < end && !marked; index++) {
    const code = charCodeAt.call(text, index);
    marked = (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
  }
  if (!marked) return false;
  let buffer = 0;
  let bits = 0;
  let characters = 0;
  let pair = false;
  for (let index = start; index < end; index++) {
    const code = charCodeAt.call(text, index);
    if (code === 92) {
      // `\/` stands for `/`; any other backslash makes the run no base64.
      if (index + 1 < end && charCodeAt.call(text, index + 1) === 47) continue;
      return false;
    }
    const value = code < 128 ? sextets[code]! : 0;
    // Not a run as described: nothing an encoded pair could be.
    if (value === 0) return false;
    characters++;
    buffer = ((buffer << 6) | (value - 1)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (((buffer >> bits) & 0xff) === 58) pair = true;
    }
  }
  // One character past a multiple of four is not base64 at all (`atob` throws).
  return pair && characters % 4 !== 1;
}
