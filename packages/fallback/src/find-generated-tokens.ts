import { isCutShortHeader } from './cut-short-header.js';
import { encodedFileRanges } from './encoded-file-ranges.js';
import {
  decodesToReadable,
  type GeneratedTokenKind,
  hasHexBody,
  isBareRandomHex,
  isBase32Body,
  isObjectId,
  isSignedToken,
  judgeSegment,
  looksGenerated,
  readsAsCamelName,
} from './generated-token-shape.js';
import { isUlid } from './is-ulid.js';
import { sshPublicKeyRanges } from './public-identifier.js';
import { readsAsRandomLetters } from './reads-as-random-letters.js';
import { isPlaceholder, readsAsWords } from './secret-heuristics.js';
import {
  keyDeclaresNotSecret,
  keyIsSecret,
  keyNamesPageCursor,
  keyNamesPublicId,
  nameBeforeValue,
} from './secret-rules.js';
import { isToolMadeFileName } from './tool-made-file-name.js';

// `text.charCodeAt(i)` without a lookup on `text` per character, and a local constant rather than
// an import (see redact-secrets.ts).
const charCodeAt = String.prototype.charCodeAt;

/**
 * Structural detection that needs no list of credential families (`generated-token-shape.ts`): a
 * family nobody wrote a rule for still has the shape of a prefix and a generated body.
 */
export interface GeneratedTokenSpan {
  kind: GeneratedTokenKind;
  start: number;
  end: number;
}

// Runs of token characters: base64 (`+/=`), base64url (`-_`), and `.`/`~` that join a prefix or
// a token's segments. Longer runs (image bytes, minified code) are content, not credentials.
// Found by a scan of maximal runs rather than `/[…]{20,1000}/g`, which re-tried every position
// inside each shorter run (every word) and was a twelfth of all redaction time.
// 19: a two-letter prefix, a separator and 16 hex or base32 characters (`ab_<hex>`), the shortest
// shape judged; below 20 only that shape is (`shortHexToken`).
const minRun = 19;
const shortHexToken =
  /^[A-Za-z][\w-]{1,35}[_\-.~](?:[0-9a-fA-F]{16}[0-9a-fA-F]*|[A-Z2-7]{16}[A-Z2-7]*)$/;
const maxRun = 1000;
const tokenCharacter = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=.~')
  tokenCharacter[character.charCodeAt(0)] = 1;
const isTokenCharacter = (code: number) => code < 128 && tokenCharacter[code] === 1;

// Armoured blocks that are not private keys (certificates, public keys, signatures, encrypted
// messages) are base64 lines anyone may publish.
const publicBlock =
  /-----BEGIN (?![A-Z ]*PRIVATE)[A-Z0-9 ]+-----[\s\S]{0,20000}?(?:-----END [A-Z0-9 ]+-----|$)/g;

// `h1:` is a Go module sum, an IPFS path a content hash.
const digestWords = /sha-?\d|md5|hash|digest|integrity|checksum|fingerprint|ipfs|\bh1:/gi;

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * True when `line` names a digest: a digest word standing as a word of its own or as a hump of a
 * camel-case name (`contentHash`). Random base64 earlier on the line spells `MD5` or `sha1` now
 * and then, and that must not make a token after it a digest.
 */
function namesDigest(line: string): boolean {
  digestWords.lastIndex = 0;
  for (let word = digestWords.exec(line); word; word = digestWords.exec(line)) {
    if (!isAlphanumeric(line.charCodeAt(word.index - 1)) || word[0].startsWith('h1:')) return true;
    // A hump: lower-case letters from a word's start, then the word capitalised. Random base64 is
    // full of humps (`x6donpMd5`), but rarely of three lower-case letters opening a word.
    const first = line.charCodeAt(word.index);
    if (first < 65 || first > 90) continue;
    let letters = word.index;
    while (letters > 0) {
      const code = line.charCodeAt(letters - 1);
      if (code < 97 || code > 122) break;
      letters--;
    }
    if (word.index - letters >= 3 && !isAlphanumeric(line.charCodeAt(letters - 1))) return true;
  }
  return false;
}

// The END line of a certificate or public key whose BEGIN line was cut off, and the base64 lines
// just above it.
const publicEnd = /-----END (?![A-Z ]*PRIVATE)[A-Z0-9 ]+-----/g;

/** Start of the run of base64 lines that ends just before `end`. */
function base64LinesAbove(text: string, end: number): number {
  let from = end;
  for (;;) {
    const lineEnd = text.lastIndexOf('\n', from - 1);
    if (lineEnd < 0) return from;
    const lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
    if (!/^[A-Za-z0-9+/=]{16}[A-Za-z0-9+/=]*\r?$/.test(text.slice(lineStart, lineEnd))) return from;
    from = lineStart;
  }
}

const sourceMappings = /\\?["']mappings\\?["']\s*:\s*\\?["'][A-Za-z0-9+/,;]*/g;

// A file name's extension is not part of a token (`~/ci/<token>.json`).
const extension = /\.[A-Za-z][A-Za-z0-9]{0,4}$/;
// Images, audio and video: a media file named in a URL (`//cdn.example/file/<id>.jpg`) is
// fetched by every page that shows it, so its name is an address, not a credential (signed media
// URLs carry their signature in the query, which stays judged).
const mediaExtension =
  /\.(?:jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|heic|mp4|webm|mov|m4v|mp3|m4a|ogg|oga|wav|flac)$/i;

/**
 * Ranges of text not to judge, asked about positions in increasing order: merged once, then walked
 * with one cursor (a text of many certificate blocks and many runs stays linear).
 */
class SkippedRanges {
  private readonly ranges: Array<[number, number]>;
  private cursor = 0;

  constructor(ranges: Array<[number, number]>) {
    const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
    this.ranges = [];
    for (const range of sorted) {
      const last = this.ranges[this.ranges.length - 1];
      if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
      else this.ranges.push([range[0], range[1]]);
    }
  }

  covers(position: number): boolean {
    while (this.cursor < this.ranges.length && this.ranges[this.cursor]![1] <= position) {
      this.cursor++;
    }
    const range = this.ranges[this.cursor];
    return range !== undefined && position >= range[0];
  }
}

const noSkippedRanges = new SkippedRanges([]);
const noRanges: ReadonlyArray<[number, number]> = [];

/** A character of a token-shaped value: letters, digits and `+ / _ . ~ -`. */
function isValueCharacter(code: number): boolean {
  return (
    isAlphanumeric(code) ||
    code === 0x2b ||
    code === 0x2f ||
    code === 0x5f ||
    code === 0x2e ||
    code === 0x7e ||
    code === 0x2d
  );
}

/** True when the text before a value names it as public or opaque, not a credential. */
function declaredNotSecret(text: string, start: number): boolean {
  const from = Math.max(0, start - 200);
  const before = text.slice(from, start).replace(/["']$/, '');
  // A piece inside a page cursor (`NextToken=ab/<piece>`: base64 splits at `/`) is judged by the
  // cursor's key. Only there: under other keys a path's last piece can be a token
  // (`output=x/<token>`, `IMAGE=registry/<token>`).
  let end = start;
  while (end > from && isValueCharacter(text.charCodeAt(end - 1))) end--;
  if (end < start && keyNamesPageCursor(text.slice(from, end))) return true;
  // `publicToken = "…"`, `"signature": "…"`, `csrf-token=…`, `"data": "…"` (image bytes), and the
  // initialisation vector or tag beside an encrypted value (`iv:…,tag:…`).
  // A data URI's bytes are content (`data:image/png;base64,…`), whatever key holds it; an ETag
  // and S3's extended request id name a version and a request.
  return (
    keyDeclaresNotSecret(before) ||
    keyNamesPublicId(before) ||
    /(?:^|[^A-Za-z])(?:iv|tag|nonce|mac)\s*[:=]\s*$/i.test(before) ||
    // SOPS writes every encrypted value as `ENC[AES256_GCM,data:<ciphertext>,iv:…,tag:…]`.
    /\bENC\[[A-Z0-9_]+,data:$/.test(before) ||
    /\b(?:etag|x-amz-id-2|x-amz-cf-id)\s*[:=]\s*(?:W\/)?$/i.test(before) ||
    /\bdata:[\w.+-]*\/?[\w.+-]*(?:;[\w.+-]+=[^;,\s]*)*;base64,$/i.test(before)
  );
}

// A Fernet token: version byte 0x80 and a 64-bit timestamp (`gAAAAA…`), then IV, ciphertext and
// HMAC, 73 bytes at least (100 base64url characters). It is a message encrypted with a key kept
// elsewhere: ciphertext, not a credential.
const fernetTokens =
  /(?<![A-Za-z0-9_-])gAAAAA[A-Za-z0-9_-]{90}[A-Za-z0-9_-]*={0,2}(?![A-Za-z0-9_=-])/g;

// Literals of `judgeRun`, made once: each evaluation of a regex literal makes a new RegExp, and a
// path-heavy window judges a run per path. None is global (no `lastIndex` is shared).
const digitOrCapital = /[0-9A-Z]/;
const mangledSymbol = /^_(?:ZN|ZNK|ZNS|R[NCMXYIB])/;
const leadingPunctuation = /^[.~=/_-]+/;
const trailingPunctuation = /[.~/_-]+$/;
const keyValueSign = /=[^=]/;
// A key word and the dot gluing a value to it (`token.`, `api_key.`), after the key of an
// assignment or a query parameter the run opens with (`SERVICE=auth.`, `v=sig.`).
const credentialHead = /^(?:[A-Za-z_][\w-]{0,60}=)?([A-Za-z][A-Za-z_-]{1,30})\.(?=[A-Za-z0-9+/])/;
// The same word glued by `_` or `-` to a body of one piece (`apikey_<base36>`, `token-<base36>`):
// the body has no separator, so the last one ends the word.
const credentialUnderscoreHead =
  /^(?:[A-Za-z_][\w-]{0,60}=)?([A-Za-z][A-Za-z_-]{1,30})[_-](?=[a-z0-9]{16}[a-z0-9]*$|[A-Z0-9]{16}[A-Z0-9]*$)/;
// A key word as code writes one: parts in one case or camel humps, not letters drawn at random
// (`PWFujAJwVGP` of a base64url value holds `pw` but names nothing).
const keyWordShape =
  /^(?:[a-z]+(?:[A-Z][a-z]+)*|[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z]+)(?:[_-]+(?:[a-z]+(?:[A-Z][a-z]+)*|[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z]+))*$/;
const trailingPadding = /=+$/;
const trailingSeparators = /[.~_-]+$/;
const urlSafeCharacter = /[-_]/;
const oneCaseAlnum = /^(?:[a-z0-9]+|[A-Z0-9]+)$/;
const nonLetters = /[^a-z]/g;

interface RunContext {
  declared: boolean;
  digest: boolean;
}

/** The key before a run with its separator (`h1:` is a word of `digestWords`), or the line. */
function digestContext(line: string): string {
  const name = nameBeforeValue(line);
  return name === line ? line : `${name}:`;
}

/** What the text before a run says of it: named as not secret, or a digest named on its line. */
function runContext(text: string, runStart: number): RunContext {
  // Digests are written in base64 too, and their line says so (`sha256`, `integrity`); only the 200
  // characters before count (searching back to the line start is quadratic on one long line).
  const near = text.slice(Math.max(0, runStart - 200), runStart);
  return {
    declared: declaredNotSecret(text, runStart),
    // Named by the key just before the run when one stands there (`"hash": "`, `integrity: `), not
    // by another member of a one-line object (`{"hash": "md5", "value": "<token>"}`).
    digest: namesDigest(digestContext(near.slice(near.lastIndexOf('\n') + 1))),
  };
}

/**
 * A body of one case of letters and digits, one piece (base36, as issuers draw short keys): after a
 * word naming a credential it is judged as a body after a prefix is. Alone such a run is as often a
 * name with numbers, so only the key's word lets it pass.
 */
function isOneCaseDrawnBody(value: string): boolean {
  // A ULID is a record's id after any name (`login.<ulid>`); after a credential's own name the
  // rules for ULIDs judge it.
  if (value.length < 16 || !oneCaseAlnum.test(value) || isUlid(value)) return false;
  if (looksGenerated(value, 16, true)) return true;
  // Few digits, or digits in one or two places (`ygjxjjp9meag8yrrjoy`): a name with a number
  // switches as seldom, but its letters are words; drawn letters pair as no word does.
  const letters = value.toLowerCase().replace(nonLetters, '');
  return (
    letters.length < value.length &&
    readsAsRandomLetters(letters) &&
    !readsAsWords(value) &&
    !isPlaceholder(value)
  );
}

/** Where the body starts in `segment` when it is a credential word glued to a one-case body. */
function gluedOneCaseBody(segment: string): number {
  const head = credentialHead.exec(segment) ?? credentialUnderscoreHead.exec(segment);
  if (head === null || head[0].length !== head[1]!.length + 1) return -1;
  if (!keyWordShape.test(head[1]!) || keyIsSecret(head[1]!) === undefined) return -1;
  return isOneCaseDrawnBody(segment.slice(head[0].length)) ? head[0].length : -1;
}

/** Judges one run of token characters starting at `start` of `text`. */
function judgeRun(
  text: string,
  whole: string,
  runStart: number,
  skipped: SkippedRanges,
  found: GeneratedTokenSpan[],
  afterHead = false,
): void {
  let start = runStart;
  // Every generated shape holds a digit or a capital; most runs (lower-case paths, kebab-case
  // names) hold neither and end here.
  if (!digitOrCapital.test(whole) || skipped.covers(start)) return;
  // Mangled C++ and Rust symbols (`_ZN4core3ptr…`, `_RNvCs…`) fill every stack trace.
  if (mangledSymbol.test(whole)) return;
  // The context (the key before, a digest named on the line) is read only for a run that has the
  // shape: reading it for every run of a transcript would cost more than the shapes themselves.
  // Made on first use (a closure that made it was one more object per run judged).
  let context: RunContext | undefined;
  // Sentence punctuation and path or query separators at the edges are not part of a token.
  const lead = leadingPunctuation.exec(whole)?.[0].length ?? 0;
  start += lead;
  const trimmed = whole.slice(lead).replace(trailingPunctuation, '');
  // A value glued by a dot to a word naming a credential (`auth.live_<hex>`, `sig.<base64 with />`)
  // is judged on its own: the word is its key, not the prefix of one token, and base64 parted by
  // `/` after `word.` would otherwise be judged piece by piece and keep its short pieces.
  // One word is read off (`auth.sig.key.…` is not walked word by word, each a copy of the run).
  const head = afterHead ? null : credentialHead.exec(trimmed);
  // `apikey_<base36>`: judged as a run first (a prefix and its body go whole, as before); a body
  // too short or in one case for that is judged after the word, as after `apikey.`.
  const underscoreHead = afterHead || head !== null ? null : credentialUnderscoreHead.exec(trimmed);
  if (
    underscoreHead !== null &&
    keyWordShape.test(underscoreHead[1]!) &&
    keyIsSecret(underscoreHead[1]!) !== undefined
  ) {
    const before = found.length;
    judgeRun(text, whole, runStart, skipped, found, true);
    if (found.length > before) return;
    const valueStart = start + underscoreHead[0].length;
    const value = trimmed.slice(underscoreHead[0].length);
    if (
      isOneCaseDrawnBody(value) &&
      !runContext(text, runStart).declared &&
      !declaredNotSecret(text, valueStart)
    ) {
      found.push({ kind: 'generated-token', start: valueStart, end: valueStart + value.length });
    }
    return;
  }
  const strength = head === null ? undefined : keyIsSecret(head[1]!);
  if (head !== null && strength !== undefined) {
    const before = found.length;
    const value = trimmed.slice(head[0].length);
    const valueStart = start + head[0].length;
    judgeRun(text, value, valueStart, skipped, found, true);
    if (found.length > before) return;
    // Shorter than a token judged anywhere, the key's word lets random hex, base32 or a drawn
    // body of 16 or more pass (`key.ab_<hex of 28>`, `salt.<base64 of 24>`); names do not
    // (`auth.currentUser`, `token.expires_in`), nor member access (`token.value.length`).
    if (
      value.length >= 16 &&
      !value.includes('.') &&
      (hasHexBody(value, true) ||
        isBareRandomHex(value) ||
        // Not the keyed reading: a dot glues weaker than `key=`, and an upper-case run after
        // `token.` is far more often a constant (`token.KEYWORDIDENTIFIER`) than base32.
        isBase32Body(value) ||
        (looksGenerated(value, 16, false) &&
          !readsAsCamelName(value) &&
          !decodesToReadable(value)) ||
        (keyWordShape.test(head[1]!) && isOneCaseDrawnBody(value))) &&
      !declaredNotSecret(text, valueStart)
    ) {
      found.push({ kind: 'generated-token', start: valueStart, end: valueStart + value.length });
      return;
    }
  }
  const fileName = extension.test(trimmed);
  const run = trimmed.replace(extension, '');
  if (run.length < minRun) return;
  // Shown cut short with only a self-describing header in view (`ops_eyJzaWdu…`): no secret.
  if (isCutShortHeader(text, start, start + run.length)) return;
  // A URL (`//` after its scheme's colon, or protocol-relative) naming a media file.
  const mediaInUrl = fileName && whole.startsWith('//') && mediaExtension.test(trimmed);
  // Standard base64 writes `/` and base64url `-` and `_`: a run with both is no one encoded
  // value. Its segments holding `-` or `_` are names (`my-bucket`, `key-store`,
  // `zyxv…_n000…`); between them a stretch of standard-base64 segments may still be one value
  // (`s3://my-bucket/<base64 with />`), judged whole below.
  const parted = !mediaInUrl && run.includes('/') && urlSafeCharacter.test(run);
  // Whole first: a base64 body holds `/` and `+`; a path (a segment that is a word) does not.
  if (!mediaInUrl && !parted && readsAsOneValue(run)) {
    context ??= runContext(text, runStart);
    if (context.declared) return;
    if (!context.digest) {
      found.push({ kind: 'generated-token', start, end: start + run.length });
      return;
    }
  }
  // A path or a query run that holds words (`/etc/app/<base64>`, `code=<base64>&`) is not one
  // value either; a stretch of its segments between the words still may be.
  // Only a run with 32 characters or more in both cases and a digit can hold one (a value is
  // judged as `looksGenerated` judges one); most paths hold neither, and are not split again.
  const stretches = parted
    ? base64Stretches(run, 0)
    : !mediaInUrl && run.length >= 32 && run.includes('/') && mixedWithDigit(run)
      ? base64Stretches(run, 16)
      : noStretches;
  let stretch = 0;
  // Else each path segment and each side of `key=value` on its own.
  const pieces = /[^/=]+=*/g;
  let directory = '';
  for (let piece = pieces.exec(run); piece; piece = pieces.exec(run)) {
    const within = stretches[stretch];
    if (within !== undefined && piece.index >= within[0]) {
      if (piece.index + piece[0].length >= within[1]) stretch++;
      directory = '';
      if (piece.index > within[0]) continue;
      context ??= runContext(text, runStart);
      if (context.declared) return;
      // Under a key of its own (`NextToken=<cursor>`, `publicKey=…`) the key decides.
      if (within[0] > 0 && declaredNotSecret(text, start + within[0])) continue;
      if (!context.digest && !skipped.covers(start + within[0])) {
        found.push({ kind: 'generated-token', start: start + within[0], end: start + within[1] });
      }
      continue;
    }
    // `--<token>=1`: the `=` before a value ends a key, it is not base64 padding of it.
    const segment = piece[0]
      .replace(trailingPadding, '')
      .replace(extension, '')
      .replace(trailingSeparators, '');
    const parent = directory;
    directory = run[piece.index + piece[0].length] === '/' ? segment : '';
    if (skipped.covers(start + piece.index)) continue;
    if (mediaInUrl && piece.index + piece[0].length === run.length) continue;
    // A file named by random hex in a directory named for keys (`~/keys/<hex>`, `secrets/<hex>`):
    // the name is the key, as it would be under a key of that name.
    if (parent !== '' && isHexKeyFile(segment) && keyIsSecret(parent) !== undefined) {
      context ??= runContext(text, runStart);
      if (context.declared) return;
      found.push({
        kind: 'generated-token',
        start: start + piece.index,
        end: start + piece.index + segment.length,
      });
      continue;
    }
    const short = segment.length < 20 && !(segment.length >= minRun && shortHexToken.test(segment));
    const kind = short ? undefined : judgeSegment(segment);
    if (kind === undefined) {
      // A path segment or a query value that is a credential word glued to a drawn body
      // (`/v1/apikey_<base36>/`, `v=token.<base36>`): the word is the body's key.
      const body = piece.index > 0 ? gluedOneCaseBody(segment) : -1;
      if (body > 0) {
        context ??= runContext(text, runStart);
        if (context.declared) return;
        if (!declaredNotSecret(text, start + piece.index)) {
          const segmentEnd = start + piece.index + segment.length;
          found.push({
            kind: 'generated-token',
            start: start + piece.index + body,
            end: segmentEnd,
          });
        }
      }
      continue;
    }
    context ??= runContext(text, runStart);
    if (context.declared) return;
    const segmentStart = start + piece.index;
    if (piece.index > 0 && declaredNotSecret(text, segmentStart)) continue;
    if (isCutShortHeader(text, segmentStart, segmentStart + segment.length)) continue;
    if (context.digest && kind === 'generated-token') continue;
    // A build tool's fingerprinted asset (`logo-<sha256>.png`): a name of letters or words, `-`, a
    // content hash in hex and a file extension. Issuers join their prefix with `_` (`sgp_<hex>.json`)
    // or mint one with digits (`s-s4t2ud-<hex>`): those are tokens. Issuer rules still find a hex
    // token used as a file name.
    const asset = /^([A-Za-z][\w.-]*?)-(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})$/.exec(segment);
    const named =
      extension.test(piece[0]) || (fileName && piece.index + piece[0].length === run.length);
    if (
      kind === 'prefixed-token' &&
      named &&
      asset !== null &&
      (/^[A-Za-z][A-Za-z._-]*$/.test(asset[1]!) || readsAsWords(asset[1]!))
    ) {
      continue;
    }
    // Bundlers name chunks `<name>.<hash>.js` or `<name>-<hash>.css` with 8–20 hex; Cargo names
    // each crate's build `<crate>-<16 hex>` under `deps/`, `build/`, `.fingerprint/`.
    // The name with every extension (`main.<hash>.chunk.js`).
    const file =
      piece.index + piece[0].length === run.length ? trimmed.slice(piece.index) : piece[0];
    if (
      kind === 'prefixed-token' &&
      (isBuildHashName(segment, file, parent) ||
        isToolMadeFileName(
          segment,
          file,
          localFolders(text, runStart, whole.slice(0, lead), run, piece.index),
        ))
    ) {
      continue;
    }
    found.push({ kind, start: segmentStart, end: segmentStart + segment.length });
  }
}

/**
 * True when `value` (a run, or a stretch of one) reads as one generated value: no file name, no
 * `key=value`, no object id, not a path of words, generated and not encoded text.
 */
function readsAsOneValue(value: string): boolean {
  return (
    !value.includes('.') &&
    !keyValueSign.test(value) &&
    !isObjectId(value) &&
    // A path is mostly words for segments (`src`, `Users`); base64 holds `/QqYNJGZ/` or `/Pbdoo/`
    // by chance, but not in half of its segments.
    !readsAsPath(value) &&
    looksGenerated(value, 32, false) &&
    !decodesToReadable(value)
  );
}

const noStretches: ReadonlyArray<[number, number]> = [];
const lowerLetter = /[a-z]/;
const upperLetter = /[A-Z]/;
const digit = /\d/;
const mixedWithDigit = (run: string) =>
  digit.test(run) && upperLetter.test(run) && lowerLetter.test(run);
const base64Segment = /^[A-Za-z0-9+]+=*$/;
const valueAfterKey = /=[A-Za-z0-9+]+$/;

/**
 * Where, in a run holding `/` (a path, a URL's path, `key=value` pairs), two or more consecutive
 * segments could be one standard-base64 value: segments of its alphabet alone, between segments
 * that hold `-`, `_` or `.` (names of folders and files) or that are words (`keys`, `status`).
 * Those read as one value are returned as `[start, end]` offsets of `run`; the rest is left to the
 * segments' own judgement.
 */
function base64Stretches(run: string, longestPart: number): Array<[number, number]> {
  const stretches: Array<[number, number]> = [];
  let from = -1;
  let index = 0;
  const close = (until: number) => {
    let start = from;
    let end = until;
    // Folders' names at either end are the path's, not the value's, and so is one short part
    // beside them (`v2` of `/v2/keys/`): a value loses at most three characters so.
    let short = false;
    for (;;) {
      while (end > start && run.charCodeAt(end - 1) === 0x2f) end--;
      const last = run.lastIndexOf('/', end - 1) + 1;
      if (last <= start || !isFolderPart(run.slice(last, end), short)) break;
      short ||= end - last <= 3;
      end = last;
    }
    short = false;
    for (;;) {
      while (start < end && run.charCodeAt(start) === 0x2f) start++;
      const next = run.indexOf('/', start);
      if (next < 0 || next >= end || !isFolderPart(run.slice(start, next), short)) break;
      short ||= next - start <= 3;
      start = next + 1;
    }
    const value = run.slice(start, end);
    if (
      value.includes('/') &&
      hasPartOf(value, longestPart) &&
      !namedParts(value) &&
      readsAsOneValue(value)
    ) {
      stretches.push([start, end]);
    }
    from = -1;
  };
  while (index <= run.length) {
    let end = run.indexOf('/', index);
    if (end < 0) end = run.length;
    const segment = run.slice(index, end);
    // Base64 writes `//` now and then: an empty segment inside a stretch is part of it.
    if (end === index && from >= 0 && end < run.length) {
      // Nothing to count.
    } else if (
      base64Segment.test(segment) &&
      !(segment.length >= 4 && isFolderPart(segment, true))
    ) {
      // A word of four letters or more (`keys`, `status`) parts a path; base64 draws letters
      // only now and then (`/Gvcr/`, `/Pbdoo/`), and seldom ones that read as a word.
      if (from < 0) from = index;
    } else {
      if (from >= 0) close(index - 1);
      // A value opens after its key's `=` (`secret_key=<base64 with />`).
      const value = valueAfterKey.exec(segment);
      if (value !== null) from = index + value.index + 1;
    }
    index = end + 1;
  }
  if (from >= 0) close(run.length);
  return stretches;
}

/**
 * True when a `/`-parted part of `value` holds `length` characters or more. Outside a path of
 * folder names, ids of a dozen characters stand side by side in URLs (`/embed/dQw4w9WgXcQ/…`);
 * base64 parts itself with `/` one time in 64, so a drawn value's longest part is seldom short.
 */
function hasPartOf(value: string, length: number): boolean {
  if (length === 0) return true;
  let from = 0;
  for (let slash = value.indexOf('/'); ; slash = value.indexOf('/', from)) {
    const end = slash < 0 ? value.length : slash;
    if (end - from >= length) return true;
    if (slash < 0) return false;
    from = slash + 1;
  }
}

/**
 * True when half the parts of four characters or more of `value` read as names, in words or in
 * camel humps with numbers (`rsa2048EdgeCopy/BoardApplyV2`): folders, whatever their alphabet.
 */
function namedParts(value: string): boolean {
  let long = 0;
  let named = 0;
  for (const part of value.split('/')) {
    if (part.length < 4) continue;
    long++;
    if (
      readsAsWords(part) ||
      readsAsCamelName(part) ||
      readsAsCamelName(part.replace(/\d+/g, ''))
    ) {
      named++;
    } else if (part.length >= 20) {
      // Twenty characters that read as no name are a drawn value's, whatever stands beside them
      // (`ayxwPEgnXgTSHxTAyKaWSeEBHjRH/FHello59363`).
      return false;
    }
  }
  return named * 2 >= long;
}

/**
 * A folder's name (`etc`, `Users`, `api_keys`), or a part of three characters or fewer (`v2`)
 * unless one was `shortSeen` already.
 */
function isFolderPart(segment: string, shortSeen: boolean): boolean {
  if (segment.length <= 3 && !shortSeen) return true;
  return pathWord.test(segment) && readsAsWords(segment);
}

// The folders above a file as written in a local path: rooted (`/tmp/…`), at home (`~/…`),
// relative (`./…`, `dist/…`) or on a drive (`C:/…`).
const driveColon = /(?:^|[^A-Za-z0-9])[A-Za-z]:$/;

/**
 * The folders above the piece at `pieceIndex` of `run` (the run's leading punctuation `lead`
 * trimmed), from the last `=` before it (`--out=/tmp/…`), or undefined when they are no local path:
 * a URL's (`https://host/temp/…`, `//host/…`) or another host's (`host:/tmp/…`).
 */
function localFolders(
  text: string,
  runStart: number,
  lead: string,
  run: string,
  pieceIndex: number,
): string | undefined {
  const from = pieceIndex === 0 ? 0 : run.lastIndexOf('=', pieceIndex - 1) + 1;
  const folders = (from === 0 ? lead : '') + run.slice(from, pieceIndex).replace(/\/+$/, '');
  if (folders.startsWith('//')) return undefined;
  if (from === 0 && text.charCodeAt(runStart - 1) === 0x3a) {
    return driveColon.test(text.slice(Math.max(0, runStart - 3), runStart)) ? folders : undefined;
  }
  return folders;
}

// A word, or a name of words joined by `_` or `-` (`api_keys`, `user-sessions`): what folders and
// collections are called. Base64 with `/` (the standard alphabet) never holds `_` or `-`.
const pathWord =
  /^(?:[a-z]{3,}|[A-Z][a-z]{2,})$|^(?:[a-z]{2,}|[A-Z][a-z]{2,})(?:[_-](?:[a-z]{2,}|[A-Z][a-z]{2,}))+$/;

const builtAssetExtension =
  /\.(?:m?js|cjs|css|map|html?|wasm|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot|d|rlib|rmeta|o|so|dylib|dll|a|lib|pdb)$/;

/**
 * True when `segment` is a build's name for what it made: a chunk with a content hash and an asset
 * extension (`main.3f9a….js`, `chunk-3f9a….css`), or a crate's build directory (`<crate>-<16 hex>`
 * under `deps/`, `build/`, `.fingerprint/`, `incremental/`).
 */
function isBuildHashName(segment: string, file: string, parent: string): boolean {
  const hashed = /^[A-Za-z][\w.-]*?[.-]([0-9a-f]{8,31})$/.exec(segment);
  if (hashed === null) return false;
  if (builtAssetExtension.test(file)) return true;
  return (
    hashed[1]!.length === 16 &&
    /^(?:deps|build|\.fingerprint|incremental)$/.test(parent) &&
    segment[segment.length - 17] === '-'
  );
}

// A bundler's chunk or asset: a name of words, `.`, `-` or `_`, a content hash (hex, base36 in
// lower case as Parcel and Rollup draw it, or esbuild's eight upper-case base32 characters), bundler
// infixes (`.chunk`, `.min`) and an asset extension: `login-3f9a1c2b.js`,
// `auth.8e1d0c4b5a6f7e8d.chunk.js`, `token_k3x9q2m7v1p0c8z4.css`, `chunk-5TJ3ELMK.js`.
// Named for its route, the name is a credential word as often as not (`auth`, `token`, `session`),
// and the hash then reads as a drawn body glued to that word or as a prefixed token.
// Upper case stays at esbuild's eight: issuers draw whole values in upper case and digits (`AKIA`
// and 16 base32), and glued to a word (`vendor-AKIA….js`) their rule stands down for the generic one.
const builtAssetFile =
  /^[A-Za-z]+(?:[_-][A-Za-z]+)*[._-](?:[0-9a-f]{8,31}|[0-9a-z]{8,20}|[0-9A-Z]{8})(?:\.(?:chunk|min|bundle|entry|module|lazy|legacy|esm|umd))*\.(?:m?js|cjs|css|map|html?|wasm|woff2?|ttf|otf|eot|svg|png|jpe?g|gif|webp|avif|ico)(?:\.map)?$/;
// What ends a file name around a span: path, query, quoting and markup punctuation, blanks.
const fileNameEnd = /[\s/\\=?&#:"'`<>()[\]{},;|]/;
const trailingDots = /\.+$/;
// A file name is short: a longer stretch without an end is no asset's name.
const maxAssetNameLength = 96;

/**
 * Drops the spans found from `from` on that lie inside a bundler's asset name (the exemption the
 * prefixed and glued-body rules give a build's hash names, for every rule that judges a run).
 */
function keepOutBuiltAssetNames(text: string, found: GeneratedTokenSpan[], from: number): void {
  let kept = from;
  for (let index = from; index < found.length; index++) {
    const span = found[index]!;
    if (!inBuiltAssetName(text, span.start, span.end)) found[kept++] = span;
  }
  found.length = kept;
}

function inBuiltAssetName(text: string, start: number, end: number): boolean {
  if (end - start > maxAssetNameLength) return false;
  let nameStart = start;
  const floor = Math.max(0, end - maxAssetNameLength);
  while (nameStart > floor && !fileNameEnd.test(text[nameStart - 1]!)) nameStart--;
  let nameEnd = end;
  const ceiling = Math.min(text.length, nameStart + maxAssetNameLength);
  while (nameEnd < ceiling && !fileNameEnd.test(text[nameEnd]!)) nameEnd++;
  // A sentence may end right after the name (`… built auth-3f9a1c2b.js.`).
  return builtAssetFile.test(text.slice(nameStart, nameEnd).replace(trailingDots, ''));
}

/** Random hex of 16–128 characters: both letters and digits. */
function isHexKeyFile(segment: string): boolean {
  return hexKeyFile.test(segment) && hexLetter.test(segment) && anyDigit.test(segment);
}

// Hoisted: asked of every segment under a directory, and each literal made a RegExp per call.
const hexKeyFile = /^[0-9a-f]{16,128}$/;
const hexLetter = /[a-f]/;
const anyDigit = /\d/;

/**
 * True when at least half of the `/`-parted segments of `run` are words (`src`, `Users`): a path.
 * One word-like segment is not enough: random base64 holds a `/Pbdoo/` now and then.
 */
function readsAsPath(run: string): boolean {
  if (!run.includes('/')) return false;
  let segments = 0;
  let words = 0;
  for (const segment of run.split('/')) {
    if (segment === '') continue;
    segments++;
    if (pathWord.test(segment)) words++;
  }
  return words > 0 && words * 2 >= segments;
}

/**
 * Where a source map's `mappings` value stands: base64 VLQ, hundreds of short runs parted by `,`
 * and `;`, that now and then read like a vendor token by chance. Nothing else fits its alphabet.
 */
export function sourceMappingRanges(text: string): ReadonlyArray<[number, number]> {
  // Shared when there is none (most texts): a fresh empty list per text redacted added up.
  if (!text.includes('mappings')) return noRanges;
  const ranges: Array<[number, number]> = [];
  sourceMappings.lastIndex = 0;
  for (let map = sourceMappings.exec(text); map; map = sourceMappings.exec(text)) {
    ranges.push([map.index, map.index + map[0].length]);
  }
  return ranges;
}

/**
 * Pushes the signed tokens among the `/`- and `=`-parted pieces of a long run (`KEY=<token>`,
 * `/keys/<token>.json`); true when one was found.
 */
function pushSignedTokens(run: string, start: number, found: GeneratedTokenSpan[]): boolean {
  let any = false;
  const pieces = /[^/=]+/g;
  for (let piece = pieces.exec(run); piece; piece = pieces.exec(run)) {
    const lead = /^[.~_-]*/.exec(piece[0])![0].length;
    const token = piece[0].slice(lead).replace(/\.[A-Za-z][A-Za-z0-9]{0,4}$/, '');
    if (!isSignedToken(token)) continue;
    const tokenStart = start + piece.index + lead;
    found.push({ kind: 'generated-token', start: tokenStart, end: tokenStart + token.length });
    any = true;
  }
  return any;
}

export function findGeneratedTokens(text: string): GeneratedTokenSpan[] {
  const found: GeneratedTokenSpan[] = [];
  const skipped: Array<[number, number]> = [];
  if (text.includes('-----BEGIN ')) {
    publicBlock.lastIndex = 0;
    for (let block = publicBlock.exec(text); block; block = publicBlock.exec(text)) {
      skipped.push([block.index, block.index + block[0].length]);
    }
  }
  if (text.includes('-----END ')) {
    publicEnd.lastIndex = 0;
    for (let block = publicEnd.exec(text); block; block = publicEnd.exec(text)) {
      const lineStart = text.lastIndexOf('\n', block.index) + 1;
      skipped.push([base64LinesAbove(text, lineStart), block.index + block[0].length]);
      // The END line may follow the last base64 line on the same line.
      skipped.push([lineStart, block.index]);
    }
  }
  for (const range of sourceMappingRanges(text)) skipped.push(range);
  for (const range of encodedFileRanges(text)) skipped.push(range);
  for (const range of sshPublicKeyRanges(text)) skipped.push(range);
  if (text.includes('gAAAAA')) {
    // A Fernet token's base64url may hold `---`, where runs are parted below (PEM dashes): its
    // pieces would each be judged as a token of their own.
    fernetTokens.lastIndex = 0;
    for (let token = fernetTokens.exec(text); token; token = fernetTokens.exec(text)) {
      skipped.push([token.index, token.index + token[0].length]);
    }
  }
  // Most texts skip nothing: one shared empty set of ranges (it keeps no cursor worth keeping).
  const ranges = skipped.length === 0 ? noSkippedRanges : new SkippedRanges(skipped);
  const length = text.length;
  for (let index = 0; index < length; index++) {
    if (!isTokenCharacter(charCodeAt.call(text, index))) continue;
    const start = index;
    while (index < length && isTokenCharacter(charCodeAt.call(text, index))) index++;
    if (index - start < minRun) continue;
    let run = text.slice(start, index);
    let runStart = start;
    // Runs of 1,000 or more (image bytes, minified code) are content, not credentials, except
    // the last `.`-parted piece of one (a signed token's signature after a long payload: image
    // bytes hold no `.`, and minified code is parted by brackets and operators).
    if (index - start >= maxRun) {
      if (pushSignedTokens(run, start, found)) continue;
      // Else the last `.`-parted piece, but not a file extension's (`<token>.json`).
      const dot = run.replace(/\.[A-Za-z][A-Za-z0-9]{0,4}$/, '').lastIndexOf('.');
      if (dot < 0 || run.length - dot - 1 >= maxRun) continue;
      runStart = start + dot + 1;
      run = run.slice(dot + 1);
      if (run.length < minRun) continue;
    }
    // PEM dashes (`-----END … KEY-----token`, five of them) part what they are glued to; fewer
    // stay inside a run, as base64url draws them (`W/"bf57ea56---eVnBzhZi…"`, an ETag).
    // Without five dashes in a row the run is one part, judged without the pattern and its matches.
    const before = found.length;
    if (!run.includes('-----')) {
      judgeRun(text, run, runStart, ranges, found);
    } else {
      const parts = /(?:[^-]|-(?!----))+/g;
      for (let part = parts.exec(run); part; part = parts.exec(run)) {
        if (part[0].length >= minRun) judgeRun(text, part[0], runStart + part.index, ranges, found);
      }
    }
    if (found.length > before) keepOutBuiltAssetNames(text, found, before);
  }
  return found;
}
