// The characters a token and the base64 around it are written in, `.` included (an ellipsis is
// three of them): the run characters of the generic token layer.
const runCharacters = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=.~') {
  runCharacters[character.charCodeAt(0)] = 1;
}
const isRunCharacter = (code: number) => code < 128 && runCharacters[code] === 1;
// Far enough for any token; the bound keeps the walk short on a run of image bytes.
const reach = 1000;

/** Where the run of token characters going on from `position` of `text` ends (exclusive). */
export function runEnd(text: string, position: number): number {
  let to = position;
  while (to < text.length && to - position < reach && isRunCharacter(text.charCodeAt(to))) to++;
  return to;
}

/**
 * True when the run of token characters ending at `to` of `text` is shown cut short: it ends in an
 * ellipsis (`ops_eyJzaWduSW5…HM6...`, `...6wqX6fNU…edti6...`), the way documentation and scanners'
 * samples cut an example. Such a run is a fragment put on show, not a value in use (the keyed
 * rules already leave a value that ends in one). Issuer rules that match a whole token in its
 * documented format do not ask: a full token followed by `...` is still redacted. An ellipsis
 * only before the run is not enough: `Loading...<token>` is a whole token after prose.
 */
export function isElidedRun(text: string, to: number): boolean {
  return text.startsWith('...', to - 3) || text.charCodeAt(to) === 0x2026;
}
