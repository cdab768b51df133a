import { nameAround } from './name-around.js';
import { readsAsName } from './reads-as-name.js';
import { isTemplate } from './secret-heuristics.js';
import { acceptKeyedValue, type KeyedMatch, keyIsSecret } from './secret-rules.js';

/**
 * A value written after its key's name with only a space between (`use secret_key <value> to log
 * in`, `the API_TOKEN <value> expired`): a sentence or a log line names the setting, then gives it.
 * The name is written as code (`secret_key`, `apiToken`, `DB_PASSWORD`) or is a strong secret word
 * (`password`, `passphrase`): a plain word such as `token` or `key` is too often followed by a
 * word about it. The value is judged as under a token's name (`acceptKeyedValue`, weak: generated,
 * long enough, not words, not member access), whatever the name's strength: in a sentence, what
 * follows a name is more often a word than its value.
 */
// Each name holding a secret word, found from the word outward (most text holds none), then the
// value after it.
const secretWord = /pass|pwd|secret|token|key|cred|auth|private|api/gi;
const valueAfter = /[ \t]+(?<value>[^\s"'`,;()[\]{}<>|]{12,300})(?=[\s"'`,;)\]}>|]|$)/y;
/** A name glued to what stands before it (`$x`, `a.b`, `@x`, `/x`) is part of code or a path. */
const gluedBefore = /[$.@/\\]/;

const codeName = /[a-z][A-Z]|[A-Za-z0-9][_-][A-Za-z]/;
const strongWord = /^(?:password|passwd|passphrase|secret)$/i;
/** `$OTHER`, `${OTHER}`, `%OTHER%`: a reference, read when used. */
const reference = /^\$(?:[A-Za-z_{(]|\d)|^%[A-Za-z_]\w*%$/;

export function findProseKeyedValues(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  secretWord.lastIndex = 0;
  for (let hit = secretWord.exec(text); hit; hit = secretWord.exec(text)) {
    const [nameStart, nameEnd] = nameAround(text, hit.index, hit.index + hit[0].length);
    secretWord.lastIndex = nameEnd;
    const name = text.slice(nameStart, nameEnd);
    if (name.length < 3 || name.length > 61 || !/^[A-Za-z]/.test(name)) continue;
    if (nameStart > 0 && gluedBefore.test(text[nameStart - 1]!)) continue;
    if (!codeName.test(name) && !strongWord.test(name)) continue;
    if (keyIsSecret(name) === undefined) continue;
    valueAfter.lastIndex = nameEnd;
    const raw = valueAfter.exec(text)?.groups?.value;
    if (raw === undefined) continue;
    // A sentence's full stop or colon is not the value's.
    const value = raw.replace(/[.:]+$/, '');
    // `app-secrets --from-literal=…`: a flag follows a name on a command line, not a value.
    if (value.startsWith('-') || isTemplate(value) || reference.test(value)) continue;
    if (readsAsName(value)) continue;
    if (!acceptKeyedValue(value, 'weak', false)) continue;
    const start = valueAfter.lastIndex - raw.length;
    found.push({ kind: 'secret', start, end: start + value.length });
  }
  return found;
}
