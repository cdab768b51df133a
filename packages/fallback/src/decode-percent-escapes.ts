/** A decoded view of a text, each character mapped back to the original characters it came from. */
export interface DecodedView {
  text: string;
  /** Original index of each character of `text`. */
  starts: Int32Array;
  /** Original index just after each character of `text`. */
  ends: Int32Array;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/**
 * Reads URL percent escapes of printable ASCII (`%2B` as `+`, `%2F` as `/`, `%22` as `"`), the
 * characters a token or a JSON document is split at once it is a query parameter's value; other
 * escapes (UTF-8 bytes, `%0A`) and malformed ones stay as written. One escape level per call:
 * `%252F` reads `%2F`. Undefined when the text holds no such escape.
 */
export function decodePercentEscapes(text: string): DecodedView | undefined {
  let first = text.indexOf('%');
  while (first !== -1 && !isPrintableEscape(text, first)) first = text.indexOf('%', first + 1);
  if (first === -1) return undefined;
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  const parts: string[] = [text.slice(0, first)];
  for (let index = 0; index < first; index++) {
    starts[index] = index;
    ends[index] = index + 1;
  }
  let length = first;
  let index = first;
  while (index < text.length) {
    if (text.charCodeAt(index) === 37 && isPrintableEscape(text, index)) {
      const code = hexValue(text.charCodeAt(index + 1)) * 16 + hexValue(text.charCodeAt(index + 2));
      parts.push(String.fromCharCode(code));
      starts[length] = index;
      ends[length] = index + 3;
      index += 3;
    } else {
      parts.push(text[index]!);
      starts[length] = index;
      ends[length] = index + 1;
      index++;
    }
    length++;
  }
  return {
    text: parts.join(''),
    starts: starts.subarray(0, length),
    ends: ends.subarray(0, length),
  };
}

function isPrintableEscape(text: string, at: number): boolean {
  if (at + 2 >= text.length) return false;
  const high = hexValue(text.charCodeAt(at + 1));
  const low = hexValue(text.charCodeAt(at + 2));
  if (high < 0 || low < 0) return false;
  const code = high * 16 + low;
  return code >= 32 && code < 127;
}
