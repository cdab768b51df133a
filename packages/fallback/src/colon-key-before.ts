// A segment of a namespaced key after its first name, as `colonKeyTail` (secret-rules.ts) reads them:
// a lower-case word, a number or `*`.
const plainSegment = /^(?:[a-z]{1,12}(?:[_-][a-z]{1,12})*|\d{1,12}|\*)$/;
const firstName = /^[A-Za-z_$@][\w.$@-]{0,99}$/;
const nameCharacter = /[\w.$@*-]/;
// A key is short: more segments than this before one is a chain the rule does not need to read,
// and the bound keeps a line of `a:1:token:a:1:token:…` linear (each key walks back at most this far).
const maxSegments = 8;

/**
 * The plain segments glued by colons before a key, each with its colon (`1:` for `aaa:1:pat` at
 * `pat`; `` for `aaa:pat`), when the key stands inside a namespaced key (`KEYS dek:0:dsn:aa:cgh`)
 * whose first name opens it; `undefined` when no colon glues the key to a name before it, or a part
 * before it is no plain segment (`Pw0rd:1:pat`). The key's own judge then sees the number that stood
 * before the secret word, which alone leaves the words after it reading as a user and a password.
 */
export function colonKeyBefore(text: string, keyStart: number): string | undefined {
  if (text[keyStart - 1] !== ':') return undefined;
  const segments: string[] = [];
  let end = keyStart - 1;
  for (let count = 0; count <= maxSegments; count++) {
    let start = end;
    while (start > 0 && end - start < 100 && nameCharacter.test(text[start - 1]!)) start--;
    const segment = text.slice(start, end);
    if (text[start - 1] !== ':') {
      if (!firstName.test(segment)) return undefined;
      return segments.map((part) => `${part}:`).join('');
    }
    if (!plainSegment.test(segment)) return undefined;
    segments.unshift(segment);
    end = start - 1;
  }
  return undefined;
}
