/**
 * The title of a Markdown ATX heading line (`## Files`, `  ### Next steps ##`), without the
 * closing hashes and spaces; undefined for any other line and for a title that is blank or holds a
 * line break. The pattern it replaces, `^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$`, read the same titles but
 * retried every split of a run of spaces inside one (cubic: a summary line of 2,000 spaces took
 * 3 s); this reads the line once from each end.
 */
export function markdownHeading(line: string): string | undefined {
  const open = /^\s{0,3}#{1,6}\s+/.exec(line);
  if (open === null) return undefined;
  const start = open[0].length;
  let end = line.length;
  while (end > start && isSpace(line.charCodeAt(end - 1))) end--;
  while (end > start && line.charCodeAt(end - 1) === 0x23) end--;
  while (end > start && isSpace(line.charCodeAt(end - 1))) end--;
  // Hashes only (`## ###`): the shortest title the pattern allowed is the first of them.
  const title = end > start ? line.slice(start, end) : line.slice(start, start + 1);
  if (title === '' || /[\n\r\u2028\u2029]/.test(title)) return undefined;
  return title;
}

function isSpace(code: number): boolean {
  return /\s/.test(String.fromCharCode(code));
}
