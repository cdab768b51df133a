import { isWordNamedPrefix } from './word-named-prefix.js';

/**
 * Names tools give the files they make: a caller's name and a drawn suffix. Temporary-file APIs
 * (`mktemp`, `tempfile`, `fs.mkdtemp`) append it under the temporary directory; packagers and
 * caches name archives so (`<name>-<hash>.tar.gz`). Issuers name neither, and a credential kept in
 * a file is named by its holder (`~/ci/<token>.json` stays a token).
 */

// The temporary directory as systems spell it: `/tmp`, `/var/tmp`, `%TEMP%`. macOS's `$TMPDIR` ends
// in a capital `T` under `/var/folders/<2>/<name>/`; a lower-case `t` (`/t/invite-…`) or a `T`
// elsewhere is a route or a folder of someone's, not a temporary directory.
const temporaryDirectory = /(?:^|\/)(?:\.?tmp|temp)$/i;
const macTemporaryDirectory = /(?:^|\/)var\/folders\/[\w+-]+\/[\w+-]+\/T$/;
const archive = /\.(?:tar(?:\.(?:gz|xz|bz2|zst))?|tgz|zip|7z|whl|jar|deb|rpm|nupkg|gem|crate)$/;
// A lower-case name of words before the last separator, then the drawn part (read apart: one
// pattern over both backtracked over every separator).
const nameOfWords = /^[a-z][a-z0-9]*(?:[_-][a-z][a-z0-9]*)*$/;
const drawnSuffix = /^[A-Za-z0-9]+$/;
// `mktemp`'s template X's (6–10 as written, 20 at the most seen), `tempfile`'s 8, `mkdtemp`'s 6:
// a longer body under a temporary directory is judged as anywhere else.
const maximumTemporarySuffix = 20;
// What packagers and caches put after an archive's name: a version, a date or a short hash in
// any case; a content hash in lower-case letters and digits (Nix and caches write base32 of up to
// 32); a commit's hex (`<repo>-<40 hex>.tar.gz`); a timestamp in digits. Not a long body of both
// cases, which no tool mints for a file name.
const shortAnySuffix = /^[A-Za-z0-9]{1,12}$/;
const lowerHashSuffix = /^[a-z0-9]{1,32}$/;
const commitSuffix = /^[0-9a-f]{40}$/;
const timestampSuffix = /^\d{1,20}$/;

/**
 * True when `segment` (a path segment without its extension; `file` with it) is a word-named
 * prefix and a drawn suffix that a tool made: under a temporary directory of a local path with a
 * suffix of at most 20 characters, or with an archive's extension and a suffix such tools write.
 * `directory` is the local path of folders above the file as written (`/tmp`, `~/dist`), undefined
 * for a file in a URL or on another host (`https://…/temp/…`, `host:/tmp/…`).
 */
export function isToolMadeFileName(
  segment: string,
  file: string,
  directory: string | undefined,
): boolean {
  const last = Math.max(
    segment.lastIndexOf('_'),
    segment.lastIndexOf('-'),
    segment.lastIndexOf('.'),
  );
  const name = segment.slice(0, last);
  const suffix = segment.slice(last + 1);
  if (last < 1 || !nameOfWords.test(name) || !drawnSuffix.test(suffix)) return false;
  if (!isWordNamedPrefix(name)) return false;
  if (archive.test(file)) {
    return (
      shortAnySuffix.test(suffix) ||
      lowerHashSuffix.test(suffix) ||
      commitSuffix.test(suffix) ||
      timestampSuffix.test(suffix)
    );
  }
  return (
    directory !== undefined &&
    suffix.length <= maximumTemporarySuffix &&
    (temporaryDirectory.test(directory) || macTemporaryDirectory.test(directory))
  );
}
