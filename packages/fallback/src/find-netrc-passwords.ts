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
const netrcEntry =
  /(?:^|\s)(?:machine[ \t\r\n]+\S{1,253}|default)(?:[ \t\r\n]+(?:login|account|port)[ \t\r\n]+\S{1,256}){1,4}[ \t\r\n]+password[ \t\r\n]+(?<secret>"[^"\n]{1,256}"|\S{1,256})/g;

const entryOpening = /\b(?:machine|default)\s/;
const loginBefore = /\slogin\s/;

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
