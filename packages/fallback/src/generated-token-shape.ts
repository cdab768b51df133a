import { checksummedBech32Prefix } from './checksummed-bech32.js';
import { decodeBase64 } from './decode-base64.js';
import { isUlid } from './is-ulid.js';
import { readsAsRandomLetters } from './reads-as-random-letters.js';
import {
  isAbbreviation,
  isPlaceholder,
  isUuid,
  isWordShaped,
  looksLikeWords,
  readsAsWords,
  shannonEntropy,
} from './secret-heuristics.js';
import { acronymShare } from './technical-acronyms.js';
import { isWordNamedPrefix } from './word-named-prefix.js';

/**
 * What a generated token looks like, with no list of credential families: issuers mint tokens as
 * a short prefix naming the kind (`abc_`, `xyz-`, `AB.`) and a generated body, or as a generated
 * body alone. The tests separate generated bodies from what agents print all day (identifiers,
 * paths, words, digests, UUIDs, encoded text, API object ids).
 */

/** `prefixed-token`: a short prefix and a generated body; `generated-token`: a generated body alone. */
export type GeneratedTokenKind = 'prefixed-token' | 'generated-token';

// Names of digests and encoded content: their bodies are base64 or hex of any length (`sha512-…`
// integrity hashes hold 88 mixed-case characters), so length says nothing there.
const encodingPrefixes = new Set([
  'sha',
  'sha1',
  'sha256',
  'sha384',
  'sha512',
  'md5',
  'h1',
  'digest',
  'hash',
  'checksum',
  'sum',
  'etag',
  'base64',
  'data',
  'image',
  'img',
  'blob',
  'tree',
  'commit',
  'rev',
  'chunk',
  'bundle',
  'cache',
  'layer',
  'snapshot',
  'nonce',
]);

// Prefixes of object ids that APIs print in every response (tool calls, messages, requests): a
// generated body, but an id anyone with the transcript already holds, and one the agent needs.
const idPrefixes = new Set([
  ...encodingPrefixes,
  'toolu',
  'srvtoolu',
  'call',
  'fc',
  'msg',
  'msgbatch',
  'req',
  'resp',
  'run',
  'chatcmpl',
  'cmpl',
  'asst',
  'thread',
  'file',
  'batch',
  'ftjob',
  'evt',
  'ch',
  'pi',
  'cus',
  'sub',
  'in',
  'prod',
  'price',
  'txn',
  'ws',
  'org',
  'proj',
  'user',
  'vs',
  'step',
  'ft',
  'modr',
  'sess',
  'conv',
  'item',
  'rs',
  'ci',
  'tx',
  'id',
  'uuid',
  'build',
  'v1',
  'v2',
  'node',
  'git',
  'pr',
  'release',
  'version',
  'object',
  'trace',
  'span',
  'session',
  'request',
  'job',
  'task',
  'event',
  'message',
  'test',
  'pm',
  'seti',
  'acct',
  'card',
  'op',
  'operation',
  'deployment',
  'dpl',
]);

// Business records: order, invoice, ticket, receipt and booking numbers name a record in a
// customer's or a shop's system, printed on emails and pages, not a key to it.
const recordPrefixes = new Set([
  'ord',
  'order',
  'inv',
  'invoice',
  'tkt',
  'tck',
  'ticket',
  'rcpt',
  'receipt',
  'po',
  'ref',
  'case',
  'bkg',
  'booking',
  'rma',
  'quote',
  'shp',
  'shipment',
  'refund',
]);

/**
 * Share of lower-case letters that stand in runs of three or more. Words and identifiers
 * (`getUserName`, `HTTPServer`, `RemovedInDjango60Warning`) are nearly all such runs; a generated
 * mixed-case body breaks them up (about half its lower-case letters without digits, a third with).
 */
function lowerRunShare(core: string): number {
  let lower = 0;
  let inRuns = 0;
  for (const run of core.match(/[a-z]+/g) ?? []) {
    lower += run.length;
    if (run.length >= 3) inRuns += run.length;
  }
  return inRuns / Math.max(1, lower);
}

/**
 * Share of lower-case letters that stand in camel humps shaped like words (`Http`, `request`,
 * `Handler`: pronounceable, a word's onset). A name is built of such humps; a generated body
 * breaks its letters into humps that mostly are not (`Pduw`, `Hwew`, `iiuz`), though many of its
 * lower-case letters still stand in runs of three: after a prefix, where bodies are as short as
 * 20 characters, run length alone took one random body in twenty for a name.
 */
function wordHumpShare(value: string): number {
  let lower = 0;
  let inWords = 0;
  // Read on the value as written: a separator or digit ends a hump (`RECORD_stream`).
  for (const hump of value.match(/[A-Z]?[a-z]+/g) ?? []) {
    const letters = hump.charCodeAt(0) <= 90 ? hump.length - 1 : hump.length;
    lower += letters;
    // Six lower-case letters in a row are words glued after an acronym (`Jsonmodel`); a random
    // body draws such a run about once in twenty.
    if ((hump.length >= 3 && isWordShaped(hump)) || letters >= 6) inWords += letters;
  }
  return inWords / Math.max(1, lower);
}

// Camel humps: a capital and the lower-case letters after it, or lower-case letters alone.
const camelHumps = /[A-Z]?[a-z]+/g;
// A digit running into two lower-case letters (`6yu`): a name's numbers end a word or an acronym
// (`Http2Server`, `Int32`, `V2`) or stand in a numeronym (`I18n`, `K8s`).
const digitIntoWord = /\d[a-z]{2}/;
const twoCapitals = /[A-Z][^A-Z]*[A-Z]/;

/**
 * True when `value` is a name of words in camel humps (`ErrorStyleLengthHeightV2`,
 * `Key1HttpTokenAccess`, `retryInt8ApiBackground`): word-shaped humps hold at least 60 % of its
 * letters and digits, whatever the vowel share of those words or the numbers and acronyms between
 * them. A generated body breaks its letters into humps too short or unpronounceable to be words,
 * and runs digits into lower-case letters. Three-letter humps (`Int`, `Key`, `Row`) count only
 * beside two words of five letters or more: random base62 spells three-letter humps often. Of
 * 50,000 random base62 bodies of 20 characters, 3 read so; none of 24 or more.
 */
export function readsAsCamelName(value: string): boolean {
  // Camel case holds two capitals at least; one case of letters is read by `readsAsWords`.
  if (digitIntoWord.test(value) || !twoCapitals.test(value)) return false;
  let letters = 0;
  let digits = 0;
  let digitRuns = 0;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (!isAlphanumericCode(code)) continue;
    letters++;
    if (isDigitCode(code)) {
      digits++;
      if (!isDigitCode(value.charCodeAt(index - 1))) digitRuns++;
    }
  }
  // A name's one number (`key1001VAccessSpec`, `retry42Background`) is a count or a version, not
  // letters its words failed to cover: only letters are weighed then. A generated body of this
  // length holds several digit runs (base62 draws a digit one time in six).
  if (digitRuns === 1) letters -= digits;
  let inWords = 0;
  let inShortWords = 0;
  let longWords = 0;
  camelHumps.lastIndex = 0;
  for (let hump = camelHumps.exec(value); hump; hump = camelHumps.exec(value)) {
    // A version's `v` glued to the word before it (`LaunchV2` written `Launchv2`) is no letter of it.
    const end = hump.index + hump[0].length;
    const text =
      /v$/.test(hump[0]) && isDigitCode(value.charCodeAt(end)) ? hump[0].slice(0, -1) : hump[0];
    if (text.length < 3 || !readsAsWordHump(text)) continue;
    if (text.length === 3) inShortWords += 3;
    else inWords += text.length;
    if (text.length >= 5) longWords++;
  }
  if (longWords >= 2) inWords += inShortWords;
  return letters > 0 && inWords >= 0.6 * letters;
}

// Parts of a prefix that name a credential (`secret_`, `api_key.`, `access-`, `authtoken_`): a
// record id after them is the credential an issuer minted. Whole parts, not letters inside a word
// (`design`, `author`, `monkey` name things).
const credentialPart =
  /^(?:(?:api|access|auth|secret|private|priv|session|sess|signing|refresh|client|master|bearer|app|user)?(?:secret|token|key|pass(?:word|wd|phrase)?|pwd|creds?|credentials?|auth|cookie|sig|signature)s?|api|access|private|priv|sign|signing|bearer|sess)$/;

/**
 * True when `prefix` is a plain name that a record's id follows (`order_`, `event.`,
 * `background-`): every part a word, none naming a credential. Issuers abbreviate (`sk_`, `pw_`,
 * `xoxb-`) or name what they mint (`token-`, `api_key.`); after those an id is the credential.
 */
const lettersOnly = /^[a-z]+$/;

function isRecordName(prefix: string): boolean {
  for (const part of prefix.toLowerCase().split(separatorRuns)) {
    if (!lettersOnly.test(part) || !readsAsWordHump(part) || credentialPart.test(part))
      return false;
  }
  return true;
}

/**
 * A hump that is a word: word-shaped, a protocol's name, or a compound of seven letters or more
 * whose consonant clusters join two words (`Background`, `Lockscreen`): vowels a quarter of its
 * letters and no run of five consonants. Random base62 draws seven lower-case letters in a row
 * about once in 400 positions.
 */
function readsAsWordHump(text: string): boolean {
  if (isWordShaped(text) || isAbbreviation(text)) return true;
  if (text.length < 7) return false;
  const lower = text.toLowerCase();
  const vowels = lower.replace(/[^aeiouy]/g, '').length;
  return (
    vowels >= lower.length / 4 && !/[^aeiouy]{5}/.test(lower) && isWordShaped(lower.slice(0, 4))
  );
}

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isAlphanumericCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * True when `value` reads as generated. `relaxed` is for a body after a prefix: one case of letters
 * with digits, or both cases without digits, is enough there; alone, a value needs all three.
 */
export function looksGenerated(value: string, minLength: number, relaxed: boolean): boolean {
  const core = value.replace(nonAlphanumeric, '');
  if (core.length < minLength) return false;
  // Letters drawn at random between the separators of a drawn body (`…_A8fK2x_qzvtrm_P0wX9…`)
  // are part of the body, not a word naming it: the rest may show a drawn body on its own.
  const drawnParts = withoutRandomLetterParts(value);
  if (drawnParts !== value && looksGenerated(drawnParts, minLength, relaxed)) return true;
  // `t3h_FuTUr3_15_bR1ghT`: many short parts are a phrase; a base64url body has a `-` or `_` in
  // about one character of thirty. Parts are counted, not separator characters: base64url of
  // bytes 0xff writes `____` (and 0xfb `-` runs), a run that parts nothing.
  if ((value.match(separatorRuns)?.length ?? 0) > 2 + core.length / 10) return false;
  // Hex is what digests, SHAs, object ids and UUIDs are written in, each in one case. Hex in both
  // cases is a generated body drawn from 22 symbols (`sgp_local_d7dfFD43cF25…`), except an
  // EIP-55 checksummed address (`0x5aAeb6…`), which is public.
  if (/^(?:[0-9a-f]+|[0-9A-F]+)$/.test(core) || isUuid(value)) return false;
  if (/^0x[0-9a-f]+$/i.test(core)) return false;
  const lower = core.replace(/[^a-z]/g, '').length;
  const upper = core.replace(/[^A-Z]/g, '').length;
  const digits = core.length - lower - upper;
  // Both cases, each a fair share of the letters: a generated body draws them evenly; a name in
  // capitals with one word in lower case (`…-CN-B_250K-Release-OTA-97B6C6…`) does not.
  const mixedCase = lower >= 3 && upper >= 3 && Math.min(lower, upper) >= 0.2 * (lower + upper);
  if (relaxed) {
    // One case of letters draws a digit one time in 3.6: 20 characters hold two or fewer about one
    // time in 18, and two apart still switch four times (the switch test below asks for a sixth).
    if (!mixedCase && !(lower + upper >= 6 && digits >= (core.length >= 20 ? 2 : 3))) return false;
  } else if (!mixedCase || digits < 1) {
    return false;
  }
  // A random body of n characters over ~62 symbols has entropy close to log2(n) up to ~5.9 bits.
  let floor = Math.min(4.3, Math.log2(core.length) - 0.9);
  const hex = /^[0-9a-f]+$/i.test(core);
  if (hex) {
    // Over the 22 symbols of hex in both cases the most is log2(22) = 4.46 bits, and a sample of n
    // falls short of it by about 21 / (2 n ln 2) bits.
    floor = Math.min(floor, Math.log2(22) - 21 / (2 * core.length * Math.LN2) - 0.6);
  } else if (
    (lower === 0 || upper === 0) &&
    ((value.match(separatorRuns)?.length ?? 0) === 0 || isFixedWidthGroups(value))
  ) {
    // One case of letters and digits is 36 symbols, not 62: a random sample of 32 falls short of
    // the floor above one time in eight (its mean is 4.27 bits); the same bias estimate as for hex.
    // Strictly one case (a camel name's few capitals, `sqlButtonIpv4Green24`, are words of low
    // entropy), and one piece: a random body has no separator, while a name joins its parts with
    // them (leetspeak, `l00k_47_y0u_r3v3rs1ng`, switches between letters and digits as often as a
    // body, and only its low entropy gives it away; a stack's resource name,
    // `assetsbucketcc546a84-u8ziphoyvvi3`, is a word, a hash and a suffix).
    // Groups of one width (`<12>-<12>-<12>`) are how issuers print a drawn value for reading;
    // a name's parts are words and hashes of whatever length they have.
    floor = Math.min(floor, Math.log2(36) - 35 / (2 * core.length * Math.LN2) - 0.6);
  }
  if (shannonEntropy(core) < floor) return false;
  // `qwen3-coder-480b`, `USER-projects-spotter`: a word between separators makes it a name.
  if (holdsWordPart(value)) return false;
  // A part in capitals alone is a constant's name (`…_DEFAULT_7f3a`), unless every part has the
  // one width of drawn groups.
  if (
    !mixedCase &&
    /(?:^|[_\-.~])[A-Z]{4}[A-Z]*(?:[_\-.~]|$)/.test(value) &&
    !isFixedWidthGroups(value)
  ) {
    return false;
  }
  // A name with numbers in it (`ErrorStyleLengthHeightV2`, `Key1HttpTokenAccess`,
  // `base64_l10n_uint8_62`, `RSA2048_MAT4_V5`): its words, not the numbers, decide. Names without
  // a number are read by the tests below, tuned on them long before.
  if (digits > 0 && (readsAsCamelName(value) || (!mixedCase && readsAsWords(value)))) return false;
  // Words cannot be spelt from a-f (and a third of those letters are vowels by construction).
  if (mixedCase && !hex) {
    // Identifiers also start nearly every capital a word (`EnvNameHashContext`); a generated body
    // about one in four.
    const capitals = core.match(/[A-Z](?=[a-z]{2})/g)?.length ?? 0;
    // Either alone happens by chance in a random body; words also carry vowels (a third of their
    // letters, a fifth of random ones).
    const lowerLetters = core.replace(/[^a-z]/g, '');
    const vowels = lowerLetters.replace(/[^aeiou]/g, '').length / Math.max(1, lowerLetters.length);
    // After a prefix, a body of one piece (base62; base64url parts it rarely) has long lower-case
    // runs read as a name only when they are word-shaped humps. A body of several parts is read
    // as before: names join words with separators.
    const onePiece = relaxed && value.length - core.length <= 1;
    const named = lowerRunShare(core) > 0.7 && (!onePiece || wordHumpShare(value) > 0.5);
    if ((named || capitals > upper * 0.6) && vowels >= 0.3) return false;
  } else if (!mixedCase) {
    // Letters and digits without case: a generated body switches between them all the time; a
    // name with a number (`reset-test-1767902461212`) does so once or twice.
    const switches = core.match(/[a-zA-Z](?=\d)|\d(?=[a-zA-Z])/g)?.length ?? 0;
    if (switches < core.length / 6 || /\d{9}/.test(core)) return false;
    // Mostly one stretch of hex is a digest with a name (`crates.io-1949cf8c6b5b557f`); hex in
    // both cases (all that reaches here of a hex core) is none.
    const stretches = core.match(/[0-9a-f]+/gi) ?? [];
    if (!hex && Math.max(...stretches.map((stretch) => stretch.length)) >= core.length * 0.6) {
      return false;
    }
  }
  if (isPlaceholder(value) || looksLikeWords(value)) return false;
  return !hasSequence(core);
}

const separatedParts = /([_\-.~]+)/;

/**
 * `value` without its lower-case parts that read as random letters (`readsAsRandomLetters`), each
 * with the separator before it. The first part stays: it is where a name or a prefix stands.
 */
function withoutRandomLetterParts(value: string): string {
  const pieces = value.split(separatedParts);
  if (pieces.length < 3) return value;
  let kept = pieces[0]!;
  for (let index = 2; index < pieces.length; index += 2) {
    if (!readsAsRandomLetters(pieces[index]!)) kept += pieces[index - 1]! + pieces[index]!;
  }
  return kept.length === value.length ? value : kept;
}

// A part of four or more lower-case letters (or a capital and three) standing between separators.
const separatedLetters = /(?<=^|[_\-.~])(?:[a-z]{4}[a-z]*|[A-Z][a-z]{3,})(?=[_\-.~]|$)/g;

/**
 * True when a part between separators is a word (`coder`, `Release`, `grpc`, `background`): a name's.
 * Base64url parts a random body at `-` and `_` about once in thirty characters, and one piece in
 * about fifteen is four lower-case letters or more by chance (`-qoxqq`, `_zgvt`): those are not
 * pronounceable, which words are.
 */
function holdsWordPart(value: string): boolean {
  const parts = value.split(separatorRuns);
  separatedLetters.lastIndex = 0;
  for (let part = separatedLetters.exec(value); part; part = separatedLetters.exec(value)) {
    if (readsAsWordHump(part[0])) return true;
  }
  // A part opening with two words in camel humps (`ReportData…`, `TableIndex491E0969`) is a
  // logical name, a resource's, with its hash glued on.
  return parts.some(opensWithCamelWords);
}

const leadingCamelHumps = /^[A-Z]([a-z]{3,})[A-Z]([a-z]{3,})/;

/**
 * True when `part` opens with two word-shaped camel humps of three lower-case letters or more,
 * seven together (`ReportData`, `TableIndex`), and what follows is a logical id's: more humps,
 * then at most a hash in capitals and digits (`ReportDataBucket4F2A9C1E`: CloudFormation and CDK
 * glue 8 upper-case hex, physical ids 12–13 capitals and digits). Random base62 opens with two
 * such humps about once in 1,500 draws; a hump word glued to a drawn body of both cases
 * (`ServiceAccount7SEYeoIio…`) is a body with a name in front.
 */
function opensWithCamelWords(part: string): boolean {
  const humps = leadingCamelHumps.exec(part);
  return (
    humps !== null &&
    humps[1]!.length + humps[2]!.length >= 7 &&
    isWordShaped(part.slice(0, humps[1]!.length + 1)) &&
    isWordShaped(part.slice(humps[1]!.length + 1, humps[0].length)) &&
    isLogicalIdTail(part, humps[0].length)
  );
}

// The hash a logical or physical id ends with: capitals and digits, as CloudFormation prints them.
const maximumIdHash = 13;

/**
 * True when `part` from `from` on is camel humps of words (`Bucket`, `Policy`), then at most
 * `maximumIdHash` capitals and digits. A scan, not a pattern: alternatives that both take capitals
 * backtrack over every split of a long run.
 */
function isLogicalIdTail(part: string, from: number): boolean {
  let index = from;
  for (;;) {
    // A hump: a capital and two or more lower-case letters, word-shaped (`Api`, `Bucket`).
    let end = index + 1;
    while (end < part.length && isLowerCode(part.charCodeAt(end))) end++;
    if (end - index < 3 || !isUpperCode(part.charCodeAt(index))) break;
    if (!isWordShaped(part.slice(index, end))) return false;
    index = end;
  }
  if (part.length - index > maximumIdHash) return false;
  for (; index < part.length; index++) {
    const code = part.charCodeAt(index);
    if (!isUpperCode(code) && !isDigitCode(code)) return false;
  }
  return true;
}

function isUpperCode(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isLowerCode(code: number): boolean {
  return code >= 97 && code <= 122;
}

/**
 * True when `value` is parted into two or more groups of one width of at least four letters and
 * digits, digits in most of them (a drawn group of ten capitals and digits holds none one time in
 * 26).
 */
function isFixedWidthGroups(value: string): boolean {
  const groups = value.split(/[_\-.~]/);
  if (groups.length < 2) return false;
  const width = groups[0]!.length;
  let withDigits = 0;
  for (const group of groups) {
    if (group.length !== width || !/^[A-Za-z0-9]+$/.test(group) || !/[A-Za-z]/.test(group)) {
      return false;
    }
    if (/\d/.test(group)) withDigits++;
  }
  return width >= 4 && withDigits * 2 > groups.length;
}

/**
 * `abcdefgh`, `12345678`, `aAbBcCdD`: a typed run, not a generated body. Case is folded and doubled
 * characters read once, so an alphabet typed in both cases counts too.
 */
function hasSequence(core: string): boolean {
  const folded = core.toLowerCase().replace(/(.)\1+/g, '$1');
  let run = 1;
  for (let index = 1; index < folded.length; index++) {
    run = folded.charCodeAt(index) === folded.charCodeAt(index - 1) + 1 ? run + 1 : 1;
    if (run >= 6) return true;
  }
  return false;
}

const oneCaseHex = /^(?:[0-9a-f]+|[0-9A-F]+)$/;
const secretWords = /secret|token|passw|private|credential|signin|api_?key|srp/i;

/**
 * True when base64 in `value` (from any of the first four characters: a wrapped line may start
 * mid-group) decodes to readable text: encoded text or JSON is content, while keys and tokens
 * decode to random bytes. JSON naming a secret inside is a credential bundle, not content.
 */
export function decodesToReadable(value: string): boolean {
  // Hex in one case is hex: base64 of text writes capitals or letters past `f` in nearly every
  // group, while 20 random hex characters decode to all-printable bytes about once in 1,000 draws.
  if (oneCaseHex.test(value)) return false;
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  for (let shift = 0; shift < 4; shift++) {
    const part = base64.slice(shift);
    const decoded = decodeBase64(part.slice(0, part.length - (part.length % 4)));
    if (decoded === undefined) continue;
    if (decoded.length < 12) return false;
    let printable = 0;
    for (let index = 0; index < decoded.length; index++) {
      const code = decoded.charCodeAt(index);
      if ((code >= 32 && code < 127) || code === 10 || code === 9 || code === 13) printable++;
    }
    if (printable / decoded.length >= 0.97) {
      return !(/^\s*[{[]/.test(decoded) && secretWords.test(decoded));
    }
  }
  return false;
}

// A prefix: a short name, up to three parts (`sk-proj-`, `api_org_`, `glsa_`, `FLWSECK_TEST-`).
const prefixed = /^([A-Za-z][A-Za-z0-9]{0,11})((?:[_\-.~][A-Za-z0-9]{1,11}){0,2}?)[_\-.~](?=.)/;

// Issuers also put ids in numbers between the prefix and the generated part
// (`xoxb-<team>-<user>-<body>`): up to three such groups of digits.
const prefixPart =
  /^[A-Za-z][A-Za-z0-9]{0,11}(?:[_\-.~][A-Za-z0-9]{1,11}){0,2}(?:[_\-.~]\d{1,16}){0,3}$/;

/** True when `segment` starts with the prefix of an API object id (`toolu_…`, `call_…`). */
// Hoisted: each evaluation of a regex literal makes a new RegExp (per path of a window here).
const idHead = /^([A-Za-z][A-Za-z0-9]{0,11})[_\-.]/;
const nonAlphanumeric = /[^A-Za-z0-9]/g;
const separatorRuns = /[_\-.~]+/g;

export function isObjectId(segment: string): boolean {
  // `~` joins no id or digest name: `sha256~…` is a token (OpenShift), `sha256-…` a digest.
  const head = idHead.exec(segment);
  if (head === null) return false;
  const prefix = head[1]!.toLowerCase();
  if (idPrefixes.has(prefix)) {
    return encodingPrefixes.has(prefix) || readsAsObjectId(segment.slice(head[0].length));
  }
  return recordPrefixes.has(prefix) && readsAsRecordNumber(segment.slice(head[0].length));
}

/**
 * True when `body` can be an API object's id: those hold at most about 30 drawn characters (Stripe
 * and Anthropic 24, Clerk 27, OpenAI chat completions 29). A longer body in both cases after a word
 * such as `user-` or `release-` is a generated secret's, as OpenAI's `sess-` + 40 is.
 */
function readsAsObjectId(body: string): boolean {
  return !(body.length > 30 && /[a-z]/.test(body) && /[A-Z]/.test(body) && /\d/.test(body));
}

/**
 * True when `body` can be a record number: digits and capitals (`2024-00042`, a ULID), a database
 * id, or a random id as long as API objects' (Stripe's `in_` ids hold 24 characters). More than
 * that in mixed case, or 32 lower-case letters and digits, is a generated secret's body: `ref_` or
 * `inv_` could as well be an issuer's prefix.
 */
function readsAsRecordNumber(body: string): boolean {
  // A year or date before the number (`2024-…`) is part of no random body.
  const core = body.replace(/^(?:\d{2,8}[_-])+/, '');
  if (core.length > 24 && /[a-z]/.test(core) && /[A-Z]/.test(core)) return false;
  return !/^(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{32}[a-z0-9]*$/.test(core);
}

/** The kind of generated token `segment` (one run of token characters, no `/`) is, if any. */
export function judgeSegment(segment: string): GeneratedTokenKind | undefined {
  if (isSignedToken(segment)) return 'generated-token';
  // An id's prefix marks the whole segment as an id, whatever its body looks like.
  if (isObjectId(segment)) return undefined;
  // A dotted version (`numpy-1.26.4-py311h5bd72fda_0`) makes it a release name, not a token.
  if (/(?:^|[_\-~])v?\d{1,4}\.\d{1,4}(?:[_\-.~]|$)/.test(segment)) return undefined;
  const head = prefixed.exec(segment);
  if (head) {
    // The prefix may have one to three parts (`sk-`, `sk-proj-`, `bedrock-api-key-`): every
    // reading of the body must be generated and none may be encoded text.
    let generated = false;
    for (const separator of segment.matchAll(/[_\-.~]/g)) {
      if (!prefixPart.test(segment.slice(0, separator.index))) break;
      const body = segment.slice(separator.index + 1);
      if (decodesToReadable(body)) return undefined;
      // A ULID after a plain name is a record's id (`event.01hq…`), as the object ids above are;
      // after an abbreviation or a name of a credential (`sk_`, `api_key.`) it is judged as a body.
      const prefix = segment.slice(0, separator.index);
      if (isUlid(body) && isRecordName(prefix)) return undefined;
      generated ||= (body.length >= 18 && looksGenerated(body, 16, true)) || isBase32Body(body);
    }
    if (generated) return 'prefixed-token';
    if (hasHexBody(segment)) return 'prefixed-token';
  }
  if (
    hasGluedHexBody(segment) ||
    isUpperDigitKey(segment) ||
    isLowerAlnumKey(segment) ||
    hasCredentialNamedPrefix(segment) ||
    isIdDotSecret(segment)
  ) {
    return 'prefixed-token';
  }
  if (looksGenerated(segment, 24, false) && !decodesToReadable(segment)) return 'generated-token';
  return undefined;
}

/**
 * Upper-case base32 (RFC 4648: A–Z and 2–7, optional `=` padding) of 16–64 characters, as TOTP
 * seeds and some issuers' keys are written: one case and few digits, which the tests of other
 * bodies read as a name in capitals. A name spells words: pronounceable runs, a third of its
 * letters vowels (a fifth in random base32), acronyms glued together.
 */
export function isBase32Body(body: string, keyed = false): boolean {
  const core = body.replace(/=+$/, '');
  if (!/^[A-Z2-7]{16,64}$/.test(core) || body.length - core.length > 6) return false;
  // A random draw repeats some symbols: 16 of 32 fall about 0.5 bit short of 4, now and then a
  // whole bit under a key (where only a repeated filler needs turning down).
  const floor = keyed ? 2.4 : Math.min(3.3, Math.log2(core.length) - 1.2);
  if (shannonEntropy(core) < floor) return false;
  // Under a key naming a secret a random seed may spell a pronounceable run: the key decides.
  if ((!keyed && readsAsWords(core)) || acronymShare(core) >= 0.7) return false;
  if (!keyed) {
    // Words alternate vowels and consonants: a third of the letters vowels, no four consonants
    // in a row, at most one digit. Random base32 meets all three about once in a thousand draws.
    // Under a key naming a secret, the key is the evidence and this is not asked.
    const letters = core.replace(/[^A-Z]/g, '');
    const vowels = letters.replace(/[^AEIOU]/g, '').length;
    const consonantRun = Math.max(
      0,
      ...(core.match(/[B-DF-HJ-NP-TV-Z]+/g) ?? []).map((run) => run.length),
    );
    const digits = core.length - letters.length;
    if (vowels >= letters.length * 0.3 && consonantRun <= 3 && digits <= 1) return false;
  }
  return !isPlaceholder(core) && !isTyped(core);
}

/** Hex drawn at random: both letters and digits, no typed run (`1234567890…` is a placeholder). */
/**
 * Hex in one case, with letters and digits and no typed runs: a salt, signature or key written
 * bare (`9f3a7c1e5b2d8f4a6c0e`), as `hasHexBody` reads only hex after a prefix.
 */
export function isBareRandomHex(value: string): boolean {
  return (/^[0-9a-f]+$/.test(value) || /^[0-9A-F]+$/.test(value)) && isRandomHex(value);
}

function isRandomHex(hex: string): boolean {
  return /[a-f]/i.test(hex) && /\d/.test(hex) && sequenceShare(hex) < 0.5;
}

/**
 * The share of a value's characters in ascending runs of 4 or more (case folded, doubled
 * characters read once). A typed hex body is mostly such runs (`1234567890abcdef`,
 * `deadbeef12345678`); 31 random hex characters hold a run of 6 about once in 40,000 draws, which
 * a test for any run of 6 took for typing.
 */
function sequenceShare(core: string): number {
  const folded = core.toLowerCase().replace(/(.)\1+/g, '$1');
  let covered = 0;
  let run = 1;
  for (let index = 1; index <= folded.length; index++) {
    if (index < folded.length && folded.charCodeAt(index) === folded.charCodeAt(index - 1) + 1) {
      run++;
      continue;
    }
    if (run >= 4) covered += run;
    run = 1;
  }
  return covered / Math.max(1, folded.length);
}

// Hex after a vendor-style prefix (`abc_`, `abc-v1_`, `s-s4t2ud-`, `abc.`, `key~`): 64+ bits
// written in hex, with an optional short tail (`-X`, `-<16 alnum>`) that some issuers append. The
// first part may be one letter only when another part follows. Digests carry a name too
// (`sha256-…`, `bundle.…`): those names are object-id prefixes, and a build's hashed file names
// are told apart where the extension is seen (`find-generated-tokens.ts`).
const hexAfterPrefix =
  /^((?:[A-Za-z][A-Za-z0-9]{1,11}|[A-Za-z](?=[_-][A-Za-z0-9]))(?:[_-][A-Za-z0-9]{1,11}){0,2})[_\-.~]((?:[0-9a-f]{8}[0-9a-f]*(?:[_-]|$)){1,4}|(?:[0-9A-F]{8}[0-9A-F]*(?:[_-]|$)){1,4})([A-Za-z0-9]{1,24})?$/;
// The same with up to three groups of digits after the prefix, as `prefixPart` reads them: issuers
// put ids in numbers between the prefix and the hex (`xoxr-<team>-<user>-<id>-<hex>`), which the
// reading above takes for hex only when they are 8+ digits long.
const hexAfterNumberedPrefix =
  /^((?:[A-Za-z][A-Za-z0-9]{1,11}|[A-Za-z](?=[_-][A-Za-z0-9]))(?:[_-][A-Za-z0-9]{1,11}){0,2}(?:[_-]\d{1,16}){1,3})[_\-.~]((?:[0-9a-f]{8}[0-9a-f]*(?:[_-]|$)){1,4}|(?:[0-9A-F]{8}[0-9A-F]*(?:[_-]|$)){1,4})([A-Za-z0-9]{1,24})?$/;

// 16 hex characters (64 bits) is the shortest body issuers mint after a prefix; below it, hex
// after a name is a short commit, a colour or a build hash.
export const minimumPrefixedHex = 16;

// Cloud resource ids (`i-`, `vol-`, `sg-` and 8 or 17 hex) are printed by every console and CLI
// listing: names of things, not credentials.
const resourceIdPrefixes = new Set(
  'i vol sg subnet vpc ami eni snap rtb igw acl nat vpce tgw eipalloc eipassoc lt pcx dopt'.split(
    ' ',
  ),
);

/**
 * True when `segment` is a short prefix, a separator and 16+ characters of random hex. `keyed`: a
 * key naming a secret holds it, so a word before short hex no longer makes it a thing's name.
 */
export function hasHexBody(segment: string, keyed = false): boolean {
  return (
    isHexReading(segment, hexAfterPrefix.exec(segment), keyed) ||
    isHexReading(segment, hexAfterNumberedPrefix.exec(segment), keyed)
  );
}

/** True when `body`, one reading of `segment` as prefix, hex and tail, is a token's. */
function isHexReading(segment: string, body: RegExpExecArray | null, keyed: boolean): boolean {
  if (body === null) return false;
  const groups = body[2]!.split(/[_-]/).filter((group) => group !== '');
  const hex = groups.join('');
  const prefix = body[1]!.toLowerCase();
  // Below 32, a group of decimal digits is a number (`read_file-<ms timestamp>-<hex>`, a tool
  // call's id), not part of the drawn body.
  const drawn = groups.filter((group) => !/^\d+$/.test(group)).join('');
  return (
    (hex.length >= 32 ||
      (drawn.length >= minimumPrefixedHex && (keyed || !namesAThing(segment, body[1]!, hex)))) &&
    !isUuid(body[2]!.replace(/[_-]$/, '')) &&
    isRandomHex(hex) &&
    // `~` joins no id or digest name (as in `isObjectId`).
    (segment[prefix.length] === '~' || !idPrefixes.has(prefix.split(/[_-]/)[0]!)) &&
    !isCloudResourceId(segment)
  );
}

// Below 128 bits, lower-case hex after a word is the suffix tools and people give a thing's name
// (`feature/login-<hex>`, `<pod>.<16 hex>` events, `/tmp/build-<hex>`, `post_<ObjectId>`); 32+
// hex after any prefix is still a token.
// `~` joins no name.
function namesAThing(segment: string, prefix: string, hex: string): boolean {
  return segment[prefix.length] !== '~' && /^[0-9a-f]+$/.test(hex) && isWordNamedPrefix(prefix);
}

/** `i-`, `sg-`, `vol-` … then 8 or 17 lower-case hex, as consoles print them (never `SG~…`). */
export function isCloudResourceId(segment: string): boolean {
  const id = /^([a-z]{1,8})-(?:[0-9a-f]{8}|[0-9a-f]{17})$/.exec(segment);
  return id !== null && resourceIdPrefixes.has(id[1]!);
}

// A prefix glued to its hex body with no separator: capitals before lower-case hex (`SK…`, `AC…`),
// or lower-case letters ending in one that is not hex (`dapi…`), so where the body starts is plain.
const gluedHex = /^([A-Z]{2,5}|[a-z]{0,5}[g-z])([0-9a-f]{32,64})$/;

// Twilio SIDs of resources that open nothing (a message, a messaging service, a call, a
// conference, a recording, a phone number, a queue, a chat service): two capitals
// naming the type, then 32 lower-case hex. The types that carry a credential (`AC` account, `SK`
// API key) are not listed; Twilio's own rules and this shape find them.
const twilioResourceTypes = new Set(['SM', 'MM', 'MG', 'CA', 'CF', 'RE', 'PN', 'QU', 'IS']);

/** True when `segment` is a letter prefix glued to 32–64 characters of random lower-case hex. */
function hasGluedHexBody(segment: string): boolean {
  const glued = gluedHex.exec(segment);
  return (
    glued !== null &&
    !idPrefixes.has(glued[1]!.toLowerCase()) &&
    !(glued[2]!.length === 32 && twilioResourceTypes.has(glued[1]!)) &&
    isRandomHex(glued[2]!) &&
    !looksLikeWords(glued[1]!)
  );
}

/**
 * An access-key id in capitals and digits (`AKIA…`, `LTAI…`, `A3-F061I1-…`): a block of capitals
 * then a body that switches between letters and digits, or dash-parted groups of both. Constants
 * and names in capitals (`HTTP2SERVERCONFIG`, `X509V3EXTENSIONS`) hold word runs with vowels;
 * upper-case hex is a digest or a UUID; a ULID starts with a digit.
 */
export function isUpperDigitKey(segment: string): boolean {
  if (!/^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*$/.test(segment)) return false;
  // Groups that are words name the key (`AGE-SECRET-KEY-…`); the generated part is the rest.
  const core = segment
    .split('-')
    .filter((group) => !/^[A-Z]{3,}$/.test(group) || !readsAsWords(group))
    .join('');
  if (core.length < 16 || core.length > 64 || /^[0-9A-F]+$/.test(core)) return false;
  // One group longer than a documented id (AWS 20, Alibaba 24, New Relic 32) is another token
  // written in capitals (a mixed-case key upper-cased is no longer that key).
  if (!segment.includes('-') && core.length > 32) return false;
  const digits = core.replace(/[A-Z]/g, '').length;
  if (digits < 1 || digits > core.length * 0.6 || core.length - digits < 6) return false;
  const switches = core.match(/[A-Z](?=\d)|\d(?=[A-Z])/g)?.length ?? 0;
  if (switches < 2 || /\d{9}/.test(core)) return false;
  if (shannonEntropy(core) < Math.min(3.8, Math.log2(core.length) - 1)) return false;
  // Names in capitals (`HTTP2SERVERCONFIGURATION`, `E2E4TESTRUNNERCONFIG9`) spell pronounceable
  // runs, or carry a third of their letters vowels; ten random capitals rarely do either (a fifth
  // of them are vowels). Shorter runs are left to chance: an id's own prefix (`AKIA`) is vowels.
  const spelt = (run: string) =>
    readsAsWords(run) || (run.match(/[AEIOU]/g)?.length ?? 0) >= run.length * 0.35;
  // A run that opens the key holds the issuer's kind mark (`AKIA`, `LTAI`), spelt as it was named
  // (vowels, by chance of the name): it reads as a word only if it still does past four letters.
  if (readsAsWords(segment)) return false;
  for (const run of core.match(/[A-Z]{10}[A-Z]*/g) ?? []) {
    if (spelt(run) && (!core.startsWith(run) || spelt(run.slice(4)))) return false;
  }
  // Algorithm and format names glue acronyms unpronounceable alone (`SHA256WITHRSAANDMGF1`).
  if (acronymShare(core) >= 0.7) return false;
  return !isPlaceholder(segment) && !isTyped(core);
}

/**
 * A long body of lower-case letters and digits (`oy2…`, base36): one case, but letters and digits
 * switch all the time. Lower-case hex is a digest; a multibase CID (`bafy…`) a content address.
 */
export function isLowerAlnumKey(segment: string): boolean {
  if (!/^[a-z0-9]{40,64}$/.test(segment) || /^[0-9a-f]+$/.test(segment)) return false;
  if (/^b[a-z2-7]+$/.test(segment)) return false;
  // A checksummed bech32 address (`bc1q…`, `cosmos1…`) is public, unless its prefix names a
  // secret key (`nsec1…`).
  const bech32Prefix = checksummedBech32Prefix(segment);
  if (bech32Prefix !== undefined && !/sec|priv|key/.test(bech32Prefix)) return false;
  const digits = segment.replace(/[a-z]/g, '').length;
  if (digits < segment.length * 0.1 || digits > segment.length * 0.6) return false;
  const switches = segment.match(/[a-z](?=\d)|\d(?=[a-z])/g)?.length ?? 0;
  if (switches < segment.length / 5 || /\d{9}/.test(segment)) return false;
  if (shannonEntropy(segment) < 4.2 || readsAsWords(segment) || looksLikeWords(segment)) {
    return false;
  }
  return !isPlaceholder(segment) && !isTyped(segment);
}

/** A typed pattern: a sequence in the whole, or in its letters or digits alone (`ABCD1234EFGH5678`). */
function isTyped(core: string): boolean {
  return (
    hasSequence(core) ||
    hasSequence(core.replace(/[^A-Za-z]/g, '')) ||
    hasSequence(core.replace(/\D/g, ''))
  );
}

// Prefix parts that name a credential (`pat-na1-…`, `access-sandbox-…`, `secret_…`): the body
// after them is the credential even when it is a UUID, which alone is an object id.
const credentialPrefix =
  /^(?:pat|access|secret|token|apikey|sk)(?:[_-][a-z0-9]{2,12}){0,2}[_-]([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** True when `segment` is a prefix naming a credential and a random UUID. */
function hasCredentialNamedPrefix(segment: string): boolean {
  const uuid = credentialPrefix.exec(segment)?.[1];
  return uuid !== undefined && isRandomHex(uuid.replace(/-/g, ''));
}

// A JWS compact serialisation: a base64url JSON header (`eyJ` is `{"`), a payload, a signature.
const signedToken =
  /^(eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*)\.[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.([A-Za-z0-9_-]{16}[A-Za-z0-9_-]*)$/;

/**
 * True when `segment` is header, payload and signature of a signed token, whoever issued it: the
 * header and payload decode to readable JSON (which alone reads as content), the signature is what
 * makes it a bearer credential.
 */
export function isSignedToken(segment: string): boolean {
  const parts = signedToken.exec(segment);
  if (parts === null) return false;
  const header = parts[1]!.replace(/-/g, '+').replace(/_/g, '/');
  const decoded = decodeBase64(header.slice(0, header.length - (header.length % 4)));
  return decoded !== undefined && /^\{\s*"[A-Za-z]/.test(decoded) && !hasSequence(parts[2]!);
}

// An id and its secret joined by a dot (`pat<id>.<hex>`): a generated id of both cases and digits,
// then 32+ characters of hex.
const idDotHex = /^([A-Za-z0-9]{10,40})\.([0-9a-f]{32,128})$/;

/** True when `segment` is a generated id, `.`, and random lower-case hex. */
function isIdDotSecret(segment: string): boolean {
  const parts = idDotHex.exec(segment);
  if (parts === null) return false;
  const id = parts[1]!;
  return (
    /[a-z]/.test(id) &&
    /[A-Z]/.test(id) &&
    /\d/.test(id) &&
    !readsAsWords(id) &&
    !isPlaceholder(id) &&
    isRandomHex(parts[2]!)
  );
}
