/**
 * Whether `code` is a character `\s` matches (WhiteSpace or LineTerminator, as `trim` reads them).
 * Not `@baton/tokens`' pattern space: that is Unicode White_Space (U+0085 in, U+FEFF out).
 */
export function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * `text.replace(/\s+/g, ' ').trim()`. Most texts it is given (asks, paths, call targets) are
 * collapsed already, and are returned as they are after one scan: the global replace built a new
 * string and its match bookkeeping for every single space, ~700 bytes per ask of a long window.
 */
export function collapseWhitespace(text: string): string {
  const last = text.length - 1;
  let previousSpace = true;
  for (let index = 0; index <= last; index++) {
    const code = text.charCodeAt(index);
    if (!isSpace(code)) {
      previousSpace = false;
      continue;
    }
    // A space at either end, two in a row, or any other whitespace character: changed by the
    // replace or the trim.
    if (code !== 32 || previousSpace || index === last) return text.replace(/\s+/g, ' ').trim();
    previousSpace = true;
  }
  return text;
}
