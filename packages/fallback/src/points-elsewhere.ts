import { judgeSegment } from './generated-token-shape.js';

/**
 * True when a value under a secret's name says where the secret is kept rather than holding it: a
 * file path (`/run/secrets/db`, `./secrets/db.json`, `~/.config/token`) or a URL without
 * credentials (`https://vault.internal/v1/db`). `DB_PASSWORD=/run/secrets/db` is read when the
 * variable is used; the keyed rules read a path or such a URL the same way (`acceptKeyedValue`).
 * A path is made of name characters between its slashes: a password that starts with `/` and
 * holds a symbol (`/x+Q=9…`) is no path.
 */
export function pointsElsewhere(value: string): boolean {
  if (plainUrl.test(value)) return true;
  if (!filePath.test(value)) return false;
  // A base64 password may open with `/` and hold none of `+`/`=`: its slashes fall at random, so it
  // is read whole as well as by segment.
  if (judgeSegment(value.replaceAll('/', '')) !== undefined) return false;
  for (const segment of value.split('/')) {
    if (segment.length >= 16 && judgeSegment(segment) !== undefined) return false;
    if (segment.length >= 12 && looksDrawn(segment)) return false;
  }
  return true;
}

const filePath = /^(?:\.{0,2}|~)\/[\w.-]+(?:\/[\w.-]*)*$/;
const plainUrl = /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i;

/**
 * A segment mixing cases and digits, or with capitals all through it (`fwdMtekmYAnwdXfAnRZv`): no
 * folder or file name a password's variable would point at.
 */
function looksDrawn(segment: string): boolean {
  let upper = 0;
  let lower = 0;
  let digits = 0;
  for (let index = 0; index < segment.length; index++) {
    const code = segment.charCodeAt(index);
    if (code >= 65 && code <= 90) upper++;
    else if (code >= 97 && code <= 122) lower++;
    else if (code >= 48 && code <= 57) digits++;
  }
  return lower > 0 && upper > 0 && (digits > 0 || (upper >= 4 && lower >= 4));
}
