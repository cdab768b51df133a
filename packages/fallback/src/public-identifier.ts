import { base58CheckPayload, decodeBase58 } from './base58-check.js';
import { decodeBase64 } from './decode-base64.js';
import { readsAsCamelName } from './generated-token-shape.js';
import { keyAtLineEnd } from './key-at-line-end.js';
import { keyIsSecret, keySegments } from './secret-rules.js';

/**
 * Identifiers that look generated but name something public rather than unlock it: the ids AWS
 * gives roles, users and groups, SSH public keys, cryptocurrency addresses and public keys, IPFS
 * content ids, Freenet content and request keys, GitHub node ids, and ids of files and videos in
 * the URL that opens them. Whoever reads them learns a name, not a credential; an agent needs them
 * to act on the thing they name.
 */

// AWS unique ids: `AROA` role, `AIDA` user, `AGPA` group, `ANPA` managed policy, `ANVA` policy
// version, `AIPA` instance profile, `ASCA` certificate. An access key id (`AKIA`, `ASIA`) is not
// here: it pairs with a secret key and names who signs. AWS prints them 20 or 21 characters long.
const awsUniqueId = /^(?:AROA|AIDA|AGPA|ANPA|ANVA|AIPA|ASCA)[A-Z0-9]{16,17}$/;

// The fields after the algorithm's name in each public key's wire format (RFC 4253 section 6.6,
// RFC 5656, RFC 8709, OpenSSH's PROTOCOL.u2f): RSA `e`, `n`; DSA `p`, `q`, `g`, `y`; Ed25519 and
// Ed448 the point; ECDSA the curve and the point; security keys add the application.
const sshPublicFields: Record<string, number> = {
  'ssh-rsa': 2,
  'ssh-dss': 4,
  'ssh-ed25519': 1,
  'ssh-ed448': 1,
  'ecdsa-sha2-nistp256': 2,
  'ecdsa-sha2-nistp384': 2,
  'ecdsa-sha2-nistp521': 2,
  'sk-ecdsa-sha2-nistp256@openssh.com': 3,
  'sk-ssh-ed25519@openssh.com': 2,
};
const sshCertificate = /^[a-z0-9@.-]+-cert-v01@openssh\.com$/;

/** The big-endian 32-bit number at `offset` of the byte string `bytes`. */
function readLength(bytes: string, offset: number): number {
  return (
    ((bytes.charCodeAt(offset) << 24) |
      (bytes.charCodeAt(offset + 1) << 16) |
      (bytes.charCodeAt(offset + 2) << 8) |
      bytes.charCodeAt(offset + 3)) >>>
    0
  );
}

/**
 * True when `value` is base64 of an SSH public key or certificate: its bytes are the length of an
 * algorithm name, the name (`AAAAB3NzaC1yc2E` is `\0\0\0\7ssh-rsa`), then exactly the fields of
 * that algorithm's public key. The agent protocol writes a private key the same way but with its
 * secret fields after the public ones, and a private certificate holds the whole certificate where
 * a public one holds a short nonce: neither passes. A key cut short (`AAAAB3NzaC1yc2EAAAADAQAB…`)
 * still does while what is there fits the public form.
 */
export function isSshPublicKey(value: string): boolean {
  if (!value.startsWith('AAAA') || value.length < 40) return false;
  // Whole groups of four only: a key cut short decodes as far as it goes.
  let length = value.length;
  while (length > 0 && value.charCodeAt(length - 1) === 61) length--;
  const bytes = decodeBase64(value.slice(0, length - (length % 4)));
  if (bytes === undefined) return false;
  const nameLength = readLength(bytes, 0);
  if (nameLength < 7 || nameLength > 44) return false;
  const name = bytes.slice(4, 4 + nameLength);
  let offset = 4 + nameLength;
  if (sshCertificate.test(name)) {
    // A certificate's next field is the CA's nonce (OpenSSH writes 32 bytes).
    if (offset + 4 > bytes.length) return true;
    const nonceLength = readLength(bytes, offset);
    return nonceLength >= 8 && nonceLength <= 64;
  }
  // Curves beyond NIST's are named by their own suffix (RFC 5656 section 6.1); the fields are alike.
  const fields = sshPublicFields[name.startsWith('ecdsa-sha2-') ? 'ecdsa-sha2-nistp256' : name];
  if (fields === undefined) return false;
  for (let field = 0; field < fields; field++) {
    if (offset + 4 > bytes.length) return true;
    offset += 4 + readLength(bytes, offset);
    if (offset >= bytes.length) return true;
  }
  return offset === bytes.length;
}

const sshKeyBlobs = /(?<![A-Za-z0-9+/])AAAA[A-Za-z0-9+/]{36}[A-Za-z0-9+/]*={0,3}/g;

/**
 * Where `text` holds SSH public keys' base64 (sorted, disjoint, end exclusive). Their `/` and `+`
 * part them into pieces a rule could read as a token of its own (`/EAAA…` is Square's shape).
 */
export function sshPublicKeyRanges(text: string): ReadonlyArray<[number, number]> {
  // Shared when there is none (most texts): a fresh empty list per text redacted added up.
  if (!text.includes('AAAA')) return noRanges;
  const ranges: Array<[number, number]> = [];
  sshKeyBlobs.lastIndex = 0;
  for (let blob = sshKeyBlobs.exec(text); blob; blob = sshKeyBlobs.exec(text)) {
    if (isSshPublicKey(blob[0])) ranges.push([blob.index, blob.index + blob[0].length]);
  }
  return ranges;
}

const noRanges: ReadonlyArray<[number, number]> = [];

// A CIDv0 is `Qm` and the Base58 of a SHA-256 multihash: the address of content, like a digest.
const contentIdV0 = /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/;

// Extended public keys (BIP-32 `xpub`, `tpub`; BIP-49 `ypub`, BIP-84 `zpub` and their testnet
// forms), by their four version bytes. The private forms (`xprv`, ...) have other bytes.
const extendedPublicVersions = new Set([
  0x0488b21e, 0x043587cf, 0x049d7cb2, 0x044a5262, 0x04b24746, 0x045f1cf6,
]);

/**
 * True when `value` is Base58Check of an address or an extended public key: one or two version
 * bytes and a 20-byte hash (P2PKH and P2SH on Bitcoin and the chains that copied it), or a 78-byte
 * extended key with public version bytes. A WIF private key holds 32 bytes (33 or 34 with its
 * version and flag); an extended private key has private version bytes: neither passes.
 */
function isBase58CheckPublic(value: string): boolean {
  if (value.length < 25 || value.length > 112) return false;
  const payload = base58CheckPayload(value);
  if (payload === undefined) return false;
  if (payload.length === 21 || payload.length === 22) return true;
  if (payload.length !== 78) return false;
  const version =
    ((payload[0]! << 24) | (payload[1]! << 16) | (payload[2]! << 8) | payload[3]!) >>> 0;
  return extendedPublicVersions.has(version);
}

// Words that name a Base58 value of 32 bytes as a public key (Solana accounts, mints, programs
// and validators are all addressed by one): the key or path segment just before it.
const addressContext =
  /(?:address|wallet|pubkey|public[_\s-]?key|account|mint|program(?:[_\s-]?id)?|owner|recipient|receiver|sender|payer|validator|vote|token[_\s-]?account|solana|sol)["']?\s*(?:=>|:=|[:=/]|\bis\b)?\s*["']?$/i;
const addressWordEnd =
  /(?:^|[^A-Za-z])(?:address|wallet|owner|mint|token|program|sender|receiver|recipient|payer|account|vote|validator|pubkey|solana|sol)$/i;
// A secret key named on the same line keeps a value redacted, whatever else is said there.
const secretContext = /secret|priv|seed|mnemonic|passw|keypair|signer/i;
// Other keys on the line are no words: a random key spells `seEd` or `Priv` now and then (about
// one 44-character key in 3,000). A camel-case name of that length is words, and is read.
const otherKeys = /[1-9A-HJ-NP-Za-km-z]{32,44}/g;
const keyAsBlank = (run: string) => (readsAsCamelName(run) ? run : ' ');

/** True when `value` is a 32-byte Base58 key the text before names as a public address. */
function isNamedBase58Address(value: string, line: string): boolean {
  if (value.length < 32 || value.length > 44) return false;
  const named = addressContext.exec(line);
  if (named === null || secretContext.test(line.replace(otherKeys, keyAsBlank))) return false;
  // The word must start a word of the key (`wallet`, `owner_address`, `mintAddress`): `sol` ends
  // `CONSOL` and `mint` ends `spearmint`, and those name no address.
  const previous = line.charAt(named.index - 1);
  const first = line.charAt(named.index);
  if (
    /[A-Za-z]/.test(previous) &&
    !(/[a-z0-9]/.test(previous) && /[A-Z]/.test(first)) &&
    // Address words glued together (`walletaddress`, `OWNERADDRESS`) still name one.
    !addressWordEnd.test(line.slice(0, named.index))
  ) {
    return false;
  }
  return decodeBase58(value)?.length === 32;
}

// A Google Drive or Docs file or folder id, or a YouTube video or playlist id, in the URL that
// opens it.
const googleContentUrl =
  /(?:(?:drive|docs)\.google\.com\/[^\s"'<>]*?(?:\/d\/|\/folders\/|[?&]id=)|youtube\.com\/[^\s"'<>]*?[?&](?:list|v)=|youtube\.com\/(?:embed|shorts)\/|youtu\.be\/)$/;
const googleContentId = /^[A-Za-z0-9_-]{11,44}$/;

// A GitHub GraphQL node id: a type (`I`, `PR`, `U`, `PVT`), `_`, and base64url of a MessagePack
// array that starts with version 0 (`kwDO…`, `kgDO…`). It names an issue, user or repository.
const githubNodeId = /^[A-Z]{1,4}_k[gw][A-Za-z0-9_-]{6}[A-Za-z0-9_-]*$/;

/**
 * The length of the MessagePack integer or string at `offset` of `bytes` (GitHub's node id
 * arrays hold only those: ids, numbers and a commit's hex digest, as str or bin), or 0 when something else is
 * there or it runs past the end.
 */
function messagePackScalarLength(bytes: string, offset: number): number {
  const tag = bytes.charCodeAt(offset);
  let length = 0;
  if (tag <= 0x7f || tag >= 0xe0) length = 1;
  else if (tag >= 0xa0 && tag <= 0xbf) length = 1 + (tag - 0xa0);
  else if (tag === 0xcc || tag === 0xd0) length = 2;
  else if (tag === 0xcd || tag === 0xd1) length = 3;
  else if (tag === 0xce || tag === 0xd2) length = 5;
  else if (tag === 0xcf || tag === 0xd3) length = 9;
  else if ((tag === 0xd9 || tag === 0xc4) && offset + 1 < bytes.length) {
    length = 2 + bytes.charCodeAt(offset + 1);
  } else if ((tag === 0xda || tag === 0xc5) && offset + 2 < bytes.length) {
    length = 3 + ((bytes.charCodeAt(offset + 1) << 8) | bytes.charCodeAt(offset + 2));
  }
  return offset + length <= bytes.length ? length : 0;
}

/**
 * True when `value` is a GitHub node id: its body decodes to a version-0 MessagePack array of
 * integers and strings and nothing after it. A token of the same look (`XX_kwDO` then random
 * characters) leaves bytes over or breaks off inside an element.
 */
function isGithubNodeId(value: string): boolean {
  if (!githubNodeId.test(value)) return false;
  const body = value
    .slice(value.indexOf('_') + 1)
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  if (body.length % 4 === 1) return false;
  const bytes = decodeBase64(body);
  if (bytes === undefined || (bytes.charCodeAt(0) & 0xf0) !== 0x90) return false;
  if (bytes.charCodeAt(1) !== 0) return false;
  const elements = bytes.charCodeAt(0) & 0x0f;
  let offset = 1;
  for (let element = 0; element < elements; element++) {
    const length = messagePackScalarLength(bytes, offset);
    if (length === 0) return false;
    offset += length;
  }
  return offset === bytes.length;
}

// A Freenet key (`CHK@`, `SSK@`, `USK@`): routing key, crypto key (32 bytes each) and extra bytes,
// in Freenet's base64 (`~` and `-` for `+` and `/`). A CHK is the hash of its content; an SSK or
// USK request key names a signed site to fetch and is published to be shared. The insert key of
// the same site holds its private key in the routing part and sets the second extra byte (the
// insert flag: `AQECAAE` against the request key's `AQACAAE`): it is no identifier.
const freenetKey = /\b(CHK|SSK|USK)@([A-Za-z0-9~-]{43}),([A-Za-z0-9~-]{43}),([A-Za-z0-9~-]{7})/g;

/** True when `start`..`end` lies in the routing or crypto key of a Freenet CHK or request key. */
function isFreenetRequestKey(text: string, start: number, end: number): boolean {
  // A key is 4 + 43 + 1 + 43 + 1 + 7 characters: one ending past the span starts within that.
  const from = Math.max(0, start - 100);
  const window = text.slice(from, Math.min(text.length, end + 100));
  if (!window.includes('@')) return false;
  freenetKey.lastIndex = 0;
  for (let key = freenetKey.exec(window); key; key = freenetKey.exec(window)) {
    const keyStart = from + key.index + 4;
    const keyEnd = keyStart + 43 + 1 + 43;
    if (start < keyStart || end > keyEnd) continue;
    if (key[1] === 'CHK') return true;
    const extra = decodeBase64(key[4]!.slice(0, 4).replace(/~/g, '+').replace(/-/g, '/'));
    return extra !== undefined && extra.charCodeAt(1) === 0;
  }
  return false;
}

// An AWS KMS multi-region key id: `mrk-` and 32 hex digits. It names a key whose material never
// leaves KMS; calling KMS with it takes the caller's own credentials.
const kmsMultiRegionKeyId = /^mrk-[0-9a-f]{32}$/;

// A name Kubernetes generated: a DNS label, then the pod-template hash of a ReplicaSet (8 to 10
// characters) and/or the 5-character random suffix of `generateName`. Both are drawn from the
// alphabet of `rand.SafeEncodeString`, which leaves out vowels and `0`, `1`, `3` so no word forms.
const kubernetesGeneratedName =
  /^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:-[bcdfghjklmnpqrstvwxz2456789]{8,10}(?:-[bcdfghjklmnpqrstvwxz2456789]{5})?|-[bcdfghjklmnpqrstvwxz2456789]{5})$/;

const isBase64Character = (code: number) =>
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  code === 43 ||
  code === 47;

const isBase64UrlCharacter = (code: number) =>
  isBase64Character(code) || code === 45 || code === 95;

// The last run found: the pieces a `/` parts one run into are judged one after another.
let lastRun: { text: string; from: number; to: number; urlSafe: boolean } | undefined;

/**
 * The whole base64 run (of base64url's alphabet too when `urlSafe`; padding included) that holds
 * `start`..`end`: `/` parts it for some rules. Each run is scanned once for all the spans within it.
 */
function base64RunAround(
  text: string,
  start: number,
  end: number,
  urlSafe = false,
): [number, number] {
  if (
    lastRun !== undefined &&
    lastRun.urlSafe === urlSafe &&
    start >= lastRun.from &&
    end <= lastRun.to &&
    lastRun.text === text
  ) {
    return [lastRun.from, lastRun.to];
  }
  const inRun = urlSafe ? isBase64UrlCharacter : isBase64Character;
  let from = start;
  while (from > 0 && inRun(text.charCodeAt(from - 1))) from--;
  let to = end;
  while (to < text.length && inRun(text.charCodeAt(to))) to++;
  if (text.charCodeAt(to) === 61) to++;
  if (text.charCodeAt(to) === 61) to++;
  lastRun = { text, from, to, urlSafe };
  return [from, to];
}

/** The bytes of base64 `run` when it is whole (padded to a multiple of 4), else undefined. */
const decodeWholeBase64 = (run: string) => (run.length % 4 === 0 ? decodeBase64(run) : undefined);

const digestBytes: Record<string, number> = { sha256: 32, sha384: 48, sha512: 64 };

/**
 * True when the span lies in a Subresource Integrity digest (`sha256-<base64>`, also Nix's hash
 * form): base64 of exactly the digest's length after the algorithm's name. Its `/` parts the
 * digest into pieces a rule could judge alone.
 */
function isIntegrityDigest(text: string, start: number, end: number): boolean {
  const [from, to] = base64RunAround(text, start, end);
  const algorithm = /(?:^|[^A-Za-z0-9])(sha256|sha384|sha512)-$/.exec(
    text.slice(Math.max(0, from - 8), from),
  )?.[1];
  if (algorithm === undefined) return false;
  return decodeWholeBase64(text.slice(from, to))?.length === digestBytes[algorithm];
}

/**
 * The key written just before `start` on its line (`"KeyId": "`, `name: `), with the path before
 * it when it has one (`checksum/config`, an annotation's name), if any.
 */
function keyBefore(text: string, start: number): string | undefined {
  const before = text.slice(Math.max(0, start - 200), start);
  return keyAtLineEnd(before.slice(before.lastIndexOf('\n') + 1), { path: true });
}

function keyBeforeIsSecret(text: string, start: number): boolean {
  const key = keyBefore(text, start);
  return key !== undefined && keyIsSecret(key) !== undefined;
}

// Words of a key that names a digest (`CodeSha256`, `content_hash`, `checksum`, `md5sum`), with
// the digest's length in bytes where the word names the algorithm.
const digestWord = /^(?:(sha(?:1|224|256|384|512)|md5)(?:sum)?|digest|checksum|hash|etag)$/;
const algorithmBytes: Record<string, number> = {
  md5: 16,
  sha1: 20,
  sha224: 28,
  sha256: 32,
  sha384: 48,
  sha512: 64,
};
const digestLengths = new Set(Object.values(algorithmBytes));

/**
 * True when the key just before the span names a digest and the value is one: hex or base64 of
 * exactly the length of the algorithm the key names (of any of MD5, SHA-1, SHA-2 when it names
 * none). A key naming a secret as well (`password_hash`, `secret_sha256`) keeps its value
 * redacted; a digest named before a path (`checksum/secret`, Helm's annotation that restarts pods
 * when the secret changes) is the digest of what the path names.
 */
function isNamedDigest(text: string, start: number, end: number): boolean {
  const [from, to] = base64RunAround(text, start, end, true);
  const key = keyBefore(text, from);
  if (key === undefined) return false;
  const name = key.includes('/') ? key.slice(0, key.indexOf('/')) : key;
  if (keyIsSecret(name) !== undefined) return false;
  let lengths: ReadonlySet<number> | undefined;
  for (const word of name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)) {
    const named = digestWord.exec(word);
    if (named === null) continue;
    lengths = named[1] === undefined ? digestLengths : new Set([algorithmBytes[named[1]]!]);
    if (named[1] !== undefined) break;
  }
  if (lengths === undefined) return false;
  const value = text.slice(from, to);
  if (/^[0-9a-f]+$/i.test(value)) return lengths.has(value.length / 2);
  // Base64, or base64url without padding (a wheel's `RECORD`: `sha256=<43 characters>`).
  if (/[-_]/.test(value) && /[+/]/.test(value)) return false;
  const bytes = decodeBase64(value.replace(/-/g, '+').replace(/_/g, '/'));
  return bytes !== undefined && lengths.has(bytes.length);
}

/**
 * True when `value` is a Bitnami sealed secret: base64 of the length of the RSA-OAEP-wrapped
 * session key (2 bytes: 256, 384 or 512), that wrapped key, then AES-GCM ciphertext and its
 * 16-byte tag. Only the cluster's private key opens it; it is written to be committed.
 */
function isSealedSecret(text: string, start: number, end: number): boolean {
  if (end - start < 8) return false;
  const [from, to] = base64RunAround(text, start, end);
  if (to - from < 360 || text.charCodeAt(from) !== 65 || text.charCodeAt(from + 1) !== 103) {
    return false;
  }
  const bytes = decodeWholeBase64(text.slice(from, to));
  if (bytes === undefined) return false;
  const wrapped = (bytes.charCodeAt(0) << 8) | bytes.charCodeAt(1);
  return (wrapped === 256 || wrapped === 384 || wrapped === 512) && bytes.length > 2 + wrapped + 16;
}

// The members a JOSE header may hold (RFC 7515 section 4.1, RFC 7516 section 4.1, RFC 7518
// section 4.6-4.8, RFC 7797, RFC 8555): algorithm, key id, types, key URLs and thumbprints.
const joseHeaderMembers = new Set([
  'alg',
  'typ',
  'cty',
  'kid',
  'jku',
  'jwk',
  'x5u',
  'x5c',
  'x5t',
  'x5t#S256',
  'crit',
  'enc',
  'zip',
  'epk',
  'apu',
  'apv',
  'iv',
  'tag',
  'p2s',
  'p2c',
  'b64',
  'url',
  'nonce',
]);

// The members of a JWK that hold private or symmetric key material (RFC 7518 sections 6.2.2,
// 6.3.2 and 6.4.1): an EC or OKP key's `d`, an RSA key's primes and exponents, an `oct` key's `k`.
const privateJwkMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** True when the header's keys (`jwk`, the ECDH `epk`) are public halves only. */
function holdsPublicKeysOnly(header: Record<string, unknown>): boolean {
  return ['jwk', 'epk'].every((member) => {
    const key = header[member];
    return (
      key === undefined ||
      (typeof key === 'object' &&
        key !== null &&
        privateJwkMembers.every((name) => !Object.hasOwn(key, name)))
    );
  });
}

/**
 * True when the span is a JOSE header alone (`eyJhbGciOi…` with no `.` joining it to a payload):
 * base64url of a JSON object naming its algorithm, with header members only. It says how a token
 * is signed, not the token; a JWT's whole span holds its dots.
 */
function isJoseHeaderAlone(text: string, start: number, end: number): boolean {
  const value = text.slice(start, end);
  if (!value.startsWith('eyJ') || value.length > 2000 || !/^[A-Za-z0-9_-]+={0,2}$/.test(value)) {
    return false;
  }
  if (text.charCodeAt(start - 1) === 46 || text.charCodeAt(end) === 46) return false;
  const body = value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const decoded = decodeBase64(body.length % 4 === 1 ? '' : body);
  if (decoded === undefined) return false;
  try {
    const header: unknown = JSON.parse(decoded);
    return (
      typeof header === 'object' &&
      header !== null &&
      !Array.isArray(header) &&
      typeof (header as { alg?: unknown }).alg === 'string' &&
      Object.keys(header).every((member) => joseHeaderMembers.has(member)) &&
      holdsPublicKeysOnly(header as Record<string, unknown>)
    );
  } catch {
    return false;
  }
}

// A string in encoded JSON that could be a credential of its own: 8+ characters of base64's
// alphabet mixing two of upper case, lower case and digits (`dXNlcjpwYXNz`, a random `k`).
const codeLikeString = /^[A-Za-z0-9+/=_-]{8}[A-Za-z0-9+/=_-]*$/;

// Member names that may hold a credential's part even where a key of that name alone is not called
// secret (`auth` holds `user:password` in a Docker config).
const credentialMember = /pass|pwd|secret|token|auth|key|cred|sign|session|cookie|priv|cert/i;

/** True when `value` holds two of the three character classes of a generated value. */
function mixesClasses(value: string): boolean {
  return (
    Number(/[A-Z]/.test(value)) + Number(/[a-z]/.test(value)) + Number(/[0-9]/.test(value)) >= 2
  );
}

/**
 * True when JSON `data` holds no credential: no member named like one (`password`, `auth`), and no
 * string that could be one by its look. Numbers, flags, words and names are content.
 */
function holdsOnlyContent(data: unknown, depth = 0): boolean {
  if (typeof data === 'string') return !(codeLikeString.test(data) && mixesClasses(data));
  if (typeof data !== 'object' || data === null) return true;
  if (depth > 8) return false;
  if (Array.isArray(data)) return data.every((item) => holdsOnlyContent(item, depth + 1));
  return Object.entries(data).every(
    ([member, item]) =>
      keyIsSecret(member) === undefined &&
      !credentialMember.test(member) &&
      !(codeLikeString.test(member) && mixesClasses(member)) &&
      holdsOnlyContent(item, depth + 1),
  );
}

/**
 * True when the span is base64 of a JSON object or array that holds only content (a test fixture,
 * a message payload, a cursor's state): what it encodes is in the clear once decoded, and none of
 * it is a credential (`holdsNoSecret` runs the redactor's rules over the decoded text). Not a
 * JWT's part (a `.` joins it to the next) and not under a key naming a secret, where an unsigned
 * session in JSON is still the session.
 */
function isEncodedPlainJson(
  text: string,
  start: number,
  end: number,
  holdsNoSecret: (decoded: string) => boolean,
): boolean {
  const [from, to] = base64RunAround(text, start, end, true);
  if (to - from < 16 || to - from > 8192) return false;
  if (text.charCodeAt(from - 1) === 46 || text.charCodeAt(to) === 46) return false;
  const value = text.slice(from, to);
  if (!/^(?:eyJ|eyI|W3|WyJ|ewo|Wwo)/.test(value)) return false;
  if (keyBeforeIsSecret(text, from)) return false;
  const bytes = decodeBase64(value.replace(/-/g, '+').replace(/_/g, '/'));
  if (bytes === undefined) return false;
  try {
    const data: unknown = JSON.parse(bytes);
    return (
      typeof data === 'object' && data !== null && holdsOnlyContent(data) && holdsNoSecret(bytes)
    );
  } catch {
    return false;
  }
}

// KSUID (Segment's K-Sortable Unique IDentifier): 20 bytes, a 4-byte count of seconds since
// 2014-05-13 (1,400,000,000 Unix) then 16 random bytes, written as 27 base62 digits (0-9A-Za-z).
const ksuidShape = /^[0-9A-Za-z]{27}$/;
const base62Digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ksuidEpoch = 1_400_000_000;
// From when KSUIDs were published (2017-03) to 2031: fixed, so that redaction stays a function of
// the text alone. A random 27-digit value fits 20 bytes in 59 % of draws and then has its time in
// this window in about 10 % of those (6 % of all).
const ksuidFirstSecond = 1_490_000_000;
const ksuidLastSecond = 1_924_992_000;

/** True when `value` is a KSUID minted between 2017 and 2031. */
function isKsuid(value: string): boolean {
  if (!ksuidShape.test(value)) return false;
  let number = 0n;
  for (const digit of value) number = number * 62n + BigInt(base62Digits.indexOf(digit));
  if (number >> 160n !== 0n) return false;
  const seconds = Number(number >> 128n) + ksuidEpoch;
  return seconds >= ksuidFirstSecond && seconds < ksuidLastSecond;
}

/**
 * True when the span is a KSUID under a key that is only `id` (`"id": "…"`, `id: …`, `_id=…`): a
 * record's own id, as ULIDs and UUIDs are. Only against the generic shape's finding: a value a key
 * calls secret, or an issuer's or a signed format, is judged as before. Under `id` a generated value
 * of any other shape (a private key pasted there) stays a token.
 */
function isKsuidUnderId(text: string, start: number, end: number): boolean {
  if (!isKsuid(text.slice(start, end))) return false;
  const key = keyBefore(text, start);
  return key !== undefined && /^[_$]?id$/i.test(key);
}

// A Twilio SID (String IDentifier): two capitals naming the resource's type (`SM` a message, `MG`
// a messaging service, `CA` a call) and 32 lower-case hex digits.
const twilioSid = /^[A-Z]{2}[0-9a-f]{32}$/;

/**
 * True when the span is a SID under a key whose last word is `sid` (`"sid": "…"`,
 * `messaging_service_sid`, `CallSid`): the id of a resource, as a UUID under `*_id` is. Only
 * against the generic shape's finding: the issuer's rules for its credential-bearing types (`AC`,
 * `SK`) judge those as before, and a session cookie under `sid` has another format.
 */
function isSidUnderSidKey(text: string, start: number, end: number): boolean {
  if (!twilioSid.test(text.slice(start, end))) return false;
  const key = keyBefore(text, start);
  return key !== undefined && keySegments(key).at(-1) === 'sid';
}

// Findings judged by the value's shape or by a key's name, not by an issuer's format.
const shapeKinds = new Set([
  'generated-token',
  'prefixed-token',
  'high-entropy-string',
  'password',
  'secret',
]);

/**
 * True when the span `start`..`end` of `text` is a public identifier (see above), judged by its
 * value and, for ids whose shape alone is a token's, by the URL, path or name just before it; or a
 * digest, ciphertext or encoded content of a checked format. `kind` is the finding's rule;
 * `holdsNoSecret` says whether the rules find nothing in a decoded text.
 */
export function isPublicIdentifier(
  text: string,
  start: number,
  end: number,
  kind?: string,
  holdsNoSecret: (decoded: string) => boolean = () => false,
): boolean {
  const value = text.slice(start, end);
  if (awsUniqueId.test(value) || isSshPublicKey(value) || isGithubNodeId(value)) return true;
  // Only against a finding of the value's shape or a key's name: a rule that reads the value as a
  // password by its syntax (`.netrc`'s `password <value>`, a command line's `-p<value>`, a URL's
  // user info) has no key before it to ask, and a generated name is a password there all the same.
  if (
    (kmsMultiRegionKeyId.test(value) || kubernetesGeneratedName.test(value)) &&
    shapeKinds.has(kind ?? '') &&
    !keyBeforeIsSecret(text, start)
  ) {
    return true;
  }
  if (isIntegrityDigest(text, start, end) || isSealedSecret(text, start, end)) return true;
  if (isJoseHeaderAlone(text, start, end)) return true;
  if (contentIdV0.test(value)) {
    const bytes = decodeBase58(value);
    if (bytes?.length === 34 && bytes[0] === 0x12 && bytes[1] === 0x20) return true;
  }
  if (isBase58CheckPublic(value)) return true;
  if (isFreenetRequestKey(text, start, end)) return true;
  // Only the line before the value, and no more than a URL's worth of it.
  const before = text.slice(Math.max(0, start - 300), start);
  const line = before.slice(before.lastIndexOf('\n') + 1);
  if (
    googleContentId.test(value) &&
    /google\.com\/|youtu/.test(line) &&
    googleContentUrl.test(line)
  ) {
    return true;
  }
  if (isNamedBase58Address(value, line)) return true;
  // A digest is known by its key's name only against a finding of the value's shape or of a key's
  // name: an issuer's rule that knows its own format (a Square token is 48 bytes, a SHA-384's
  // length) wins.
  if (!shapeKinds.has(kind ?? '')) return false;
  if (isNamedDigest(text, start, end)) return true;
  if (kind === 'generated-token' && isKsuidUnderId(text, start, end)) return true;
  if (kind === 'prefixed-token' && isSidUnderSidKey(text, start, end)) return true;
  return (
    kind !== 'password' && kind !== 'secret' && isEncodedPlainJson(text, start, end, holdsNoSecret)
  );
}
