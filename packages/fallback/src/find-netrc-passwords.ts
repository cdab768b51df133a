import { isPlaceholder, isTemplate } from './secret-heuristics.js';
import type { KeyedMatch } from './secret-rules.js';

/**
 * Passwords in netrc entries (`machine api.example.com login bob password SECRET`, one line or
 * several; `default login bob password SECRET`), the file curl, git, ftp, pip and Heroku's CLI
 * read credentials from. The format's tokens are parted by whitespace, not `=` or `:`, so the
 * keyed layers that read `password: value` do not see them; the `machine` (or `default`) that
 * opens the entry, with a `login` before the password, is what makes `password` a key here
 * rather than a word of prose (`by default password login is off`, `machine learning password
 * managers`: no `login <name>` between). Whatever
 * follows it is the password, unless it is a placeholder or a template (`<token>`, `$TOKEN`).
 */
// Inside a JSON string (a tool's output) the entry opens after the string's quote and its line
// breaks are escapes (`\n  login bob\n  password …`): both count as whitespace here.
const netrcEntry =
  /(?:^|\s|"|\\[nrt])(?:machine(?:[ \t\r\n]|\\[nrt])+[^\s"\\]{1,253}|default)(?:(?:[ \t\r\n]|\\[nrt])+(?:login|account|port)(?:[ \t\r\n]|\\[nrt])+[^\s"\\]{1,256}){1,4}(?:[ \t\r\n]|\\[nrt])+password(?:[ \t\r\n]|\\[nrt])+(?<secret>"[^"\n]{1,256}"|[^\s"\\]{1,256})/g;

const entryOpening = /\b(?:machine|default)\s/;
const loginBefore = /(?:\s|\\[nrt])login(?:\s|\\[nrt])/;

/** netrc passwords (see above), as `netrc-password`. One regex pass, skipped without `password`. */
export function findNetrcPasswords(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  if (!text.includes('password') || !entryOpening.test(text)) return found;
  netrcEntry.lastIndex = 0;
  for (let match = netrcEntry.exec(text); match; match = netrcEntry.exec(text)) {
    if (!loginBefore.test(match[0])) continue;
    const written = match.groups!.secret!;
    const quoted = written.startsWith('"');
    const secret = quoted ? written.slice(1, -1) : written;
    if (secret.length < 4 || isTemplate(secret) || isPlaceholder(secret)) continue;
    const start = match.index + match[0].length - written.length + (quoted ? 1 : 0);
    found.push({ kind: 'netrc-password', start, end: start + secret.length });
  }
  return found;
}

/**
 * `.pgpass` lines (`hostname:port:database:username:password`, PostgreSQL's password file, also
 * written by `echo … > ~/.pgpass`): five colon-separated fields on a line of their own, the port a
 * number or `*`, the database and user names holding a letter or `*` (a file's `name:12:5:` line
 * and column, a time, a MAC or IPv6 address have digits there), no space anywhere. Only blanks or
 * an `echo`/`printf` lead the line (`KEYS app:1:…`, a log line's date, are other text), and a plain
 * word or identifier in the fifth field is a colon key's last part (`ratelimit:60:api:login:attempts`). The fifth field
 * is the password, `\:` escaping a colon in it. A line ends at a line break, a JSON string's `\n`
 * or a closing quote. Each field is bounded and a line is tried only from its start: linear.
 */
const pgpassLine =
  /(?<=(?:^|[\n"']|\\n|\b(?:echo|printf)[ \t])[ \t]*)(?:\*|[\w.-]{1,253}|\[[\da-fA-F:]{2,45}\]):(?:\*|\d{1,5}):(?<database>[^:\s"'\\]{1,63}):(?<user>[^:\s"'\\]{1,63}):(?<secret>(?:\\:|[^:\s"'\\]){4,256})(?=$|[\r\n"']|\\[nr"])/g;
// The same shape from the port on, led by a literal `:` the engine can skip to: most texts (and
// log lines with times, `08:12:40.123Z INFO`) fail it without the whole pattern being tried.
const pgpassShape = /:(?:\*|\d{1,5}):[^:\s"'\\]{1,63}:[^:\s"'\\]{1,63}:[^:\s"'\\]/;
const namedField = (field: string) => field === '*' || /[A-Za-z]/.test(field);
const allHex = /^[\dA-Fa-f]+$/;
const plainName = /^(?:[a-z]+(?:[_-][a-z]+)*|[A-Z][a-z]+|[A-Z]+(?:_[A-Z]+)*)$/;

/** `.pgpass` passwords (see above), as `pgpass-password`. Skipped without the shape's tail. */
export function findPgpassPasswords(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  if (!pgpassShape.test(text)) return found;
  pgpassLine.lastIndex = 0;
  for (let match = pgpassLine.exec(text); match; match = pgpassLine.exec(text)) {
    const { database, user, secret } = match.groups!;
    if (!namedField(database!) || !namedField(user!)) continue;
    // `x-github-request-id: 410A:33638:678E9EE:7D11B11:BBD36ED2`: hex fields throughout are an id.
    if (allHex.test(match[0].replace(/:/g, ''))) continue;
    if (isTemplate(secret!) || isPlaceholder(secret!) || /^[*\d]+$/.test(secret!)) continue;
    // A plain word or identifier (`ratelimit:60:api:login:attempts`, `srv:8080:api:v1:users`) is a
    // colon key's last part, not a password.
    if (plainName.test(secret!)) continue;
    const end = match.index + match[0].length;
    found.push({ kind: 'pgpass-password', start: end - secret!.length, end });
  }
  return found;
}
