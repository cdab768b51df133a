/**
 * Tokens the fitted features miss in runs of spaces and tabs that hold a tab (o200k), given the
 * fitted weights of a space run and of a space before a digit. The fit priced tabs at nothing (real
 * text indents with spaces), but o200k's `\s+(?!\S)` leaves a run's last character to the next
 * piece: a space joins the word or punctuation after it, a tab joins only a word (`\treturn` 1
 * token), so before punctuation a last tab is a token of its own (`\t}` 2 tokens, ` }` 1) and
 * before a digit a piece of its own as a space is. The rest of the run is one piece, priced as the
 * fit prices a run of spaces, plus about one token per two changes between tabs and spaces; a run
 * before a newline joins the newline's piece and costs only those changes. Tab-indented JSON was
 * estimated at 0.67-0.70 of the exact count, TSV with empty cells at 0.46, `1\t\t\t\t` repeated at
 * 0.33.
 */
export function tabRunTokens(
  text: string,
  spaceRunWeight: number,
  spaceBeforeDigitWeight: number,
): number {
  let at = text.indexOf('\t');
  if (at === -1) return 0;
  let extra = 0;
  const length = text.length;
  while (at !== -1) {
    let start = at;
    while (start > 0 && isBlank(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < length && isBlank(text.charCodeAt(end))) end++;
    const atLineStart = start === 0 || isNewline(text.charCodeAt(start - 1));
    const next = end < length ? text.charCodeAt(end) : -1;
    // What the features already charge: every space run but a lone space inside a line.
    let fitted = 0;
    // Changes between tabs and spaces, in the whole run and in all but its last character.
    let changes = 0;
    let bodyChanges = 0;
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      if (i > start && code !== text.charCodeAt(i - 1)) {
        changes++;
        if (i < end - 1) bodyChanges++;
      }
      if (code === 32 && (i === start || text.charCodeAt(i - 1) !== 32)) {
        let spaces = 1;
        while (text.charCodeAt(i + spaces) === 32) spaces++;
        if (spaces > 1 || atLineStart) fitted += spaceRunWeight;
      }
    }
    let tokens: number;
    if (next === -1) tokens = spaceRunWeight + (changes >> 1);
    else if (isNewline(next)) tokens = changes >> 1;
    else {
      tokens = end - start > 1 ? spaceRunWeight + (bodyChanges >> 1) : 0;
      // A tab before a word mostly merges with it (`\tname` 1 token); before a digit it is a piece
      // of its own as a space is, priced as the fit prices that space.
      if (text.charCodeAt(end - 1) === 9 && !isAsciiLetter(next))
        tokens += next >= 48 && next <= 57 ? spaceBeforeDigitWeight : 1;
    }
    if (tokens > fitted) extra += tokens - fitted;
    at = text.indexOf('\t', end);
  }
  return extra;
}

const isBlank = (code: number) => code === 9 || code === 32;
const isAsciiLetter = (code: number) => (code | 32) >= 97 && (code | 32) <= 122;
const isNewline = (code: number) => code === 10 || code === 13;
