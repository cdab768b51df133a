import { decodeBase64 } from './decode-base64.js';
import { isAbbreviation, isWordShaped } from './secret-heuristics.js';
import { pairsAreEnglish } from './spelled-in-words.js';

// A JSON header cut anywhere: keys (objects may nest, `{"a":{"b":`), and at most the start of
// the first value, a URL's scheme (`"https://`). No other value, no array, no second key after a
// value: an earlier exemption that read values with colons, strings in arrays and nested key
// slots as keys leaked tokens; here a value in view is never a header, and every name in view
// must read as one (below), so a secret in a key's slot is no header either.
const name = '[A-Za-z][\\w.-]*';
// The first value's start: `"`, then a scheme as far as it is shown (`h`, `htt`, `https://`).
const valueStart = '"(?:h(?:t(?:t(?:ps?)?)?)?(?::/{0,2})?)?';
const lastKey = `"(?:${name}(?:"(?::(?:${valueStart})?)?)?)?`;
const jsonHeader = new RegExp(`^\\{(?:"${name}":\\{)*(?:${lastKey})?$`);

// A piece of a name (`sign`, `In`, `Address`, `URL`, `2024`) as a camel-case run breaks into.
const pieces = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;

/**
 * True when a run of letters (a short number may end it) reads as a name (`signInAddress`,
 * `https`): its pieces of three or more letters are English words (pronounceable, English
 * consonant pairs) or protocol names, and they hold two thirds of its letters (`userIn`). A
 * generated value breaks into pieces of a letter or two at its case changes (`aBxDeQf`), or into
 * letters no word holds. A real word outside the pair list (`expires`: `xp`) reads as drawn: the
 * value stays redacted, the safe side.
 */
function readsAsName(run: string): boolean {
  let letters = 0;
  let wordLetters = 0;
  for (const piece of run.match(pieces) ?? []) {
    if (/^\d/.test(piece)) {
      if (piece.length > 4) return false;
      continue;
    }
    letters += piece.length;
    if (piece.length < 3) continue;
    if (!isAbbreviation(piece) && (!isWordShaped(piece) || !pairsAreEnglish(piece))) return false;
    wordLetters += piece.length;
  }
  return wordLetters * 3 >= letters * 2;
}

/**
 * True when `encoded`, a base64 or base64url run shown cut short (`ops_eyJzaWdu…`), decodes to
 * a JSON header alone (`{"signInAddress":"https:`): the keys every token of a self-describing
 * format opens with, shown before its first value. Such a run holds no character of a secret:
 * values are not allowed, and a generated string in a key's slot decodes to digits among letters,
 * random case or letters no word holds. The one thing this cannot tell from a name is a key slot
 * holding lower-case letters that read as a word. Only what is visible is judged: the caller asks
 * this only of a value cut short by an ellipsis.
 */
export function showsOnlyHeader(encoded: string): boolean {
  // A cut falls anywhere: the partial group of four at the end is dropped.
  const whole = encoded.slice(0, encoded.length - (encoded.length % 4));
  if (whole.length < 8 || !/^[A-Za-z0-9+/_-]+$/.test(whole)) return false;
  const decoded = decodeBase64(whole.replace(/-/g, '+').replace(/_/g, '/'));
  if (decoded === undefined) return false;
  if (!jsonHeader.test(decoded)) return false;
  // Short runs (`v`, `id`, `URL`, `443`) are too short to read: each is in one case or digits, and
  // runs read as names hold most characters, so a value of short random groups (`x7Q-p9Z-…`,
  // `kqz-tpw-…`) is not taken for a header.
  let characters = 0;
  let named = 0;
  for (const run of decoded.match(/[A-Za-z0-9]+/g) ?? []) {
    characters += run.length;
    // Names end in a number (`v1`, `sha256`); digits among letters (`t5Qur`) are drawn.
    if (!/^(?:[A-Za-z]+\d{0,4}|\d{1,4})$/.test(run)) return false;
    if (run.length > 3) {
      if (!readsAsName(run)) return false;
      named += run.length;
    } else if (!/^(?:[a-z]+|[A-Z][a-z]*|[A-Z]+|\d+)$/.test(run)) {
      return false;
    }
  }
  return named >= 8 && named * 4 >= characters * 3;
}

/** True when `token`, past an issuer's tag (`ops_`), shows a header alone (`showsOnlyHeader`). */
export function showsTaggedHeaderOnly(token: string): boolean {
  return showsOnlyHeader(token.replace(/^[A-Za-z0-9]{1,12}[_.-]/, ''));
}

/**
 * True when the token at `start`..`end` of `text` is shown cut short (`...` or `…` right after it)
 * and what is shown of it is a header alone (`showsTaggedHeaderOnly`).
 */
export function isCutShortHeader(text: string, start: number, end: number): boolean {
  if (!text.startsWith('...', end) && text[end] !== '…') return false;
  // The cut ends the token: characters glued after the ellipsis (`ops_eyJ…...<value>`) are more of
  // a value, not a sentence going on.
  let after = end;
  while (text[after] === '.' || text[after] === '…') after++;
  if (/[A-Za-z0-9+/_-]/.test(text[after] ?? '')) return false;
  return showsTaggedHeaderOnly(text.slice(start, end));
}
