import { redactSecrets } from '@baton/fallback';

/**
 * Describes a value from the command line or a file without printing it: a secret pasted into the
 * wrong flag or field must not reach the terminal, a log or a CI transcript.
 */
export function withheldValue(value: string): string {
  const length = [...value].length;
  return `a ${length}-character value (not shown)`;
}

/**
 * An option name as typed (`--window`) when it is one the command defines; anything else is
 * withheld. A mistyped flag can be a pasted password, and no shape test tells a word from one.
 */
export function optionName(name: string, known: ReadonlySet<string>): string {
  const bare = name.split('=')[0]!;
  return known.has(bare) ? `'${bare}'` : `(a ${[...bare].length}-character name, not shown)`;
}

// V8's JSON.parse quotes up to ~30 characters around the error: `Unexpected token 'x', "…" is not valid JSON`.
const jsonExcerpt = /,\s*(?:\.\.\.)?".*"(?:\.\.\.)?\s+is not valid JSON/s;
// The compressor's validation messages end with the value they rejected: `…, got "…"`.
const gotValue = /\bgot\s+(?:"(?:[^"\\]|\\.)*"|'[^']*'|`[^`]*`)/g;
// A quoted run that is long or mixes letters and digits like a key does.
const quoted = /(["'`])((?:(?!\1).){1,2000}?)\1/g;
const keyLike = /(?=[A-Za-z0-9_+/=-]{12,})(?=[^\s]*\d)(?=[^\s]*[A-Za-z])[A-Za-z0-9_+/=-]{12,}/;

/**
 * An error message from another package or from Node, made safe to print: known secret shapes
 * redacted, JSON.parse's input excerpt dropped, a rejected value (`got "…"`) withheld, and any
 * other quoted value that is long or key-like withheld. File names and option names stay.
 */
export function safeErrorText(message: string): string {
  let text = message.replace(jsonExcerpt, '');
  text = text.replace(gotValue, 'got a value that is not shown');
  // Double quotes: the compressor quotes its constants that way (`must be "system", "user" …`);
  // single quotes hold what the input said (`unsupported role '…'`).
  text = text.replace(quoted, (match, quote: string, inner: string) =>
    (quote === "'" && inner.length > 1) || inner.length > 32 || keyLike.test(inner)
      ? `${quote}…${quote}`
      : match,
  );
  return redactSecrets(text).text;
}
