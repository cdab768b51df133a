/** A decoded view of a text, each character mapped back to the original characters it came from. */
export interface DecodedView {
  text: string;
  /** Original index of each character of `text`. */
  starts: Int32Array;
  /** Original index just after each character of `text`. */
  ends: Int32Array;
}

// URL percent escapes, HTML character references (numeric, and the named ones of characters a
// token or a JSON document holds) and terminal style sequences (`grep --color` marks the matched
// part of a token).
const textEscape =
  /%([0-9A-Fa-f]{2})|&#[xX]([0-9A-Fa-f]{1,6});|&#([0-9]{1,7});|&([a-z]{2,6});|\x1b\[[0-9;?]{0,32}[A-Za-z]/g;

const named: Record<string, string> = {
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  sol: '/',
  equals: '=',
  plus: '+',
  colon: ':',
  lowbar: '_',
  hyphen: '-',
  period: '.',
  percnt: '%',
  num: '#',
};

/** What one escape reads as: '' for a style sequence, undefined where it stays as written. */
function decodeOne(match: RegExpExecArray): string | undefined {
  if (match[0].charCodeAt(0) === 27) return '';
  if (match[4] !== undefined) return named[match[4]];
  const code = Number.parseInt(match[1] ?? match[2] ?? match[3]!, match[3] === undefined ? 16 : 10);
  // Printable ASCII only: a UTF-8 byte or a control character decoded alone is no character, and
  // no token holds one.
  return code >= 32 && code < 127 ? String.fromCharCode(code) : undefined;
}

/**
 * Reads URL percent escapes (`%2B` as `+`, `%22` as `"`), HTML character references (`&#x3D;`,
 * `&#61;`, `&equals;`, `&quot;`) of printable ASCII and drops terminal style sequences, the ways a
 * token or a JSON document is split once it is a query value, an attribute or coloured output.
 * One level per call: `%252F` reads `%2F`. Undefined when the text holds no such escape.
 */
export function decodeTextEscapes(text: string): DecodedView | undefined {
  let starts: Int32Array | undefined;
  let ends: Int32Array | undefined;
  const parts: string[] = [];
  let length = 0;
  let cursor = 0;
  textEscape.lastIndex = 0;
  for (let match = textEscape.exec(text); match !== null; match = textEscape.exec(text)) {
    const decoded = decodeOne(match);
    if (decoded === undefined) continue;
    starts ??= new Int32Array(text.length);
    ends ??= new Int32Array(text.length);
    parts.push(text.slice(cursor, match.index));
    for (let index = cursor; index < match.index; index++, length++) {
      starts[length] = index;
      ends[length] = index + 1;
    }
    if (decoded !== '') {
      parts.push(decoded);
      starts[length] = match.index;
      ends[length] = match.index + match[0].length;
      length++;
    }
    cursor = match.index + match[0].length;
  }
  if (starts === undefined || ends === undefined) return undefined;
  parts.push(text.slice(cursor));
  for (let index = cursor; index < text.length; index++, length++) {
    starts[length] = index;
    ends[length] = index + 1;
  }
  return {
    text: parts.join(''),
    starts: starts.subarray(0, length),
    ends: ends.subarray(0, length),
  };
}
