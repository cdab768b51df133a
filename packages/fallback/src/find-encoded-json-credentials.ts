import { decodeBase64 } from './decode-base64.js';

// Base64 or base64url that opens a JSON object or array (`{"` `eyJ`, `{ "` `eyAi`, `{` and a line
// break `ewo`, `[{` `W3s`, `["` `WyJ`, `[` and a line break `Wwo`), up to 8 KiB encoded.
const encodedJson =
  /(?<![A-Za-z0-9+/_-])(?:eyJ|eyAi|ewo|W3s|WyJ|Wwo)[A-Za-z0-9+/_-]{13,8189}={0,2}(?![A-Za-z0-9+/_=-])/g;

// Most texts hold none: one scan for an opening, before the scan that reads a whole value.
const anyOpening = /eyJ|eyAi|ewo|W3s|WyJ|Wwo/;

/** True when the decoded bytes read as text (printable, line breaks, UTF-8's bytes). */
function readsAsText(bytes: string): boolean {
  for (let index = 0; index < bytes.length; index++) {
    const code = bytes.charCodeAt(index);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13) return false;
    if (code === 127) return false;
  }
  return true;
}

/** False when `findEncodedJsonCredentials` finds nothing in `text`: no encoded JSON opening in it. */
export function mayHoldEncodedJson(text: string): boolean {
  return anyOpening.test(text);
}

/**
 * Finds base64 (or base64url) of JSON that holds a credential once decoded: a CI variable, a
 * message payload or a config blob written encoded (`payload: eyJ1c2VyIjoi…`). The encoding hides
 * nothing: whoever reads the text decodes it. `holdsSecret` runs the redactor's rules over the
 * decoded text; JSON that holds only content is left alone (see `isEncodedPlainJson`). A JWT's
 * parts (a `.` joins them) are the JWT rule's; a value cut short is judged as far as it decodes.
 */
export function findEncodedJsonCredentials(
  text: string,
  holdsSecret: (decoded: string) => boolean,
): Array<{ kind: 'encoded-credentials'; start: number; end: number }> {
  const found: Array<{ kind: 'encoded-credentials'; start: number; end: number }> = [];
  if (!anyOpening.test(text)) return found;
  // All candidates first: `holdsSecret` redacts the decoded text, which runs this scan again.
  const candidates: Array<[number, string]> = [];
  encodedJson.lastIndex = 0;
  for (let match = encodedJson.exec(text); match; match = encodedJson.exec(text)) {
    candidates.push([match.index, match[0]]);
  }
  for (const [start, value] of candidates) {
    const end = start + value.length;
    if (text.charCodeAt(start - 1) === 46 || text.charCodeAt(end) === 46) continue;
    let body = value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
    // Whole groups of four only: a value cut short decodes as far as it goes.
    body = body.slice(0, body.length - (body.length % 4));
    const bytes = decodeBase64(body);
    if (bytes === undefined || !readsAsText(bytes)) continue;
    if (holdsSecret(bytes)) found.push({ kind: 'encoded-credentials', start, end });
  }
  return found;
}
