import { isWordNamedPrefix } from './word-named-prefix.js';

/**
 * Names tools give the files they make: a caller's name and a drawn suffix. Temporary-file APIs
 * (`mktemp`, `tempfile`, `fs.mkdtemp`) append it under the temporary directory; packagers and
 * caches name archives so (`<name>-<hash>.tar.gz`). Issuers name neither, and a credential kept in
 * a file is named by its holder (`~/ci/<token>.json` stays a token).
 */

// The temporary directory as systems spell it: `/tmp`, `/var/tmp`, `$TMPDIR` on macOS ending `/T`.
const temporaryDirectory = /^(?:\.?tmp|temp|T)$/i;
const archive = /\.(?:tar(?:\.(?:gz|xz|bz2|zst))?|tgz|zip|7z|whl|jar|deb|rpm|nupkg|gem|crate)$/;
// A lower-case name of words before the last separator, then the drawn part (read apart: one
// pattern over both backtracked over every separator). Temporary-file suffixes are 6–20
// characters; a longer body under `/tmp` is judged as anywhere else.
const nameOfWords = /^[a-z][a-z0-9]*(?:[_-][a-z][a-z0-9]*)*$/;
const drawnSuffix = /^[A-Za-z0-9]+$/;

/**
 * True when `segment` (a path segment without its extension; `file` with it, `parent` the
 * directory above) is a word-named prefix and a drawn suffix that a tool made: under a temporary
 * directory with a suffix of at most 24 characters, or with an archive's extension.
 */
export function isToolMadeFileName(segment: string, file: string, parent: string): boolean {
  const last = Math.max(
    segment.lastIndexOf('_'),
    segment.lastIndexOf('-'),
    segment.lastIndexOf('.'),
  );
  const name = segment.slice(0, last);
  const suffix = segment.slice(last + 1);
  if (last < 1 || !nameOfWords.test(name) || !drawnSuffix.test(suffix)) return false;
  if (!isWordNamedPrefix(name)) return false;
  if (archive.test(file)) return true;
  return temporaryDirectory.test(parent) && suffix.length <= 24;
}
