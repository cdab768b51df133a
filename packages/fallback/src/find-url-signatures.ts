import { isPlaceholder, isTemplate, shannonEntropy } from './secret-heuristics.js';
import type { KeyedMatch } from './secret-rules.js';

/**
 * The signature in a signed URL's query (`sig=`, `signature=`, `X-Amz-Signature=`,
 * `X-Goog-Signature=`, `hmac=`): whoever holds the URL holds the access it grants until it
 * expires, so the signature is a bearer credential whichever service signed it (storage SAS and
 * presigned URLs, CDN signed links, webhook callbacks). Elsewhere a key named `signature` holds
 * public or opaque bytes (a model's reasoning signature, a package's detached signature), and is
 * left to the other layers; in a query string it is what authorises the request.
 *
 * The value must be 16+ characters once `%XX` escapes are read, drawn rather than typed: more than
 * one character class, enough distinct symbols, not a placeholder or a template (`{sig}`).
 */
const signedQuery =
  /[?&;](?:sig|signature|x-amz-signature|x-goog-signature|x-oss-signature|hmac|x-signature)=(?<secret>[A-Za-z0-9%+/=_.~-]{16,1024})/gi;

/**
 * Whether an `=` in `text` follows `ig`, `re` or `ac` (ASCII case ignored), as every name above
 * ends (`sig=`, `signature=`, `hmac=`): one search for `=`, where a substring search per name was
 * six passes over every text.
 */
function holdsMarker(text: string): boolean {
  for (let at = text.indexOf('=', 2); at !== -1; at = text.indexOf('=', at + 1)) {
    const last = text.charCodeAt(at - 1) | 32;
    const before = text.charCodeAt(at - 2) | 32;
    if (
      (last === 103 && before === 105) ||
      (last === 101 && before === 114) ||
      (last === 99 && before === 97)
    ) {
      return true;
    }
  }
  return false;
}

/** True when a query value, `%XX` escapes read, is drawn like a signature. */
export function readsAsSignature(value: string): boolean {
  const decoded = value.replace(/%[0-9A-Fa-f]{2}/g, '=');
  const core = decoded.replace(/[^A-Za-z0-9]/g, '');
  if (core.length < 16) return false;
  const classes = Number(/[a-z]/.test(core)) + Number(/[A-Z]/.test(core)) + Number(/\d/.test(core));
  if (classes < 2) return false;
  // Hex is 4 bits a symbol at most (64 random hex fall to ~3.4 now and then); base64 more. A
  // typed or repeated filler falls well short.
  if (shannonEntropy(core) < Math.min(3, Math.log2(core.length) - 1.5)) return false;
  return !isPlaceholder(decoded) && !isTemplate(value);
}

/** Signatures in signed URLs' query strings (see above), as `url-signature`. One regex pass. */
export function findUrlSignatures(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  if (!holdsMarker(text)) return found;
  signedQuery.lastIndex = 0;
  for (let match = signedQuery.exec(text); match; match = signedQuery.exec(text)) {
    const value = match.groups!.secret!;
    if (!readsAsSignature(value)) continue;
    const start = match.index + match[0].length - value.length;
    found.push({ kind: 'url-signature', start, end: start + value.length });
  }
  return found;
}
