/**
 * True when a value under a secret's name says where the secret is kept rather than holding it: a
 * file path (`/run/secrets/db`, `./secrets/db.json`, `~/.config/token`) or a URL without
 * credentials (`https://vault.internal/v1/db`). `DB_PASSWORD=/run/secrets/db` is read when the
 * variable is used; the keyed rules read a path or such a URL the same way (`acceptKeyedValue`).
 * A path is made of name characters between its slashes: a password that starts with `/` and
 * holds a symbol (`/x+Q=9…`) is no path.
 */
export function pointsElsewhere(value: string): boolean {
  return filePath.test(value) || plainUrl.test(value);
}

const filePath = /^(?:\.{0,2}|~)\/[\w.-]+(?:\/[\w.-]*)*$/;
const plainUrl = /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i;
