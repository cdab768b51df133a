// Character classes of the key-value pattern's key (ASCII only: the pattern has neither `i` nor `u`).
// Bit 1: `[\w.$-]`, a key goes on with it; bit 2: `[A-Za-z_$@-]`, a key may start with it.
const keyClass = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const character = String.fromCharCode(code);
  keyClass[code] = (/[\w.$-]/.test(character) ? 1 : 0) | (/[A-Za-z_$@-]/.test(character) ? 2 : 0);
}
const classOf = (code: number) => (code < 128 ? keyClass[code]! : 0);

const stickyCopies = new WeakMap<RegExp, RegExp>();

/**
 * True when what follows a key ending at `end` may be the pattern's optional closing quote or
 * subscript (`"`, `']`), blanks and a separator (`=`, `:`, `!=`, `?=`, `||=`, or a blank before a quote).
 * Never false where the pattern's key could end there.
 */
function separatorMayFollow(text: string, end: number): boolean {
  let index = end;
  const close = text.charCodeAt(index);
  if (close === 34 || close === 39) {
    index++;
    if (text.charCodeAt(index) === 93) index++;
  }
  const blanks = index;
  let code = text.charCodeAt(index);
  while (code === 32 || code === 9) code = text.charCodeAt(++index);
  // `!`, `=`, `:`, `?`, `|` and `&` (`||=`, `&&=`); a quote after a blank (the blank is the separator).
  if (code === 33 || code === 61 || code === 58 || code === 63) return true;
  if ((code === 124 || code === 38) && text.charCodeAt(index + 1) === code) return true;
  return index > blanks && (code === 34 || code === 39);
}

/**
 * `keyValuePattern.exec(text)` from `from` (what a global exec returns with `lastIndex` = `from`),
 * trying the pattern only where it can match. Its key is `[A-Za-z_$@-][\w.$-]{0,100}` and what may
 * follow a key (closing quote, blanks, separator) never starts with `[\w.$-]`: a key ends where
 * its run of key characters ends, so a run that no separator follows, or that would make a key
 * longer than 101 characters, holds no match, and where the first start left in a run fails every
 * later one fails too (same key end, same rest). The regex tried at every position of every
 * line holding a key word, backtracking through each word, and was the costliest single step
 * of redaction.
 */
export function findKeyValueMatch(
  pattern: RegExp,
  text: string,
  from: number,
): RegExpExecArray | null {
  let sticky = stickyCopies.get(pattern);
  if (sticky === undefined) {
    sticky = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}y`);
    stickyCopies.set(pattern, sticky);
  }
  const length = text.length;
  let index = from;
  while (index < length) {
    if ((classOf(text.charCodeAt(index)) & 2) === 0) {
      index++;
      continue;
    }
    let end = index + 1;
    while (end < length && (classOf(text.charCodeAt(end)) & 1) !== 0) end++;
    if (separatorMayFollow(text, end)) {
      // The first start that can begin a key no longer than 101 characters, not after a backslash.
      for (let start = Math.max(index, end - 101); start < end; start++) {
        if ((classOf(text.charCodeAt(start)) & 2) === 0) continue;
        if (start > 0 && text.charCodeAt(start - 1) === 92) continue;
        sticky.lastIndex = start;
        const match = sticky.exec(text);
        if (match !== null) return match;
        break;
      }
    }
    index = end;
  }
  return null;
}
