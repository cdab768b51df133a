import { isPlaceholder, isTemplate } from './secret-heuristics.js';
import type { KeyedMatch } from './secret-rules.js';

/**
 * `name:password` after a flag that means "basic-auth credentials" to HTTP clients and the tools
 * built on them (`-u`/`--user`, `--proxy-user`, `-a`/`--auth`, `--basic-auth`): curl, HTTPie,
 * the Elasticsearch and Kafka CLIs, registry and artifact clients, load testers. Which tool is
 * asked does not matter: the `name:secret` pair in that flag's value is the convention, so a
 * tool nobody wrote a rule for is read the same.
 *
 * The same flags carry other pairs: `docker run -u 1000:1000` or `-u node:node` (user and
 * group), `socat -u TCP:host:9000` (addresses), `rsync -a host:/path` (a remote path). Those
 * sides are digits, one-case names, paths, or hold `:` or `,`; a password mixes letters with
 * digits or with both cases, or holds a symbol among them, and is at least 6 characters long.
 */
const flagPair =
  /(?:^|[\s"'(=])(?:-u|--user|--proxy-user|-a|--auth|--basic-auth)(?:[ \t]+|=)(?<word>(?:"[^"\n]{0,200}"|'[^'\n]{0,200}'|[^\s"']){1,300})/g;

// Hoisted: a regex literal makes a new RegExp each time it is evaluated.
const closingPunctuation = /[`);,]+$/;
const slotBrackets = /[<>[\]]/;

/**
 * Whether `-u` or `-a` stands in `text`, as in every flag above: most texts hold neither, told by
 * one search for `-` (no regex runs over them, and nothing is allocated).
 */
function holdsFlagMark(text: string): boolean {
  for (let at = text.indexOf('-'); at !== -1; at = text.indexOf('-', at + 1)) {
    const next = text.charCodeAt(at + 1);
    if (next === 117 || next === 97) return true;
  }
  return false;
}

/** True when `secret`, the part after `name:`, has the shape of a password (see above). */
export function readsAsPassword(secret: string): boolean {
  if (secret.length < 6 || secret.length > 128) return false;
  if (/[\s:,/\\]/.test(secret) || (/^[~.$%<{[(@#-]/.test(secret) && !isDecorated(secret))) {
    return false;
  }
  const lower = /[a-z]/.test(secret);
  const upper = /[A-Z]/.test(secret);
  const digit = /\d/.test(secret);
  const symbol = /[^A-Za-z0-9]/.test(secret);
  if (!(lower || upper)) return false;
  const mixed = (lower && upper) || ((lower || upper) && digit) || ((lower || upper) && symbol);
  if (!mixed) return false;
  // A name with a separator or a number at its end: a user, group or module attribute
  // (`www-data`, `app2`, `Staff2`, `App123`).
  if (
    /^[A-Z]?[a-z]+[_-]?[a-z]*\d{0,4}$/.test(secret) ||
    /^[A-Z]+[_-]?[A-Z]*\d{0,4}$/.test(secret)
  ) {
    return false;
  }
  return !isTemplate(secret) && !isPlaceholder(secret);
}

/** `{ZqL5kVrX1n8tA2}`: braces decorating a literal (as `isTemplate` reads them). */
function isDecorated(secret: string): boolean {
  return /^\{[^{}]+\}$/.test(secret) && !isTemplate(secret);
}

/** Quotes around each side of the pair are the shell's, not the value's. */
function unquote(side: string): [string, number] {
  const quoted = /^"([^"]*)"$|^'([^']*)'$/.exec(side);
  return quoted ? [quoted[1] ?? quoted[2]!, 1] : [side, 0];
}

/**
 * Finds the password of `name:password` after a basic-auth flag (see above), as `cli-password`.
 * One regex pass, skipped when no such flag stands in the text: linear.
 */
export function findFlagCredentials(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  if (!holdsFlagMark(text)) return found;
  flagPair.lastIndex = 0;
  for (let match = flagPair.exec(text); match; match = flagPair.exec(text)) {
    // One shell word; quoted whole (`-u "bob:secret"`), its quotes are dropped first.
    // Markdown, code and prose close around the command (`` `tool -u "a:b"` ``, `run(… -u a:b);`).
    const word = match.groups!.word!.replace(closingPunctuation, '');
    // `<user:password>`, `[user:pass]`: a slot in usage text, not a value.
    if (slotBrackets.test(word)) continue;
    const [value, outer] = unquote(word);
    const valueStart = match.index + match[0].length - match.groups!.word!.length + outer;
    // The name ends at the first `:` outside quotes (`"{id}":"{secret}"`, `kevin:'secret'`).
    const colon = firstColonOutsideQuotes(value);
    if (colon < 0) continue;
    const [secret, quote] = unquote(value.slice(colon + 1));
    const [name] = unquote(value.slice(0, colon));
    if (name === secret || name.startsWith('$') || !readsAsPassword(secret)) continue;
    const start = valueStart + colon + 1 + quote;
    found.push({ kind: 'cli-password', start, end: start + secret.length });
  }
  return found;
}

function firstColonOutsideQuotes(value: string): number {
  let quote = '';
  for (let index = 0; index < value.length; index++) {
    const character = value[index]!;
    if (quote !== '') {
      if (character === quote) quote = '';
    } else if (character === '"' || character === "'") {
      quote = character;
    } else if (character === ':') {
      return index;
    }
  }
  return -1;
}
