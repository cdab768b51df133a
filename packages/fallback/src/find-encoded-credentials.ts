import { decodeBase64 } from './decode-base64.js';

/** A base64 value that decodes to `user:password`. */
export interface EncodedCredentialSpan {
  kind: 'encoded-credentials';
  start: number;
  end: number;
}

// Standard base64 with its padding, bounded by characters no base64 or base64url value continues
// with (a `=` before one ends a key). Basic auth (`Authorization: Basic …`), Kubernetes Secret `data:`, `.dockerconfigjson`
// `auth` and `.npmrc` `_auth` all hold `user:password` this way, whatever key or header names it.
const candidate = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{6,256}={0,2}(?![A-Za-z0-9+/=_-])/g;

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
  candidate.lastIndex = 0;
  for (let match = candidate.exec(text); match; match = candidate.exec(text)) {
    const value = match[0];
    // Encoded text is padded to four and, unlike a word, holds a capital, a digit or padding.
    if (value.length < 8 || value.length % 4 !== 0 || !/[^a-z]/.test(value)) {
      continue;
    }
    const decoded = decodeBase64(value);
    if (decoded === undefined || !credentialPair.test(decoded)) continue;
    // An encoded header line (`Content-Type:application/json`) names a header, not a user.
    if (/^[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+:/.test(decoded)) continue;
    found.push({
      kind: 'encoded-credentials',
      start: match.index,
      end: match.index + value.length,
    });
  }
  return found;
}
