import { decodeBase64 } from './decode-base64.js';

/** A base64 value that decodes to `user:password`. */
export interface EncodedCredentialSpan {
  kind: 'encoded-credentials';
  start: number;
  end: number;
}

// Standard base64 with its padding, bounded by characters no base64 or base64url value continues
// with (a `=` before one ends a key). Basic auth (`Authorization: Basic …`), Kubernetes Secret
// `data:`, `.dockerconfigjson` `auth` and `.npmrc` `_auth` all hold `user:password` this way,
// whatever key or header names it. Found by a scan of maximal runs: the equivalent regex
// (`(?<![\w+/-])[A-Za-z0-9+/]{6,256}={0,2}(?![\w+/=-])`) tried every word of every text and cost
// a tenth of all redaction time.
const base64Character = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
  base64Character[character.charCodeAt(0)] = 1;
const isBase64 = (code: number) => code < 128 && base64Character[code] === 1;
// `_` and `-`: base64url goes on past them, so a run they touch is part of another token.
const isUrlSafeExtra = (code: number) => code === 95 || code === 45;

/**
 * Where the candidates stand: `[start, end)` of each run of 6–256 base64 characters and its
 * padding; with `minimum` and `multiple`, only those of such a length (padding included).
 */
export function base64Candidates(text: string, minimum = 6, multiple = 1): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const length = text.length;
  let index = 0;
  while (index < length) {
    if (!isBase64(text.charCodeAt(index))) {
      index++;
      continue;
    }
    const start = index;
    while (index < length && isBase64(text.charCodeAt(index))) index++;
    const runEnd = index;
    let end = runEnd;
    while (end < length && text.charCodeAt(end) === 61) end++;
    // The scan goes on at the padding (never a start) and whatever follows it.
    if (start > 0 && isUrlSafeExtra(text.charCodeAt(start - 1))) continue;
    if (runEnd - start < 6 || runEnd - start > 256 || end - runEnd > 2) continue;
    if (end - start < minimum || (end - start) % multiple !== 0) continue;
    if (end < length) {
      const after = text.charCodeAt(end);
      if (isBase64(after) || isUrlSafeExtra(after)) continue;
    }
    found.push([start, end]);
  }
  return found;
}

// What a user name is (`admin`, `deploy@example.com`, `_json_key`), then a password with no space.
// A URL (`https://…` encoded) has `//` after its colon; a time of day has digits before it.
const credentialPair = /^[A-Za-z0-9_.@+-]*[A-Za-z_][A-Za-z0-9_.@+-]*:(?!\/\/)[\x21-\x7e]{3,}$/;

/**
 * Finds base64 values that decode to a `user:password` pair: the encoding is how credentials are
 * stored and sent, and no generated token, prose or image decodes to that shape by chance. The
 * password may be a weak or placeholder-like word: encoded, it is still a credential.
 */
export function findEncodedCredentials(text: string): EncodedCredentialSpan[] {
  const found: EncodedCredentialSpan[] = [];
  // Encoded text is padded to four and, unlike a word, holds a capital, a digit or padding.
  for (const [start, end] of base64Candidates(text, 8, 4)) {
    const value = text.slice(start, end);
    if (!/[^a-z]/.test(value)) continue;
    const decoded = decodeBase64(value);
    if (decoded === undefined || !credentialPair.test(decoded)) continue;
    // An encoded header line (`Content-Type:application/json`) names a header, not a user.
    if (/^[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+:/.test(decoded)) continue;
    found.push({ kind: 'encoded-credentials', start, end });
  }
  return found;
}
