import { isTemplate } from './secret-heuristics.js';
import { acceptKeyedValue, type KeyedMatch, keyIsIdLike, keyIsSecretFor } from './secret-rules.js';

/**
 * A variable set by a command that takes its name and its value as two words, with no `=` between
 * them: fish `set -gx NAME value` (`-x`, `-Ux`, `--export`, any scope flags), csh `setenv NAME
 * value`, Windows `setx NAME value`, a Dockerfile's `ENV NAME value`, and the secret stores that
 * take the value after a flag (`gh secret set NAME --body value`, `-b value`). Which command it is
 * only tells where the name and the value stand; whether the value is a secret is the key-value
 * judgement (`keyIsSecretFor` on the name and value, `acceptKeyedValue` on the value), as for `NAME=value`.
 *
 * The command starts a line or a shell command (after `;`, `&&`, `||`, `|`, `(`, `$ `, a backtick
 * or `RUN`). `set` in prose (`set password manually`) is no command: fish's `set` counts only with
 * a flag before the name or an environment-style name (`API_TOKEN`); `ENV` only in capitals, as
 * Dockerfiles write it.
 */
// Found from the command word outward (most text holds none), then read from it on.
const commandWord = /\b(?:setenv|setx|set|ENV|gh)\b/g;
const commandStart = /(?:[;&|(`]|\$ |\bRUN|\b(?:then|do|else))[ \t]*$/;
const blanks = /^[ \t]*$/;
const assignment =
  /(?:(?<fish>set(?:[ \t]+-{1,2}[A-Za-z]+)*)|(?<named>setenv|setx)|(?<docker>ENV)|(?<store>gh[ \t]+secret[ \t]+set))[ \t]+(?<name>[A-Za-z_][\w.-]{0,100})[ \t]+(?:(?<flag>(?:--body|-b)[ \t]+|--body=))?(?<value>"[^"\r\n]{0,300}"|'[^'\r\n]{0,300}'|[^\s"'`;|&<>()]{1,300})/y;

/**
 * Literals every match of `assignment` holds, as written: fish's `set` (and `gh secret set`) with
 * the blank after it, `setenv`, `setx`, `ENV` with its blank. A text holding none has no match, so
 * `redactSecrets` asks this scan only when its one pass over the text met one of them.
 */
export const environmentAssignmentHints: readonly string[] = [
  'set ',
  'set\t',
  'setenv',
  'setx',
  'ENV ',
  'ENV\t',
];

const upperName = /^[A-Z][A-Z0-9_]*$/;
/** `$OTHER`, `${OTHER}`, `$(command)`, `%OTHER%`: the value is read from elsewhere when set. */
const reference = /^\$(?:[A-Za-z_{(]|\d)|^%[A-Za-z_]\w*%$/;

/**
 * Finds values set as above whose name marks a secret, as `password` (names such as `*_PASSWORD`)
 * or `secret` spans. Read only where a command word stands: linear in the text.
 */
export function findEnvironmentAssignments(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  commandWord.lastIndex = 0;
  for (let word = commandWord.exec(text); word; word = commandWord.exec(text)) {
    // What stands before the command on its line (at most 16 characters are asked).
    const from = Math.max(0, word.index - 16);
    const back = text.slice(from, word.index);
    const lineBreak = Math.max(back.lastIndexOf('\n'), back.lastIndexOf('\r'));
    const before = back.slice(lineBreak + 1);
    const opensLine = (lineBreak >= 0 || from === 0) && blanks.test(before);
    if (!opensLine && !commandStart.test(before)) continue;
    assignment.lastIndex = word.index;
    const match = assignment.exec(text);
    if (match === null) continue;
    const groups = match.groups!;
    const name = groups.name!;
    const raw = groups.value!;
    if (groups.fish !== undefined && groups.fish === 'set' && !upperName.test(name)) continue;
    if (groups.store !== undefined && groups.flag === undefined) continue;
    if (groups.store === undefined && groups.flag !== undefined) continue;
    const quoted = raw.startsWith('"') || raw.startsWith("'");
    // A bare value's closing punctuation (`setenv TOKEN abc.`, `` `setx KEY v` ``) is the text's.
    const value = quoted ? raw.slice(1, -1) : raw.replace(/[.,;:)\]}]+$/, '');
    const strength = keyIsSecretFor(name, value);
    if (strength === undefined) continue;
    if (value === '' || isTemplate(value) || reference.test(value)) continue;
    // A shell word or a Dockerfile value is a literal, quoted or not: no code is read there
    // (`AAAAA.BB0bBB` is no member access), as a shell's `NAME=value` is read.
    if (!acceptKeyedValue(value, strength, true, keyIsIdLike(name))) continue;
    const start = match.index + match[0].length - raw.length + (quoted ? 1 : 0);
    found.push({
      kind: strength === 'strong' ? 'password' : 'secret',
      start,
      end: start + value.length,
    });
  }
  return found;
}
