import { decodeBase64 } from './decode-base64.js';

// A quoted name followed by `:`, or cut off at the end where a key stands (after `{` or `,`; after
// `:` a name cut off is a value): what a JSON object says about its shape.
const jsonKeys = /"[A-Za-z_$][\w$-]*"\s*:|(?<=[{,]\s*)"[A-Za-z_$][\w$-]*"?$/g;
// A URL's scheme (`https://`): the same in every value that holds one. Bounded: a scan from
// each `.` of `a.a.a.…` would otherwise cost quadratic time.
const urlScheme = /\b[a-z][a-z0-9+.-]{2,30}:(?:\/\/?)?/gi;
// What is left of values once keys, punctuation and schemes are gone; below this many characters
// a fragment holds no value a secret could be drawn in (issuers draw 16 or more).
const minimumValueCharacters = 8;

/**
 * True when `decoded` is the opening of a JSON object that holds only key names and structure
 * (`{"signInAddress":"https:`): tokens that are base64 of JSON keep their secret in the values, so
 * a fragment cut before any value is the format's public header, the same in every token.
 */
export function isJsonKeysOnly(decoded: string): boolean {
  if (!/^\s*\{\s*"/.test(decoded)) return false;
  const values = decoded
    .replace(jsonKeys, '')
    .replace(urlScheme, '')
    .replace(/[\s{}[\]",:]/g, '');
  return values.length < minimumValueCharacters;
}

/**
 * True when base64 `encoded` (standard or URL alphabet, cut anywhere) decodes to printable text
 * that `isJsonKeysOnly` accepts: `eyJzaWduSW5BZGRyZXNzIjoiaHR0cHM6` is `{"signInAddress":"https:`.
 */
export function encodesJsonKeysOnly(encoded: string): boolean {
  const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const decoded = decodeBase64(base64.slice(0, base64.length - (base64.length % 4)));
  if (decoded === undefined) return false;
  for (let index = 0; index < decoded.length; index++) {
    const code = decoded.charCodeAt(index);
    if (code < 32 || code >= 127) return false;
  }
  return isJsonKeysOnly(decoded);
}
