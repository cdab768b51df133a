/** 1 for the characters of a name: ASCII letters, digits, `_` and `-`. */
const nameCharacters = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const character = String.fromCharCode(code);
  if (/[A-Za-z0-9_-]/.test(character)) nameCharacters[code] = 1;
}

const isNameCharacter = (code: number) => code < 128 && nameCharacters[code] === 1;

/**
 * The run of name characters (letters, digits, `_`, `-`) holding `text[from, to)`: its start and
 * end. A scan that resumes at the end reads each run once, however many words it holds.
 */
export function nameAround(text: string, from: number, to: number): [number, number] {
  let start = from;
  while (start > 0 && isNameCharacter(text.charCodeAt(start - 1))) start--;
  let end = to;
  while (end < text.length && isNameCharacter(text.charCodeAt(end))) end++;
  return [start, end];
}
