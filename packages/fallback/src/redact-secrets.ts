import { InvalidInputError } from '@baton/tokens';
import { type DecodedView, decodeTextEscapes } from './decode-text-escapes.js';
import { documentedFormatOwner, findCutLayoutTokens } from './documented-formats.js';
import { encodedFileRanges } from './encoded-file-ranges.js';
import { encodesPair } from './encodes-pair.js';
import {
  findCommandLinePasswords,
  findPromptedRedisAuth,
  namesCommandTool,
} from './find-command-line-passwords.js';
import { documentedPrefixes, findDocumentedPrefixTokens } from './find-documented-prefix-tokens.js';
import {
  findEncodedCredentials,
  findWrappedEncodedCredentials,
} from './find-encoded-credentials.js';
import { findEncodedJsonCredentials, mayHoldEncodedJson } from './find-encoded-json-credentials.js';
import {
  environmentAssignmentHints,
  findEnvironmentAssignments,
} from './find-environment-assignments.js';
import { findFlagCredentials } from './find-flag-credentials.js';
import { findGeneratedTokens, sourceMappingRanges } from './find-generated-tokens.js';
import { findKubernetesSecretData } from './find-kubernetes-secret-data.js';
import { findNamedValues } from './find-named-values.js';
import { findNetrcPasswords, findPgpassPasswords } from './find-netrc-passwords.js';
import { findUrlSignatures } from './find-url-signatures.js';
import { isPublicIdentifier, sshPublicKeyRanges } from './public-identifier.js';
import { rulePrefilter, rulePrefiltersEnabled } from './rule-prefilters.js';
import {
  contextRules,
  findContinuedKeyedSecrets,
  findHeadlessPrivateKeys,
  findKeyedSecrets,
  isBase64Character,
  keyDeclaresNotSecret,
  type SecretRule,
  vendorRules,
} from './secret-rules.js';

// `text.charCodeAt(i)` looks `charCodeAt` up on `text` at every character through the call site's
// property cache, which V8 keys by the string's internal form (flat or joined, sliced, one or two
// bytes a character, …): past four forms (real transcripts bring them) the site goes megamorphic
// and the optimised loop makes a generic lookup per character, 2x slower or worse. Called through
// the prototype's function, nothing is looked up on `text`; each call site keeps its own feedback.
// A module's own constant, not an import shared by the files that need it: an imported binding is
// read from its module cell, and the optimiser no longer sees which builtin it calls (redacting the
// transcripts took 12–30 % longer that way).
const charCodeAt = String.prototype.charCodeAt;

/** One secret found: its kind and its position in the ORIGINAL text (end exclusive). */
export interface SecretFinding {
  kind: string;
  start: number;
  end: number;
}

export interface RedactSecretsResult {
  /** The text with every finding replaced. */
  text: string;
  /** Findings in order of position; never carries the secret value itself. */
  findings: SecretFinding[];
}

export interface RedactSecretsOptions {
  /**
   * Replacement for one finding. Default: `[REDACTED:<kind>]`. Receives the kind only, never the
   * value, so a custom replacement cannot leak it by accident.
   */
  replacement?: (kind: string) => string;
  /** Detect `key = value` pairs whose key names a secret (password, token, api_key, ...). Default: true. */
  keyValuePairs?: boolean;
  /** Extra rules run alongside the built-in ones (global regexes; named group `secret` = span). Default: none. */
  extraRules?: readonly SecretRule[];
  /**
   * Built-in rule kinds to skip (`['high-entropy-string']`): for a rule that misfires on your data,
   * and for measuring how the other rules cover a family without its own rule. Default: none.
   */
  disabledKinds?: readonly string[];
}

// Agents re-send the same messages on every step and compaction re-reads them: results for default
// options are kept by content (a Map hashes a string once), bounded by the characters held.
// Most texts hold nothing to redact: for those the memo keeps `unchanged` rather than a result
// object of their own (tens of thousands of small objects that each survived into the old
// generation); a hit makes a short-lived result.
const unchanged = 0;
// Two generations, each bounded by half the characters: past the bound the current one becomes the
// older and a fresh one starts, and a text found only in the older is moved to the current. A
// single table in insertion order evicted entry by entry: a delete and a list slot per text
// redacted, and the table rehashed as deletions piled up (a seventh of redacting a never-seen
// 50,000-message span).
let memo = new Map<string, RedactSecretsResult | typeof unchanged>();
let olderMemo = new Map<string, RedactSecretsResult | typeof unchanged>();
const memoMaxCharacters = 16 * 2 ** 20;
const generationCharacters = memoMaxCharacters / 2;
const memoMinLength = 24;
/** Shortest text `redactSecrets` remembers (with default options). */
export const redactionMemoMinLength = memoMinLength;
/** Characters of the keys of the current generation. */
let memoCharacters = 0;

/**
 * Empties the memo of `redactSecrets`. The memo holds recently redacted texts (originals included)
 * in process memory; call this to drop them early, e.g. after a session ends. Benchmarks call it to
 * time first calls apart from repeats.
 */
export function clearRedactionMemo(): void {
  memo = new Map();
  olderMemo = new Map();
  memoCharacters = 0;
}

function remember(text: string, result: RedactSecretsResult | typeof unchanged): void {
  if (text.length > memoMaxCharacters / 8) return;
  if (memo.has(text)) return;
  if (memoCharacters + text.length > generationCharacters) {
    olderMemo = memo;
    memo = new Map();
    memoCharacters = 0;
  }
  memo.set(text, result);
  memoCharacters += text.length;
}

/** What the memo holds for `text`, moved to the current generation when found in the older. */
function recall(text: string): RedactSecretsResult | typeof unchanged | undefined {
  const known = memo.get(text);
  if (known !== undefined || olderMemo.size === 0) return known;
  const older = olderMemo.get(text);
  if (older !== undefined) {
    // Deleted from the older so that a text is counted in one generation only.
    olderMemo.delete(text);
    remember(text, older);
  }
  return older;
}

const copyFinding = (finding: SecretFinding): SecretFinding => ({ ...finding });
const copy = (result: RedactSecretsResult): RedactSecretsResult => ({
  text: result.text,
  // Most results have no finding: a fresh empty list without `map` and its callback.
  findings: result.findings.length === 0 ? [] : result.findings.map(copyFinding),
});

// Every built-in rule needs either a run of 10+ letters/digits or 16+ token characters (vendor
// tokens, JWTs, PEM bodies), 8 token characters then `~` or `.` then one more, or one of the words
// and markers below (key names, headers, URL and curl credentials), ASCII case ignored. Text with
// none is returned untouched without running ~70 patterns: most short strings (paths, commands)
// are like that. One pass over the character codes: a case-insensitive regex alternation of the
// same conditions tried every branch at every position of text that has none (code, logs), and
// cost as much as redacting.
const hintWords: Record<number, readonly string[]> = {};
// The first two letters of each word (lower case): most letters start no word of the list there,
// which this tells without walking the words.
const hintWordPairs = new Uint8Array(128 * 128);
for (const word of [
  'pass',
  'pwd',
  'pw',
  'secret',
  'token',
  'key',
  'auth',
  'cred',
  'access',
  'login',
  'private',
  'bearer',
  'session',
  'cookie',
  'sig',
  'licen',
  'dsn',
  'sid',
  'api',
  'mnemonic',
  'seed',
  'phrase',
  // The keyed rule's other words (a value in base64 with `/` and `+` may hold no 10-character run).
  'salt',
  'pepper',
  'kek',
  'dek',
  'jwt',
  'verifier',
  'assertion',
  // Parts of common words (`path`, `ping`, `footprint`): only right before a separator.
  ...['pat', 'pin', 'otp'].flatMap((word) => [...'=:"\' '].map((end) => word + end)),
]) {
  const first = word.charCodeAt(0);
  hintWords[first] = [...(hintWords[first] ?? []), word];
  hintWordPairs[first * 128 + word.charCodeAt(1)] = 1;
}

const tokenClasses = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)) {
    tokenClasses[code] = 1;
  } else if (code === 95 || code === 45) {
    tokenClasses[code] = 2;
  }
}

/** 1 for ASCII letters and digits, 2 for `_` and `-`, 0 otherwise. */
function tokenClass(code: number): number {
  return code < 128 ? tokenClasses[code]! : 0;
}

// What `mayHoldSecret` does with each character, one table load rather than a chain of compares
// per character (most characters are letters, digits and spaces, which take the first branches).
const letterOrDigit = 1;
/** `_`, `-` */
const joiner = 2;
/** `+`, `/`: base64 but no token character. */
const base64Sign = 3;
const backslash = 4;
const equals = 5;
const at = 6;
const colon = 7;
/** `.`, `~` */
const dotOrTilde = 8;
const gateClasses = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  gateClasses[code] =
    tokenClasses[code] === 1 ? letterOrDigit : tokenClasses[code] === 2 ? joiner : 0;
}
gateClasses[43] = base64Sign;
gateClasses[47] = base64Sign;
gateClasses[92] = backslash;
gateClasses[61] = equals;
gateClasses[64] = at;
gateClasses[58] = colon;
gateClasses[46] = dotOrTilde;
gateClasses[126] = dotOrTilde;

// `hintWordPairs` by the two characters as written (case folded into the table), so the gate
// checks a pair with one load. Looked up at a pair's second character, not its first, so the gate
// needs no look-ahead read per character: every word's first two characters are letters, which
// the gate reads in its letter branch.
const hintPairsAsWritten = new Uint8Array(128 * 128);
for (let first = 0; first < 128; first++) {
  for (let second = 0; second < 128; second++) {
    const lowerFirst = first >= 65 && first <= 90 ? first + 32 : first;
    const lowerSecond = second >= 65 && second <= 90 ? second + 32 : second;
    hintPairsAsWritten[first * 128 + second] = hintWordPairs[lowerFirst * 128 + lowerSecond]!;
  }
}
for (let pair = 0; pair < 128 * 128; pair++) {
  if (
    hintWordPairs[pair] === 1 &&
    (tokenClasses[pair >> 7] !== 1 || tokenClasses[pair & 127] !== 1)
  ) {
    throw new Error('a hint word must start with two letters or digits');
  }
}

/** True when `word` (lower-case ASCII) stands in `text` at `at`, ASCII case ignored. */
function wordAt(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let index = 1; index < word.length; index++) {
    let code = charCodeAt.call(text, at + index);
    if (code >= 65 && code <= 90) code += 32;
    if (code !== word.charCodeAt(index)) return false;
  }
  return true;
}

/** The character after `index`, or 0 past the end (a NaN there would deoptimise the gate). */
function codeAfter(text: string, index: number): number {
  return index + 1 < text.length ? charCodeAt.call(text, index + 1) : 0;
}

/** False when no built-in rule can match `text` (see above); exported for the equivalence check in bench/speed.ts. */
export function mayHoldSecret(text: string): boolean {
  let alphanumeric = 0;
  let token = 0;
  // Base64 characters (`+` and `/` included) since the last other one: a short padded value
  // (`YWE6ISF+ISEhISE=`, an encoded `user:password`) has no long run of either kind above.
  let base64 = 0;
  // An unpadded value (`YS5fOiE/ISEhISEh`) ends on a multiple of four, holds a capital or a digit
  // and decodes to a pair with `:`; only such runs are decoded (a capitalised word of eight
  // letters is a run too, and letting every one through cost half again as much redaction time).
  // Checked at the run's end only: work per character here costs on every text.
  let escapes = 0;
  // The answer is whether any character meets a condition (each judged on the counts above), so
  // the order of the checks is free: a hint word is looked for at its second character, and the
  // character after the current one is read only for the few that need it.
  const length = text.length;
  let previous = 0;
  for (let index = 0; index < length; index++) {
    const code = charCodeAt.call(text, index);
    const before = previous;
    previous = code;
    const kind = code < 128 ? gateClasses[code]! : 0;
    if (kind === letterOrDigit) {
      base64++;
      alphanumeric++;
      token++;
      if (alphanumeric >= 10 || token >= 16) return true;
      if (before < 128 && hintPairsAsWritten[before * 128 + code] === 1) {
        const lower = before >= 65 && before <= 90 ? before + 32 : before;
        for (const word of hintWords[lower]!) if (wordAt(text, index - 1, word)) return true;
      }
      continue;
    }
    if (kind === joiner) {
      base64 = 0;
      escapes = 0;
      alphanumeric = 0;
      token++;
      if (token >= 16) return true;
      // `-u` at a word's end, `--user`.
      if (code === 45) {
        const next = codeAfter(text, index);
        if ((next === 117 || next === 85) && tokenClass(charCodeAt.call(text, index + 2)) !== 1) {
          if (charCodeAt.call(text, index + 2) !== 95) return true;
        }
        if (wordAt(text, index, '--user')) return true;
      }
      continue;
    }
    if (kind === base64Sign) {
      base64++;
      alphanumeric = 0;
      token = 0;
      continue;
    }
    // `\/` is how some JSON encoders write `/`: the value goes on past the backslash.
    if (kind === backslash && base64 > 0 && codeAfter(text, index) === 47) {
      escapes++;
      continue;
    }
    if (kind === equals) {
      if (base64 >= 7 && base64 % 4 >= 2 && tokenClass(codeAfter(text, index)) !== 1) return true;
    } else if (base64 >= 8 && (base64 & 3) === 0) {
      if (encodesPair(text, index - base64 - escapes, index)) return true;
    }
    base64 = 0;
    escapes = 0;
    if (kind === at) return true;
    if (kind === colon) {
      if (codeAfter(text, index) === 47 && charCodeAt.call(text, index + 2) === 47) return true;
    } else if (kind === dotOrTilde) {
      if (token >= 8 && tokenClass(codeAfter(text, index)) !== 0) return true;
    }
    alphanumeric = 0;
    token = 0;
  }
  return (
    base64 >= 8 &&
    (base64 & 3) === 0 &&
    encodesPair(text, text.length - base64 - escapes, text.length)
  );
}

const defaultReplacement = (kind: string) => `[REDACTED:${kind}]`;

interface Span {
  kind: string;
  start: number;
  end: number;
}

const builtInRules = [...vendorRules, ...contextRules];
// Per built-in rule, a cheap test every text it can match passes (see rule-prefilters.ts).
const builtInPrefilters = builtInRules.map((rule) => rulePrefilter(rule.pattern));
// Which built-in rules can match a text, from one pass over it: an Aho-Corasick automaton of the
// rules' lower-cased hints (all ASCII), upper-case letters folded onto lower-case. Walking a trie
// from every position of the lower-cased text cost more than half the rules' own scans; this is
// one table step per character and needs no lower-cased copy. The table is indexed by the ~45
// characters hints use (any other character leads back to the start), which keeps it small
// enough to stay in cache. A hint that must match case is checked as written where its
// lower-cased form ends.
// Past the rules, the same answer for steps that need a literal: one of the documented prefixes,
// `PRIVATE KEY` (a headless key's END line), `secret` (a Kubernetes Secret, any case), the words
// every command `findEnvironmentAssignments` reads must hold (`set `, `setenv`, `ENV `, ...): its
// own scan for them was a separate pass over every text the gates let through.
const documentedGate = builtInRules.length;
const privateKeyGate = documentedGate + 1;
const secretGate = documentedGate + 2;
const environmentGate = documentedGate + 3;

interface HintSource {
  hints: readonly string[] | undefined;
  matchCase: boolean;
}

/** Hints of each built-in rule, then of each gate; exported for the equivalence test. */
export const hintSources: readonly HintSource[] = [
  ...builtInRules.map((rule) => ({ hints: rule.hints, matchCase: rule.hintsMatchCase === true })),
  { hints: documentedPrefixes.map(([prefix]) => prefix), matchCase: true },
  { hints: ['PRIVATE KEY'], matchCase: true },
  { hints: ['secret'], matchCase: false },
  { hints: environmentAssignmentHints, matchCase: true },
];

/** One hint as the scan reports it: as written (`exact`) or in any case, and whom it serves. */
interface HintEntry {
  exact: string | undefined;
  sources: number[];
}
const hintEntries: HintEntry[] = [];
/** Entry indices by lower-cased hint. */
const hintEntriesByLowered = new Map<string, number[]>();
{
  const byKey = new Map<string, HintEntry>();
  hintSources.forEach(({ hints, matchCase }, source) => {
    for (const hint of new Set(hints ?? [])) {
      const lowered = hint.toLowerCase();
      const key = matchCase ? `=${hint}` : `~${lowered}`;
      let entry = byKey.get(key);
      if (entry === undefined) {
        entry = { exact: matchCase ? hint : undefined, sources: [] };
        byKey.set(key, entry);
        hintEntries.push(entry);
        const same = hintEntriesByLowered.get(lowered) ?? [];
        same.push(hintEntries.length - 1);
        hintEntriesByLowered.set(lowered, same);
      }
      if (!entry.sources.includes(source)) entry.sources.push(source);
    }
  });
}
/** Column of each ASCII code in the table, upper case folded; 0 for characters no hint holds. */
const hintColumn = new Uint8Array(128);
let hintColumns = 1;
for (const hint of hintEntriesByLowered.keys()) {
  for (let index = 0; index < hint.length; index++) {
    const code = hint.charCodeAt(index);
    if (hintColumn[code] === 0) hintColumn[code] = hintColumns++;
  }
}
for (let code = 65; code <= 90; code++) hintColumn[code] = hintColumn[code + 32]!;
const hintGoto: number[][] = [new Array<number>(hintColumns).fill(-1)];
const hintOutput: number[][] = [[]];
for (const [hint, entries] of hintEntriesByLowered) {
  let state = 0;
  for (let index = 0; index < hint.length; index++) {
    const column = hintColumn[hint.charCodeAt(index)]!;
    if (hintGoto[state]![column]! < 0) {
      hintGoto[state]![column] = hintGoto.length;
      hintGoto.push(new Array<number>(hintColumns).fill(-1));
      hintOutput.push([]);
    }
    state = hintGoto[state]![column]!;
  }
  hintOutput[state]!.push(...entries);
}
/** Next state by state × column; column 0 (no hint holds the character) always leads to 0. */
const hintStep = new (hintGoto.length < 2 ** 16 ? Uint16Array : Uint32Array)(
  hintGoto.length * hintColumns,
);
{
  // Breadth first, so a state's failure state is complete before the state itself.
  const failure = new Int32Array(hintGoto.length);
  const queue = [0];
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (let column = 1; column < hintColumns; column++) {
      const next = hintGoto[state]![column]!;
      const at = state * hintColumns + column;
      if (next < 0) {
        hintStep[at] = state === 0 ? 0 : hintStep[failure[state]! * hintColumns + column]!;
        continue;
      }
      hintStep[at] = next;
      if (state !== 0) {
        failure[next] = hintStep[failure[state]! * hintColumns + column]!;
        hintOutput[next]!.push(...hintOutput[failure[next]!]!);
      }
      queue.push(next);
    }
  }
}
/** Per state: the sources its case-free hints serve, and its hints to check as written. */
const stateSources = hintOutput.map((entries) => [
  ...new Set(
    entries.flatMap((entry) =>
      hintEntries[entry]!.exact === undefined ? hintEntries[entry]!.sources : [],
    ),
  ),
]);
const stateExact = hintOutput.map((entries) =>
  entries.filter((entry) => hintEntries[entry]!.exact !== undefined),
);
// Bit 1: case-free sources to record; bit 2: hints to check as written; bit 4: touched by the
// current scan (restored from `hintFlags` when it ends).
const hintFlags = Uint8Array.from(
  hintOutput,
  (_, state) => (stateSources[state]!.length > 0 ? 1 : 0) | (stateExact[state]!.length > 0 ? 2 : 0),
);
const hintState = hintFlags.slice();

/**
 * For each built-in rule (then each gate above), whether one of its hints occurs in `text`: as
 * written for a source that matches case, else ASCII case ignored as `String#toLowerCase` reads
 * it: `K` (Kelvin sign) lowers to `k`, `İ` to `i` and a combining dot; every other character
 * outside ASCII lowers to one outside ASCII, where no hint continues.
 */
export function hintedRules(text: string, active = new Uint8Array(hintSources.length)): Uint8Array {
  active.fill(0);
  let state = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = charCodeAt.call(text, index);
    if (code < 128) {
      state = hintStep[state * hintColumns + hintColumn[code]!]!;
    } else if (code === 0x212a) {
      state = hintStep[state * hintColumns + hintColumn[107]!]!;
    } else if (code === 0x130) {
      state = hintStep[state * hintColumns + hintColumn[105]!]!;
      if ((hintState[state]! & 3) !== 0) recordHints(text, index, state, active);
      // The combining dot after the `i`.
      state = 0;
      continue;
    } else {
      state = 0;
      continue;
    }
    if ((hintState[state]! & 3) !== 0) recordHints(text, index, state, active);
  }
  for (const at of touched) hintState[at] = hintFlags[at]!;
  for (const entry of confirmedEntries) confirmed[entry] = 0;
  touched.length = 0;
  confirmedEntries.length = 0;
  return active;
}

// Scratch state of the scan in progress (one at a time; cleared when it ends).
const touched: number[] = [];
const confirmed = new Uint8Array(hintEntries.length);
const confirmedEntries: number[] = [];

/** Records what the hints ending at `index` (in `state`) serve; clears what is settled. */
function recordHints(text: string, index: number, state: number, active: Uint8Array): void {
  let flags = hintState[state]!;
  if ((flags & 4) === 0) {
    touched.push(state);
    flags |= 4;
  }
  if ((flags & 1) !== 0) {
    for (const source of stateSources[state]!) active[source] = 1;
    flags &= ~1;
  }
  if ((flags & 2) !== 0) {
    let open = false;
    for (const entry of stateExact[state]!) {
      if (confirmed[entry] === 1) continue;
      const { exact, sources } = hintEntries[entry]!;
      if (text.startsWith(exact!, index + 1 - exact!.length)) {
        confirmed[entry] = 1;
        confirmedEntries.push(entry);
        for (const source of sources) active[source] = 1;
      } else {
        open = true;
      }
    }
    if (!open) flags &= ~2;
  }
  hintState[state] = flags;
}

function runRule(rule: SecretRule, text: string, spans: Span[]): void {
  if (!rule.pattern.global) {
    throw new InvalidInputError({
      path: `extraRules.${rule.kind}`,
      message: 'pattern must have the g flag',
    });
  }
  rule.pattern.lastIndex = 0;
  for (let match = rule.pattern.exec(text); match; match = rule.pattern.exec(text)) {
    if (match[0].length === 0) {
      rule.pattern.lastIndex++;
      continue;
    }
    const value = match.groups?.secret ?? match[0];
    if (rule.accept && !rule.accept(value, match)) continue;
    const offset = match.groups?.secret === undefined ? 0 : match[0].lastIndexOf(value);
    spans.push({
      kind: rule.kind,
      start: match.index + offset,
      end: match.index + offset + value.length,
    });
  }
}

/** Merges overlapping spans; the longest span of a cluster names its kind. */
function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      if (span.end - span.start > last.end - last.start) last.kind = span.kind;
      last.end = Math.max(last.end, span.end);
    } else {
      merged.push({ ...span });
    }
  }
  return merged;
}

/**
 * Replaces secrets in `text`: vendor keys (OpenAI, Anthropic, GitHub, GitLab, Slack, AWS, Google,
 * Stripe, ...), JWTs, PEM private keys, Authorization/Bearer/api-key headers, credentials in URLs
 * and curl flags, and values whose key names a secret. Leaves git SHAs, UUIDs, hashes, paths,
 * placeholders and identifiers alone.
 */
export function redactSecrets(
  text: string,
  options: RedactSecretsOptions = {},
): RedactSecretsResult {
  const result = redactSecretsShared(text, options);
  // The memo's own result is never handed out: a caller may change what it is given.
  return memoises(text, options) ? copy(result) : result;
}

/**
 * `redactSecrets` for callers in this package that only read the result: a remembered result is
 * returned itself rather than copied (the copy, with its findings list, was a few hundred bytes
 * per string of a 50,000-message walk, most of them without a finding). Never change it.
 */
export function redactSecretsShared(
  text: string,
  options: RedactSecretsOptions = {},
): Readonly<RedactSecretsResult> {
  if (typeof text !== 'string') {
    throw new InvalidInputError({ path: 'text', message: `expected a string, got ${typeof text}` });
  }
  if (
    options.disabledKinds !== undefined &&
    (!Array.isArray(options.disabledKinds) ||
      !options.disabledKinds.every((kind) => typeof kind === 'string'))
  ) {
    throw new InvalidInputError({
      path: 'options.disabledKinds',
      message: 'expected an array of rule kinds',
    });
  }
  if (memoises(text, options)) {
    const known = recall(text);
    if (known === unchanged) return { text, findings: noFindings };
    if (known !== undefined) return known;
    // Kept in the memo and never handed out as it is: a text without a finding may share the
    // empty list (one per text of a span added up).
    const result = redactUncached(text, options, noFindings);
    remember(text, result.findings.length === 0 && result.text === text ? unchanged : result);
    // Redacted text is often redacted again (receipts read the messages the compressor redacted).
    // When the last rescan of the output found nothing outside its own markers, redacting the
    // output returns it unchanged with no findings (`outsideMarkers` drops the same spans): known
    // without scanning again.
    if (result.findings.length > 0 && settled.has(result) && markersReadBack(result)) {
      remember(result.text, unchanged);
    }
    return result;
  }
  return redactUncached(text, options);
}

/** Whether results for `text` with these (validated) options go through the memo. */
function memoises(text: string, options: RedactSecretsOptions): boolean {
  return (
    options.replacement === undefined &&
    options.extraRules === undefined &&
    options.disabledKinds === undefined &&
    options.keyValuePairs !== false &&
    text.length >= memoMinLength
  );
}

// Results whose output, scanned again, gave no span outside the markers just written.
const settled = new WeakSet<RedactSecretsResult>();
const markerKind = /^[\w-]+$/;
/** Every marker written reads back as one (`markerPattern`), so a rescan skips its span. */
const markersReadBack = (result: RedactSecretsResult) =>
  result.findings.every((finding) => markerKind.test(finding.kind));

/** The findings of every remembered result without one: never handed out, never changed. */
const noFindings: SecretFinding[] = [];

// Redaction is synchronous; a nested one (a custom replacement that redacts) takes a fresh list.
let spareSpans: Span[] | undefined = [];

function redactUncached(
  text: string,
  options: RedactSecretsOptions,
  /** The list a result without findings gets: a fresh one unless the result stays in the package. */
  none: SecretFinding[] = [],
): RedactSecretsResult {
  const replacement = options.replacement ?? defaultReplacement;
  // The first scan fills a list kept from text to text (most texts have nothing to find: a fresh
  // empty list per text redacted added up over a long history); it is read only up to the merge.
  const list = spareSpans ?? [];
  spareSpans = undefined;
  let findings: Span[];
  try {
    const spans = outsideMarkers(text, collectSpans(text, options, 0, list));
    if (spans.length === 0) return { text, findings: none };
    findings = mergeSpans(spans);
  } finally {
    if (list.length > 0) list.length = 0;
    spareSpans = list;
  }
  let rendered = render(text, findings, replacement);
  // Replacing a secret makes new neighbours: a token glued to a key's END line stands at a word
  // boundary once the key is gone. Scan the output again until nothing new appears, so that
  // redacting redacted text changes nothing (each pass only adds spans; four passes suffice for
  // anything seen, the bound keeps hostile text linear).
  for (let pass = 0; pass < 4; pass++) {
    const again = collectSpans(rendered.text, options, 0).filter(
      (span) => !rendered.replaced.some(([from, to]) => span.start >= from && span.end <= to),
    );
    if (again.length === 0) {
      const result = { text: rendered.text, findings };
      settled.add(result);
      return result;
    }
    findings = mergeSpans([...findings, ...again.map((span) => toOriginal(span, rendered))]);
    const next = render(text, findings, replacement);
    if (next.text === rendered.text) break;
    rendered = next;
  }
  return { text: rendered.text, findings };
}

interface Rendered {
  text: string;
  /** Output ranges of the replacements, in order. */
  replaced: Array<[number, number]>;
  /** Original range of each replacement, in the same order. */
  originals: Array<[number, number]>;
}

function render(text: string, findings: Span[], replacement: (kind: string) => string): Rendered {
  let output = '';
  let cursor = 0;
  const replaced: Array<[number, number]> = [];
  const originals: Array<[number, number]> = [];
  for (const finding of findings) {
    output += text.slice(cursor, finding.start);
    const marker = replacement(finding.kind);
    replaced.push([output.length, output.length + marker.length]);
    originals.push([finding.start, finding.end]);
    output += marker;
    cursor = finding.end;
  }
  output += text.slice(cursor);
  return { text: output, replaced, originals };
}

/** Maps a span of the rendered text back onto the original text (a replacement maps whole). */
function toOriginal(span: Span, rendered: Rendered): Span {
  const map = (position: number, isEnd: boolean): number => {
    let shift = 0;
    for (let index = 0; index < rendered.replaced.length; index++) {
      const [from, to] = rendered.replaced[index]!;
      const [originalFrom, originalTo] = rendered.originals[index]!;
      if (position < from || (isEnd && position === from)) break;
      if (position < to || (isEnd && position === to)) return isEnd ? originalTo : originalFrom;
      shift = originalTo - to;
    }
    return position + shift;
  };
  return { kind: span.kind, start: map(span.start, false), end: map(span.end, true) };
}

// What `redactSecrets` writes: found again in redacted text, it is left as it is.
const markerPattern = /\[REDACTED(?::[\w-]+)?\]/g;

/** Drops spans that lie inside a marker of an earlier redaction. */
function outsideMarkers(text: string, spans: Span[]): Span[] {
  if (spans.length === 0 || !text.includes('[REDACTED')) return spans;
  const markers = [...text.matchAll(markerPattern)].map(
    (match) => [match.index, match.index + match[0].length] as const,
  );
  return spans.filter(
    (span) => !markers.some(([from, to]) => span.start >= from && span.end <= to),
  );
}

// JSON inside a JSON string inside a JSON string is as deep as tool outputs nest in practice.
const maxEscapeDepth = 3;
const activeByDepth: Array<Uint8Array<ArrayBuffer>> = [];

function collectSpans(
  text: string,
  options: RedactSecretsOptions,
  depth: number,
  /** Where spans are appended: an empty list. */
  spans: Span[] = [],
): Span[] {
  if (text.length === 0) return spans;
  const disabled = options.disabledKinds;
  // Command lines carry short passwords (`redis-cli -a hunter22`) that none of the gates below
  // need to see: this scan has its own, a command's name.
  const commandLines = !disabled?.includes('cli-password');
  if (commandLines) {
    findCommandLinePasswords(text, spans);
    findPromptedRedisAuth(text, spans);
  }
  // A `.pgpass` line names no key (`db:5432:orders:app:<password>`): the gates below see no hint.
  if (!disabled?.includes('pgpass-password')) findPgpassPasswords(text, spans);
  if (commandLines) {
    // `name:password` after a basic-auth flag, whichever tool takes it.
    findFlagCredentials(text, spans);
  }
  if (options.extraRules === undefined && !mayHoldSecret(text)) {
    // A command inside JSON inside JSON quotes its arguments with `\\\"`, which the scan reads
    // only once unescaped (below, for texts the gates let through).
    if (commandLines && depth < maxEscapeDepth && text.includes('\\"') && namesCommandTool(text)) {
      pushUnescaped(text, options, depth, spans);
    }
    // Escapes hide the hints too (`glft%2D…`, `&#x2d;`): the decoded view has its own gates.
    if (mayHoldEscapes(text, depth)) pushDecoded(text, options, depth, spans);
    return spans;
  }
  return collectGatedSpans(text, options, depth, spans);
}

/**
 * `collectSpans` past its gates. A function of its own: the callbacks below share a context of the
 * variables they read, which V8 allocates on entry to the function that declares them; declared in
 * `collectSpans`, it was allocated for every text redacted, most of which the gates turn away.
 */
function collectGatedSpans(
  text: string,
  options: RedactSecretsOptions,
  depth: number,
  spans: Span[],
): Span[] {
  const disabled = options.disabledKinds;
  // One answer buffer per depth of the unescaped views: a fresh one per text was most of what a
  // history of short messages allocated here.
  activeByDepth[depth] ??= new Uint8Array(hintSources.length);
  const active = hintedRules(text, activeByDepth[depth]);
  for (let index = 0; index < builtInRules.length; index++) {
    const rule = builtInRules[index]!;
    if ((rule.hints !== undefined && active[index] === 0) || disabled?.includes(rule.kind))
      continue;
    const prefilter = builtInPrefilters[index];
    if (prefilter !== undefined && rulePrefiltersEnabled() && !prefilter(text)) continue;
    runRule(rule, text, spans);
  }
  // Before the filters below: a token found after an escape inside a signature, a media file's
  // base64 or a source map is content like any other found there.
  if (depth < maxEscapeDepth && (text.includes('%') || text.includes('\\'))) {
    pushGluedAfterEscapes(text, options, depth, spans);
  }
  // A vendor shape met by chance inside a signature, encrypted reasoning or image bytes (a random
  // base64 run of thousands of characters holds `/AQVN…` now and then) is content.
  if (spans.length > 0 && text.includes('"')) {
    const opaque = opaqueValueRanges(text);
    if (opaque.length > 0) {
      keepSpans(spans, (span) => span.kind === 'private-key' || !withinRanges(opaque, span.start));
    }
  }
  // And for one inside an SSH public key (`ssh-rsa AAAAB3…/EAAA…`): the key is public as a whole.
  if (spans.length > 0) {
    const keys = sshPublicKeyRanges(text);
    if (keys.length > 0) {
      keepSpans(spans, (span) => {
        if (span.kind === 'private-key') return true;
        const key = rangeHolding(keys, span.start);
        return key === -1 || span.end > keys[key]![1];
      });
    }
  }
  // The same for a vendor shape wholly inside a source map's `mappings` (a 2 % chance per map of
  // 40 random segments was measured), inside a data URI's bytes (`/ABSK…` turns up in image
  // base64 now and then), inside base64 of a media file, or inside a SOPS-encrypted value (an `iv:AP5…` happens about once in
  // 3,000); a token that runs past the VLQ or base64 alphabet is kept.
  if (spans.length > 0) {
    const maps = [
      ...sourceMappingRanges(text),
      ...dataUriRanges(text),
      ...encryptedValueRanges(text),
      ...encodedFileRanges(text),
    ].sort((a, b) => a[0] - b[0]);
    if (maps.length > 0) {
      // Ranges do not nest; the one starting last at or before a span is the only one to check.
      const kept = spans.filter((span) => {
        let low = 0;
        let high = maps.length - 1;
        while (low < high) {
          const middle = (low + high + 1) >> 1;
          if (maps[middle]![0] <= span.start) low = middle;
          else high = middle - 1;
        }
        const [start, end] = maps[low]!;
        return !(span.start >= start && span.end <= end);
      });
      spans.length = 0;
      for (const span of kept) spans.push(span);
    }
  }
  // Each of these needs its literal (case-sensitive or not): known absent from the scan above.
  if (active[documentedGate] === 1) {
    for (const span of findDocumentedPrefixTokens(text)) {
      if (!disabled?.includes(span.kind)) spans.push(span);
    }
  }
  // Loops, not `push(...found)`: a text of 130k encoded values would overflow the stack.
  if (active[privateKeyGate] === 1 && !disabled?.includes('private-key')) {
    for (const span of findHeadlessPrivateKeys(text)) spans.push(span);
  }
  if (active[secretGate] === 1 && !disabled?.includes('kubernetes-secret')) {
    for (const span of findKubernetesSecretData(text)) spans.push(span);
  }
  // Whether the rules find a secret in a decoded blob, asked by the encoded-JSON rule and by the
  // public-identifier check about the same blobs: made when first asked for, shared by both.
  let holdsSecret: ((decoded: string) => boolean) | undefined;
  if (!disabled?.includes('encoded-credentials')) {
    // A source map's `,`/`;`-parted VLQ segments are short base64 runs: one in tens of thousands
    // decodes to `name:value` by chance.
    const maps = sourceMappingRanges(text);
    for (const span of findEncodedCredentials(text)) {
      if (maps.length === 0 || !withinRanges(maps, span.start)) spans.push(span);
    }
    for (const span of findWrappedEncodedCredentials(text)) spans.push(span);
    // Base64 of JSON holding a credential once decoded, quoted or not.
    if (depth < maxEscapeDepth && mayHoldEncodedJson(text)) {
      holdsSecret ??= secretVerdicts(options, depth);
      for (const span of findEncodedJsonCredentials(text, holdsSecret)) spans.push(span);
    }
  }
  // A signed URL's signature authorises whoever holds the URL, whichever service signed it.
  if (!disabled?.includes('url-signature')) findUrlSignatures(text, spans);
  if (!disabled?.includes('netrc-password')) findNetrcPasswords(text, spans);
  if (options.keyValuePairs !== false) {
    for (const span of findKeyedSecrets(text)) {
      if (!disabled?.includes(span.kind)) spans.push(span);
    }
    // `db.password=ab\` / `    cd`: a pair split over lines by a continuation.
    if (text.includes('\\')) {
      for (const span of findContinuedKeyedSecrets(text)) {
        if (!disabled?.includes(span.kind)) spans.push(span);
      }
    }
    // `- name: DB_PASSWORD` / `value: …`: the name in a sibling field of the value.
    for (const span of findNamedValues(text)) {
      if (!disabled?.includes(span.kind)) spans.push(span);
    }
    // `set -gx NAME value`, `setenv NAME value`, `ENV NAME value`: a name and a value with no `=`.
    if (active[environmentGate] === 1) {
      for (const span of findEnvironmentAssignments(text)) {
        if (!disabled?.includes(span.kind)) spans.push(span);
      }
    }
  }
  // Last: where a named rule found the same span, its kind is the one reported.
  // The named spans are those found so far (the loop appends after them), indexed only when a
  // generated token's owner is asked about: two Maps per text redacted, almost never read.
  // A Discord token cut inside its HMAC (`….hmac,rest`): each half alone is a near-miss.
  if (!disabled?.includes('discord-token')) {
    for (const span of findCutLayoutTokens(text)) spans.push(span);
  }
  const namedCount = spans.length;
  let named: NamedSpans | undefined;
  for (const span of findGeneratedTokens(text)) {
    if (disabled?.includes(span.kind)) continue;
    // A documented segment layout whose own rule turned the value down: the issuer's format says
    // it is not one of its tokens, so its shape alone does not make it one.
    const owner = documentedFormatOwner(text, span.start, span.end);
    if (owner !== undefined && !disabled?.includes(owner)) {
      named ??= new NamedSpans(spans, namedCount);
      if (!named.overlaps(owner, span)) continue;
    }
    spans.push(span);
  }
  // An id that names something public (an AWS role's id, a wallet address, a Drive file in its
  // URL) is no credential, whichever rule took its shape for one; extra rules are the caller's.
  // Encoded JSON is content when the rules find nothing in it once decoded.
  // Only with a span to judge (most texts have none): the callbacks and what they read are made
  // here, in this block, and not for every text.
  if (spans.length > 0) {
    const source = text;
    const shallow = depth < maxEscapeDepth;
    holdsSecret ??= secretVerdicts(options, depth);
    const verdicts = holdsSecret;
    const holdsNoSecret = (decoded: string) => shallow && !verdicts(decoded);
    keepSpans(
      spans,
      (span) =>
        span.kind === 'private-key' ||
        !isPublicIdentifier(source, span.start, span.end, span.kind, holdsNoSecret),
    );
  }
  // Extra rules' hints are not in the scanner: check them directly.
  if (options.extraRules !== undefined && options.extraRules.length > 0) {
    // Lower-casing may change the length of a few characters (`İ`); only hint presence uses it.
    const lower = text.toLowerCase();
    for (const rule of options.extraRules) {
      if (rule.hints && !rule.hints.some((hint) => lower.includes(hint.toLowerCase()))) continue;
      runRule(rule, text, spans);
    }
  }
  // A JSON document held in a JSON string (a structured log's body, a service-account file in a
  // tool's JSON output) hides its keys behind `\"`: scan it once more as it reads unescaped, and
  // map what is found back onto the escaped text. Encoders that escape `/` as `\/` (PHP) split
  // every base64 value at its slashes, in objects of plain strings too; some escape any
  // character as `\\u00XX`.
  if (
    depth < maxEscapeDepth &&
    (text.includes('\\"') || text.includes('\\/') || text.includes('\\u00'))
  ) {
    pushUnescaped(text, options, depth, spans);
  }
  // A token or a JSON document as a query value, an HTML attribute or coloured terminal output is
  // split at `%2B`, `&#x3D;` or a style sequence: the runs between escapes are too short for a
  // rule, and keys hide behind `%22`. Scan it once more as it reads decoded. Not again inside that
  // view: `%2525…` would otherwise open a view per level on top of the JSON views.
  if (mayHoldEscapes(text, depth)) pushDecoded(text, options, depth, spans);
  return spans;
}

/**
 * Whether the rules find a secret in a decoded blob (a scan one view deeper), each blob scanned
 * once: the encoded-JSON rule and the public-identifier check of one text ask about the same ones.
 */
function secretVerdicts(
  options: RedactSecretsOptions,
  depth: number,
): (decoded: string) => boolean {
  let verdicts: Map<string, boolean> | undefined;
  return (decoded) => {
    verdicts ??= new Map();
    let verdict = verdicts.get(decoded);
    if (verdict === undefined) {
      verdict = collectSpans(decoded, options, depth + 1).length > 0;
      verdicts.set(decoded, verdict);
    }
    return verdict;
  };
}

/** True when `text` may read otherwise decoded (see `decodeTextEscapes`) and no view is open. */
function mayHoldEscapes(text: string, depth: number): boolean {
  return (
    depth < maxEscapeDepth &&
    !insideDecodedView &&
    (text.includes('%') || text.includes('&') || text.includes('\x1b'))
  );
}

let insideDecodedView = false;

/** Scans `text` as it reads decoded, mapping what is found back onto the encoded text. */
function pushDecoded(
  text: string,
  options: RedactSecretsOptions,
  depth: number,
  spans: Span[],
): void {
  const view = decodeTextEscapes(text);
  if (view === undefined) return;
  insideDecodedView = true;
  try {
    for (const span of collectSpans(view.text, options, depth + 1)) {
      spans.push({
        kind: span.kind,
        start: view.starts[span.start]!,
        end: view.ends[span.end - 1]!,
      });
    }
  } finally {
    insideDecodedView = false;
  }
}

// An escape whose last characters are letters or digits (`%22`, `%2F`, `\n`, `\t`, `\u0022`).
const gluingEscape = /%[0-9A-Fa-f]{2}|\\(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|[nrtbf])/g;
// The run after an escape: everything short of a blank, a quote, a bracket of markup or the next
// escape. Not a list of token characters: a format whose body holds one such a list lacks
// (Salesforce's `00D…!…`) was cut at it and lost to its rule, though found when not glued.
const tokenRun = /[^\s"'`\\%<>]{1,1000}/y;

/**
 * True when the escape at `at` breaks a block's line (base64 or hex wrapped at `\n`, 40+ token
 * characters right before it): the next line goes on with the block rather than starting a value.
 */
function wrapsBlock(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 92 || at < 40) return false;
  for (let index = at - 1; index >= at - 40; index--) {
    const code = text.charCodeAt(index);
    const tokenCharacter =
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 43 ||
      code === 47 ||
      code === 61;
    if (!tokenCharacter) return false;
  }
  return true;
}

/**
 * A token right after a URL or string escape (`?q=%22ghp_…`, `%2Fkeys%2FAKIA…`, `"…\nsk_live_…"`)
 * is glued to the escape's hex digits or letter, so every rule that wants the token to start at a
 * word boundary missed it. The run of token characters after each such escape is scanned once more
 * on its own, as it reads decoded (the escape a separator), and what is found is mapped back. The
 * runs are disjoint (a run stops at the next `%` or `\`), so this reads each character once more.
 */
function pushGluedAfterEscapes(
  text: string,
  options: RedactSecretsOptions,
  depth: number,
  spans: Span[],
): void {
  let runs = '';
  const offsets: number[] = [];
  const runStarts: number[] = [];
  gluingEscape.lastIndex = 0;
  for (let found = gluingEscape.exec(text); found; found = gluingEscape.exec(text)) {
    const from = found.index + found[0].length;
    tokenRun.lastIndex = from;
    const run = tokenRun.exec(text);
    if (!run) continue;
    gluingEscape.lastIndex = from + run[0].length;
    // Ten characters is the shortest token any rule takes alone.
    if (run[0].length < 10 || wrapsBlock(text, found.index)) continue;
    runStarts.push(runs.length);
    offsets.push(from);
    runs += `${run[0]}\n`;
  }
  if (offsets.length === 0) return;
  for (const span of collectSpans(runs, options, depth + 1)) {
    // The run holding the span: the last starting at or before it.
    let low = 0;
    let high = runStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (runStarts[middle]! <= span.start) low = middle;
      else high = middle - 1;
    }
    const runEnd = (runStarts[low + 1] ?? runs.length) - 1;
    if (span.end > runEnd) continue;
    const shift = offsets[low]! - runStarts[low]!;
    spans.push({ kind: span.kind, start: span.start + shift, end: span.end + shift });
  }
}

/** Scans `text` as it reads unescaped, mapping what is found back onto the escaped text. */
function pushUnescaped(
  text: string,
  options: RedactSecretsOptions,
  depth: number,
  spans: Span[],
): void {
  const view = unescapeJsonString(text);
  for (const span of collectSpans(view.text, options, depth + 1)) {
    spans.push({
      kind: span.kind,
      start: view.starts[span.start]!,
      end: view.ends[span.end - 1]!,
    });
  }
}

/**
 * The spans named rules found, by kind, for overlap questions: sorted once, each question a
 * binary search, so a text of thousands of near-miss tokens stays linear-logarithmic.
 */
class NamedSpans {
  private readonly byKind = new Map<string, { starts: number[]; reach: number[] }>();

  /** Indexes the first `count` of `spans`. */
  constructor(spans: readonly Span[], count: number) {
    const grouped = new Map<string, Span[]>();
    for (let at = 0; at < count; at++) {
      const span = spans[at]!;
      const list = grouped.get(span.kind) ?? [];
      grouped.set(span.kind, list);
      list.push(span);
    }
    for (const [kind, list] of grouped) {
      list.sort((a, b) => a.start - b.start);
      const reach: number[] = [];
      for (const span of list) reach.push(Math.max(span.end, reach.at(-1) ?? 0));
      this.byKind.set(kind, { starts: list.map((span) => span.start), reach });
    }
  }

  /** True when a span of `kind` overlaps `span`. */
  overlaps(kind: string, span: Span): boolean {
    const entry = this.byKind.get(kind);
    if (entry === undefined) return false;
    // The last span starting before `span` ends; the furthest any of them reaches.
    let low = 0;
    let high = entry.starts.length - 1;
    if (entry.starts[0]! >= span.end) return false;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (entry.starts[middle]! < span.end) low = middle;
      else high = middle - 1;
    }
    return entry.reach[low]! > span.start;
  }
}

const dataUri =
  /\bdata:[\w.+-]*(?:\/[\w.+-]*)?(?:;[\w.+-]+=[^;,\s]*)*;base64,[A-Za-z0-9+/]*={0,2}/gi;

/** Where the bytes of `data:…;base64,…` URIs stand: content, whatever shapes occur in them. */
function dataUriRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  if (!text.includes('base64,')) return ranges;
  dataUri.lastIndex = 0;
  for (let match = dataUri.exec(text); match; match = dataUri.exec(text)) {
    ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

// SOPS writes every encrypted value as `ENC[AES256_GCM,data:<ciphertext>,iv:…,tag:…,type:str]`.
const encryptedValue =
  /\bENC\[[A-Z0-9_]{1,32},data:[A-Za-z0-9+/=]*(?:,[a-z]{1,8}:[A-Za-z0-9+/=]*)*\]/g;

/** Where SOPS-encrypted values stand: ciphertext, IV and tag, whatever shapes occur in them. */
function encryptedValueRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  if (!text.includes('ENC[')) return ranges;
  encryptedValue.lastIndex = 0;
  for (let match = encryptedValue.exec(text); match; match = encryptedValue.exec(text)) {
    ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** True for the characters of a base64 run, standard or URL-safe: `A-Z a-z 0-9 + / = _ -`. */
function isBase64OrUrlSafe(code: number): boolean {
  return isBase64Character(code) || code === 95 || code === 45;
}

/**
 * Where a finding lies deep in a base64 run that is the value of a key naming it opaque
 * (`"signature": "…"`): from the 40th character after the opening quote to the run's end, so a
 * token standing at the start of such a value is still one. One pass over the text: looking back
 * from each finding to its quote cost quadratic time on many findings after one quote.
 */
function opaqueValueRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let quote = text.indexOf('"'); quote !== -1; ) {
    let end = quote + 1;
    while (end < text.length && isBase64OrUrlSafe(text.charCodeAt(end))) end++;
    if (
      quote >= 1 &&
      end - quote >= 40 &&
      keyDeclaresNotSecret(text.slice(Math.max(0, quote - 200), quote))
    ) {
      ranges.push([quote + 40, end]);
    }
    // A run holds no quote: the next one is at or after its end.
    quote = text.indexOf('"', end);
  }
  return ranges;
}

/** True when `position` lies in one of `ranges` (sorted, disjoint, both ends included). */
function withinRanges(ranges: ReadonlyArray<[number, number]>, position: number): boolean {
  return rangeHolding(ranges, position) !== -1;
}

/** The index of the range of `ranges` (sorted, disjoint, both ends included) holding `position`, or -1. */
function rangeHolding(ranges: ReadonlyArray<[number, number]>, position: number): number {
  let low = 0;
  let high = ranges.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (ranges[middle]![0] <= position) low = middle;
    else high = middle - 1;
  }
  const [start, end] = ranges[low]!;
  return position >= start && position <= end ? low : -1;
}

/** Keeps the spans `keep` accepts, in order, in the same array (one pass, not a splice each). */
function keepSpans(spans: Span[], keep: (span: Span) => boolean): void {
  let kept = 0;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    if (keep(span)) spans[kept++] = span;
  }
  spans.length = kept;
}

const simpleEscapes: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
};

/** Reads JSON string escapes (`\"`, `\n`, `\uXXXX`); any other backslash stays as written. */
function unescapeJsonString(text: string): DecodedView {
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  let output = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    let decoded = character;
    let length = 1;
    if (character === '\\' && index + 1 < text.length) {
      const next = text[index + 1]!;
      const simple = simpleEscapes[next];
      if (simple !== undefined) {
        decoded = simple;
        length = 2;
      } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) {
        decoded = String.fromCharCode(Number.parseInt(text.slice(index + 2, index + 6), 16));
        length = 6;
      }
    }
    starts[output.length] = index;
    ends[output.length] = index + length;
    output += decoded;
    index += length;
  }
  return {
    text: output,
    starts: starts.subarray(0, output.length),
    ends: ends.subarray(0, output.length),
  };
}
