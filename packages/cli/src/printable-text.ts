/** Longest line `printableText` returns, escapes included. */
const MAX_LENGTH = 400;

// Control characters (C0, DEL, C1), line and paragraph separators, bidi overrides, the BOM and the
// replacement character that undecodable bytes become: a terminal would act on them or show noise.
const unprintable =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeCharacter(character: string): string {
  const code = character.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every non-printable character (line breaks and tabs included) written as a `\xNN` /
 * `\uNNNN` escape, nothing clipped or merged: for a name, where the escape keeps it telling apart
 * from a name with a space.
 */
export function escapeUnprintable(text: string): string {
  return text.replace(unprintable, escapeCharacter);
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
