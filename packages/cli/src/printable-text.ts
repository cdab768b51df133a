/** Longest line `printableText` returns, escapes included. */
const MAX_LENGTH = 400;

// Control characters (C0, DEL, C1), line and paragraph separators, format characters (bidi
// overrides and isolates, zero-width spaces and joiners, LRM/RLM, the soft hyphen, the BOM, word
// joiners, tag characters), spaces other than U+0020 (a no-break space looks like a space), the
// variation selectors and blank letters (Hangul fillers) that show nothing, lone surrogates, and the
// replacement character that undecodable bytes become: a terminal would act on them, or two
// different names would print the same.
const unprintable =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115f\u1160\u3164\uffa0\ufffd]|(?! )\p{Zs}|\u034f|\p{Variation_Selector}/gu;
// The same, and `\` itself: in a name, a literal `\x1b` must not read as the escape of ESC.
const unprintableOrBackslash = new RegExp(`${unprintable.source}|\\\\`, 'gu');
const startsUnprintable = new RegExp(`^(?:${unprintable.source})`, 'u');

/**
 * Whether a `\` before `next` must be doubled so the printed form reads back to one name only: before
 * `\`, `x` or `u` it would start an escape, before an escaped character it would join that escape's
 * `\`. Elsewhere it prints as itself, so a Windows path (`C:\Users\me\a.json`) stays readable.
 */
function backslashIsAmbiguous(next: string): boolean {
  return next === '\\' || next === 'x' || next === 'u' || startsUnprintable.test(next);
}

/** `\xNN` / `\uNNNN` (an astral character as its two surrogates). */
function escapeCharacter(character: string): string {
  let escaped = '';
  for (let index = 0; index < character.length; index++) {
    const code = character.charCodeAt(index);
    escaped +=
      code < 0x100
        ? `\\x${code.toString(16).padStart(2, '0')}`
        : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return escaped;
}

/**
 * `text` with every non-printable or invisible character (line breaks and tabs included) written as
 * a `\xNN` / `\uNNNN` escape and a `\` that could read as part of an escape as `\\`, nothing clipped
 * or merged: for a name, where two different names must never print the same (the printed form
 * reads back to one name only).
 */
export function escapeUnprintable(text: string): string {
  return text.replace(unprintableOrBackslash, (character: string, offset: number) => {
    if (character !== '\\') return escapeCharacter(character);
    const next = text.codePointAt(offset + 1);
    return next !== undefined && backslashIsAmbiguous(String.fromCodePoint(next)) ? '\\\\' : '\\';
  });
}

/**
 * One line that is safe to print on a terminal: line breaks and tabs become spaces, other
 * non-printable characters become `\xNN` / `\uNNNN` escapes, and the line is clipped with `…`.
 * Error messages quote the input (JSON.parse does), and the input may be a binary file.
 */
export function printableText(text: string, maxLength = MAX_LENGTH): string {
  // A whitespace run holding a line break becomes one space. Matched as whole runs: a pattern
  // with `\s*` on both sides of the break retried every start in a long run of spaces
  // (quadratic: 64 KB of spaces took 9 s).
  const line = text
    .replace(/\s+/g, (run) => (/[\r\n]/.test(run) ? ' ' : run))
    .replace(/\t/g, ' ')
    .replace(unprintable, escapeCharacter);
  if (line.length <= maxLength) return line;
  // Never cut an escape in half.
  const clipped = line.slice(0, maxLength - 1).replace(/\\(?:x[0-9a-f]?|u[0-9a-f]{0,3})?$/, '');
  return `${clipped}…`;
}
