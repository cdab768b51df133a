import { colonKeyBefore } from './colon-key-before.js';
import { isCutShortHeader, showsTaggedHeaderOnly } from './cut-short-header.js';
import { decodeBase64 } from './decode-base64.js';
import { findKeyValueMatch } from './find-key-value-match.js';
import {
  hasHexBody,
  isBase32Body,
  judgeSegment,
  looksGenerated,
  readsAsCamelName,
} from './generated-token-shape.js';
import { keyAtLineEnd } from './key-at-line-end.js';
import { pointsElsewhere } from './points-elsewhere.js';
import {
  characterClasses,
  ellipsisRun,
  humpsReadAsWords,
  isCodeReference,
  isLowVariety,
  isPlaceholder,
  isRepetitive,
  isTemplate,
  isUuid,
  looksLikeWords,
  looksRandom,
  matchesInOneCase,
  partsAreNames,
  readsAsWords,
  shannonEntropy,
  shownPieces,
  trailingEllipsis,
} from './secret-heuristics.js';

/**
 * One detection rule. `pattern` must be global; the named group `secret` (or the whole match) is the
 * span replaced. `accept` sees the candidate value and may veto it (placeholders, low entropy).
 */
export interface SecretRule {
  /** Short kebab-case label used in the replacement, e.g. `github-token`. */
  kind: string;
  pattern: RegExp;
  accept?: (value: string, match: RegExpExecArray) => boolean;
  /**
   * Literal strings of which at least one occurs in every match (compared case-insensitively). The
   * pattern only runs on text containing one: scanning 300 kB with 70 patterns is what makes
   * redaction slow.
   */
  hints?: readonly string[];
  /**
   * True when one of `hints` occurs in every match exactly as written (a case-sensitive pattern
   * that holds it as a literal): then the built-in scan checks case too, and `AC`, `SK` or `AP`
   * no longer pass in most texts. Default: false.
   */
  hintsMatchCase?: boolean;
}

const notPlaceholder = (value: string) => !isPlaceholder(value);

// Vendor bodies are vetoed only for unmistakable placeholders: `xxxx`, `****`, `...`, `<...>`,
// `your_`, `dummy`. Words like `example` stay allowed: vendors' own sample keys look real.
const vendorPlaceholderPattern =
  /x{6}x*|\*{3,}|\.{3}|<[^>]*>|your[_-]|placeholder|redacted|dummy|insert[_-]|replace[_-]?(?:me|with)|changeme/gi;
const vendorPlaceholder = {
  test: (value: string) => matchesInOneCase(vendorPlaceholderPattern, value),
};

/**
 * Whether a vendor match glued to a word by a dot (`prod.AKIA…`, `backup.ghp_….json`) is the token
 * rather than code or a file name. Member access and class selectors carry short or word-like
 * "prefixes" (`self.SK…`, `.sk-folding-…`, `build.v1.<hex>`, `t.dapi…`), so only a prefix of four or
 * more characters ending in a separator (`ghp_`, `glpat-`, `xoxb-`) or a capitals-and-digits token
 * in its fixed shape (`AKIA` + 16) is read through the dot; and a one-case hex body under a
 * mixed-case issuer alphabet, between a name and an extension, is a content hash in a file name
 * (`video_box.ico-<md5>.png`). An
 * ellipsis (`see ...ghp_…`) is not a dot of this kind.
 */
function acceptedAfterDot(
  input: string,
  at: number,
  value: string,
  hints: readonly string[] | undefined,
  mixedCaseBody: boolean,
  source: string,
): boolean {
  if (at === 0 || input.charCodeAt(at - 1) !== 46 || input.charCodeAt(at - 2) === 46) return true;
  const hint = hints?.find((candidate) => value.startsWith(candidate));
  if (hint === undefined) return false;
  // The fixed part the rule spells: its literal, up to two drawn characters (`sq[pau]_`, `s-s4t2(?:ud|af)-`) and the
  // separator that ends it.
  let fixed = /[_-]$/.test(hint)
    ? hint.length
    : hint.length + (/^[A-Za-z0-9]{0,2}[_-]/.exec(value.slice(hint.length))?.[0].length ?? 0);
  // Further parts the rule spells literally (`sk_` then `test_`, `sk-` then `proj-`).
  for (let part = /^([A-Za-z0-9]{3,})[_-]/.exec(value.slice(fixed)); part !== null; ) {
    if (!source.includes(part[1]!)) break;
    fixed += part[0].length;
    part = /^([A-Za-z0-9]{3,})[_-]/.exec(value.slice(fixed));
  }
  const separated = fixed > hint.length || /[_-]$/.test(hint);
  // A long literal (`ATATT3xFfGF0`, `GR1348941`) or one holding a separator (`ya29.`, `sk.eyJ`) is
  // no member name either.
  // So is a body of 64 or more drawn characters (Atlassian's `ATATT3` + 180).
  const distinctive =
    hint.length >= 8 ||
    (hint.length >= 5 && /[^A-Za-z0-9]/.test(hint)) ||
    value.length - hint.length >= 64;
  if (
    !(separated && fixed >= 4) &&
    !distinctive &&
    !(hint.length >= 3 && /^[A-Z0-9]{16}[A-Z0-9]*$/.test(value))
  ) {
    return false;
  }
  // Between a name and an extension, a one-case hex body is a bundler's content hash.
  const body = value.slice(hint.length);
  return !(
    mixedCaseBody &&
    /^\.[A-Za-z]/.test(input.slice(at + value.length, at + value.length + 2)) &&
    /[A-Fa-f]/.test(body) &&
    /^(?:[0-9A-F]{20}[0-9A-F]*|[0-9a-f]{20}[0-9a-f]*)$/.test(body)
  );
}

/**
 * A vendor token: a distinctive prefix then a body. `lenient` formats (fixed prefix and length,
 * like AWS key ids) accept repetitive bodies; the others also need some entropy.
 */
function vendor(
  kind: string,
  pattern: RegExp,
  minBodyEntropy = 2.5,
  lenient = false,
  hints: string[] | undefined = alternationHints[kind] ?? literalPrefix(pattern),
): SecretRule {
  // Whether the token's own characters (not the boundaries around it) are drawn from both cases.
  const mixedCaseBody =
    !pattern.flags.includes('i') &&
    pattern.source.replace(/\(\?<?[!=](?:[^()]|\([^()]*\))*\)/g, '').includes('A-Za-z');
  return {
    kind,
    pattern,
    hints,
    hintsMatchCase: !pattern.flags.includes('i'),
    accept: (value, match) => {
      const at = match.index + match[0].indexOf(value);
      if (!acceptedAfterDot(match.input, at, value, hints, mixedCaseBody, pattern.source)) {
        return false;
      }
      // Lenient formats keep lower-case `x` bodies (scanners' own samples) but not `XXXX` or EXAMPLE.
      if (lenient) return !/X{8}X*|EXAMPLE|\*{3}|<[^>]*>/.test(value);
      // A body that may hold `.` runs on into an ellipsis after the token (`…<token>... and`,
      // `<token>...next`): the ellipsis is the sentence's, not a placeholder's `...` inside the
      // body, and no issuer's format holds one, so the token is judged on what comes before it.
      const ellipsisAt = value.indexOf('...');
      const whole = ellipsisAt < 0 ? value : value.slice(0, ellipsisAt);
      // Shown cut short with a self-describing header alone in view (`ops_eyJzaWdu…...`), as the
      // documented-prefix and generic layers judge it: no secret character is in view.
      const start = match.index + match[0].indexOf(value);
      if (isCutShortHeader(match.input, start, start + whole.length)) return false;
      if (vendorPlaceholder.test(whole)) return false;
      // A hex digest (a key fingerprint, a checksum) is written in one case; a prefix spelled in
      // hex letters (`EAAA`, `EAA`) starts one digest in 2^16. A body the issuer draws from both
      // cases is all one-case hex about once in 4^20, so such a run is a digest, not its token.
      if (
        mixedCaseBody &&
        /[A-Fa-f]/.test(whole) &&
        /^(?:[0-9A-F]{20}[0-9A-F]*|[0-9a-f]{20}[0-9a-f]*)$/.test(whole)
      )
        return false;
      const body = whole.replace(/^[A-Za-z0-9]{2,12}?[_.-]/, '');
      // A body drawn from letters and digits is all digits about once in 10^15 at 20 characters
      // (hex: once in 3 million at 32): after an issuer's prefix, a run of digits is a number.
      if (/^\d{20}\d*$/.test(body)) return false;
      return shannonEntropy(body) >= minBodyEntropy && !isRepetitive(body);
    },
  };
}

// Hints of vendor patterns that start with an alternation or a class rather than a literal.
const alternationHints: Record<string, string[]> = {
  'gitlab-token': ['gl', 'GR1348941'],
  'aws-access-key-id': ['A3T', 'AKIA', 'ASIA', 'ABIA', 'ACCA'],
  'stripe-key': ['sk_', 'rk_'],
  'grafana-token': ['glc_', 'glsa_'],
  'sentry-token': ['sntry'],
  'square-token': ['EAAA', 'sq0'],
  'mailchimp-key': ['-us'],
  'digitalocean-token': ['doo_v1_', 'dop_v1_', 'dor_v1_'],
  'telegram-token': [':A'],
  'azure-client-secret': ['Q~'],
  'aws-bedrock-key': ['ABSK', 'bedrock-api-key-'],
  'artifactory-key': ['AKC', 'AP'],
  // The fixed signature inside the token: without it the rule ran at every position of every text.
  'azure-devops-pat': ['JQQJ99'],
  'flyio-token': ['fm1', 'fm2', 'fo1_'],
  'github-token': ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'v1.'],
  'yandex-key': ['AQVN', 'YC', 't1.'],
};

/**
 * The literal characters a pattern starts with (after the boundary look-behinds), as a hint. Both
 * look-behinds of `start` are skipped: with only the first stripped, ~80 vendor rules had no hint
 * and ran (a look-behind tried at every position) on every text.
 */
function literalPrefix(pattern: RegExp): string[] | undefined {
  const source = pattern.source.replace(
    /^(?:\(\?<!\[[^\]]*\]-?\)|\(\?<!\(\?<!\\\.\\\.\)\\\.\))+/,
    '',
  );
  const literal = /^(?:[A-Za-z0-9_~-]|\\\.)+/.exec(source)?.[0]?.replace(/\\\./g, '.');
  return literal && literal.length >= 2 ? [literal] : undefined;
}

// Boundaries: a token must not continue an identifier or a path on either side.
// A `/` before a token is allowed: tokens stand in paths and URL paths (`/keys/ghp_…/rotate`,
// `https://ghp_…`); the fixed prefixes and lengths keep base64 runs from matching. A `-` before
// a token is allowed only when it does not join two words (`--AKIA…=1`, ` -ghp_…`), so a token
// pasted as a command-line flag is still found while `name-AKIA…` stays one identifier.
// A `.` before a token is allowed: an ellipsis (`see ...ghp_…`), and a token glued to a word by a
// dot (`prod.AKIA…`), which each vendor rule then weighs against member access (`acceptedAfterDot`).
const start = '(?<![A-Za-z0-9_+])(?<![A-Za-z0-9_+.]-)';
const end = String.raw`(?![A-Za-z0-9_\-])`;
const re = (source: string, flags = 'g') => new RegExp(source, flags);
// The same left boundary checked after the literal: a pattern that starts with a literal lets the
// regex engine skip ahead, one that starts with a look-behind is tried at every position.
const literalFirst = (literal: string) =>
  `${literal}(?<![A-Za-z0-9_+]${literal})(?<![A-Za-z0-9_+.]-${literal})`;

/** A vendor rule run on every text: its pattern starts with a class (`[MNO]`), no literal to hint. */
function unhinted(kind: string, pattern: RegExp, minBodyEntropy?: number): SecretRule {
  const { hints: _hints, ...rule } = vendor(kind, pattern, minBodyEntropy);
  return rule;
}

/** A vendor rule whose pattern does not start with a literal: its hints are given. */
function withHints(
  hints: string[],
  kind: string,
  pattern: RegExp,
  minBodyEntropy?: number,
): SecretRule {
  return vendor(kind, pattern, minBodyEntropy, false, hints);
}

const openaiAccept = vendor('openai-key', /sk-/g, 3.5).accept!;

// Whether a text holds a SAS field beside `sig=` is asked once per text, not once per `sig=`: a
// text of many `&sig=` runs asked it again for each, a scan of the whole text every time.
let sasText: string | undefined;
let sasTextHasFields = false;
function hasSasFields(text: string): boolean {
  if (text !== sasText) {
    sasText = text;
    sasTextHasFields = /[?&;](?:sv|se|sp|sr|st|spr|ss|srt)=/.test(text);
  }
  return sasTextHasFields;
}

/** Vendor tokens with a recognisable prefix or shape; order does not matter (overlaps merge). */
export const vendorRules: SecretRule[] = [
  vendor(
    'anthropic-key',
    re(`${start}sk-ant-(?:api|admin|oat|sid)\\d{2}-[A-Za-z0-9_-]{80}[A-Za-z0-9_-]*AA${end}`),
  ),
  {
    ...vendor(
      'openai-key',
      re(
        `${start}sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{32}[A-Za-z0-9_-]*${end}`,
      ),
      3.5,
    ),
    // Keys carrying the `T3BlbkFJ` marker (base64 of "OpenAI") carry it intact; a mangled
    // marker (`T4BlbkFJ`) is a scanner's deliberate near-miss.
    accept: (value, match) =>
      openaiAccept(value, match) && !(/BlbkFJ/.test(value) && !value.includes('T3BlbkFJ')),
  },
  vendor('github-token', re(`${start}(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}${end}`)),
  vendor('github-token', re(`${start}github_pat_[A-Za-z0-9_]{50,255}${end}`)),
  vendor('github-token', re(`${start}v1\\.[0-9a-f]{40}${end}`)),
  vendor(
    'gitlab-token',
    re(
      `${start}(?:glpat|gldt|glrt|glcbt|glimt|glft|glsoat|glagent|glffct|glwt)-[A-Za-z0-9_-]{20,50}(?:\\.[A-Za-z0-9_-]{2,})*${end}`,
    ),
    3,
  ),
  // Formats GitLab fixes exactly: pipeline trigger tokens are 40 hex, OAuth secrets 64 characters.
  vendor('gitlab-token', re(`${start}glptt-[0-9a-f]{40}${end}`), 3),
  vendor('gitlab-token', re(`${start}gloas-[A-Za-z0-9_-]{64}${end}`), 3),
  vendor('gitlab-token', re(`${start}GR1348941[A-Za-z0-9_-]{20,50}${end}`), 3),
  {
    kind: 'slack-token',
    pattern: re(`${start}(?:xox[a-z](?:\\.xox[a-z])?|xapp)-[A-Za-z0-9-]{8}[A-Za-z0-9-]*${end}`),
    hints: ['xox', 'xapp'],
    accept: (value) => {
      const digits = value.replace(/\D/g, '').length;
      // A reduce, not `Math.max(...)`: a run of 150k dash groups would overflow the stack.
      const longest = value.split('-').reduce((most, segment) => Math.max(most, segment.length), 0);
      if (vendorPlaceholder.test(value)) return false;
      return (digits >= 10 && longest >= 8) || longest >= 30;
    },
  },
  {
    kind: 'slack-webhook',
    hints: ['hooks.slack.com'],
    pattern:
      /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20}[A-Za-z0-9+/_-]*/g,
  },
  vendor(
    'aws-access-key-id',
    re(`${start}(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}${end}`),
    0,
    true,
  ),
  vendor('aws-bedrock-key', re(`${start}ABSK[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,2}`)),
  vendor('aws-bedrock-key', re(`${start}bedrock-api-key-[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,2}`)),
  vendor('google-api-key', re(`${start}AIza[0-9A-Za-z_-]{35}${end}`), 3),
  vendor('google-oauth-token', re(`${start}ya29\\.[0-9A-Za-z_-]{30}[0-9A-Za-z_-]*${end}`), 3),
  vendor(
    'stripe-key',
    re(`${start}(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{16}[A-Za-z0-9]*${end}`),
    3,
  ),
  vendor('twilio-key', re(`${start}SK[0-9a-fA-F]{32}${end}`), 3),
  vendor('sendgrid-key', re('SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}'), 3),
  {
    kind: 'huggingface-token',
    pattern: re(`${start}(?:hf_|api_org_)[A-Za-z]{34}${end}`),
    hints: ['hf_', 'api_org_'],
    accept: (value) =>
      /[A-Z]/.test(value.slice(3)) &&
      /[a-z]/.test(value.slice(3)) &&
      notPlaceholder(value.slice(3)),
  },
  vendor('npm-token', re(`${start}npm_[A-Za-z0-9]{36}${end}`), 3),
  vendor('pypi-token', re(`${start}pypi-AgE[A-Za-z0-9_-]{50}[A-Za-z0-9_-]*`), 3),
  vendor('shopify-token', re(`${start}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${end}`), 3),
  vendor('vault-token', re(`${start}hv[sbr]\\.[A-Za-z0-9_-]{24}[A-Za-z0-9_-]*${end}`), 3),
  {
    // Vault's legacy service (`s.`) and batch (`b.`) tokens: 24 characters mixing cases and digits.
    kind: 'vault-token',
    hints: ['s.', 'b.'],
    // After a dash (`-s.<24>`, `--s.<24>=1`) the body still decides: 24 characters mixing both
    // cases that do not read as a name are no flag's value.
    pattern: re(`(?<![A-Za-z0-9_+.$])[sb]\\.(?<secret>[A-Za-z0-9]{24})(?![A-Za-z0-9_\\-(])`),
    // One random body in 70 has no digit, so digits are not required; a body without one must not
    // read as a name (`s.createElementNSOptions`). No entropy floor: it fails random bodies that
    // repeat characters.
    accept: (value) =>
      /[A-Z]/.test(value) && /[a-z]/.test(value) && !isRepetitive(value) && !readsAsWords(value),
  },
  vendor('databricks-token', re(`${start}dapi[a-fA-F0-9]{32}(?:-\\d)?${end}`), 3),
  vendor('groq-key', re(`${start}gsk_[A-Za-z0-9]{52}${end}`), 3),
  vendor('xai-key', re(`${start}xai-[A-Za-z0-9]{80}${end}`), 3),
  vendor('perplexity-key', re(`${start}pplx-[A-Za-z0-9]{48}${end}`), 3),
  vendor('docker-token', re(`${start}dckr_(?:pat|oat)_[A-Za-z0-9_-]{27}[A-Za-z0-9_-]*${end}`), 3),
  vendor(
    'grafana-token',
    re(`${start}(?:glc_[A-Za-z0-9+/]{32}[A-Za-z0-9+/]*={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`),
    3,
  ),
  vendor(
    'sentry-token',
    re(`${start}(?:sntrys_eyJ[A-Za-z0-9+/=_-]{20}[A-Za-z0-9+/=_-]*|sntryu_[a-f0-9]{64})`),
    3,
  ),
  vendor('onepassword-token', re(`${start}ops_eyJ[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,3}`), 4),
  vendor(
    'onepassword-secret-key',
    re(
      `${start}A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${end}`,
    ),
    3,
  ),
  vendor('notion-token', re(`${start}ntn_[0-9]{11}[A-Za-z0-9]{35}${end}`), 3),
  vendor('readme-token', re(`${start}rdme_[a-z0-9]{70}${end}`), 3),
  vendor('postman-key', re(`${start}PMAK-[a-f0-9]{24}-[a-f0-9]{34}${end}`), 3),
  vendor('pulumi-token', re(`${start}pul-[a-f0-9]{40}${end}`), 3),
  vendor(
    'tailscale-key',
    re('tskey-[a-z]+-[A-Za-z0-9]{6}[A-Za-z0-9]*-[A-Za-z0-9]{16}[A-Za-z0-9]*'),
    0,
    true,
  ),
  // Personal, API-key, integration, app-access and app-refresh tokens.
  vendor('vercel-token', re(`${start}vc[pkiar]_[A-Za-z0-9]{24}[A-Za-z0-9]*${end}`), 3),
  // Resend API keys: `re_`, an 8-character id, `_` and 24 characters.
  vendor('resend-key', re(`${start}re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}${end}`), 3),
  // NuGet.org API keys: `oy2` and 43 lower-case letters and digits.
  vendor('nuget-api-key', re(`${start}oy2[a-z0-9]{43}${end}`), 3),
  // Google OAuth refresh tokens: `1//0` and about 100 base64url characters.
  withHints(
    ['1//'],
    'google-oauth-refresh-token',
    re(`${start}1//0[A-Za-z0-9_-]{40}[A-Za-z0-9_-]*${end}`),
    3,
  ),
  // 40 random characters and an 8-character checksum: a longer run is not this format.
  vendor('cloudflare-token', re(`${start}cf[au]t_[A-Za-z0-9]{40,48}${end}`), 3),
  vendor('figma-token', re(`${start}figd_[A-Za-z0-9_-]{40}[A-Za-z0-9_-]*${end}`), 3),
  vendor('linear-key', re(`${start}lin_(?:api|oauth)_[A-Za-z0-9]{40,64}${end}`), 3),
  // Further prefixes documented by their vendors (lengths as issued).
  vendor('atlassian-token', re(`${start}ATATT3[A-Za-z0-9_=-]{100}[A-Za-z0-9_=-]*${end}`), 3),
  vendor('atlassian-token', re(`${start}ATCTT3[A-Za-z0-9_=-]{100}[A-Za-z0-9_=-]*${end}`), 3),
  vendor('bitbucket-app-password', re(`${start}ATBB[A-Za-z0-9]{32}${end}`), 3),
  vendor('buildkite-token', re(`${start}bku[ac]_[a-f0-9]{40}${end}`), 3),
  vendor('circleci-token', re(`${start}CCIP[AR]T_[A-Za-z0-9]{22}_[a-f0-9]{40}${end}`), 3),
  vendor('netlify-token', re(`${start}nf[pcu]_[A-Za-z0-9]{36,40}${end}`), 3),
  vendor('supabase-token', re(`${start}sbp_(?:oauth_)?[a-f0-9]{40}${end}`), 3),
  vendor('supabase-token', re(`${start}sb_secret_[A-Za-z0-9_-]{30}[A-Za-z0-9_-]*${end}`), 3),
  vendor('replicate-token', re(`${start}r8_[A-Za-z0-9]{37}${end}`), 3),
  vendor('google-oauth-secret', re(`${start}GOCSPX-[A-Za-z0-9_-]{28}${end}`), 3),
  vendor('stripe-webhook-secret', re(`${start}whsec_[A-Za-z0-9+/=]{32}[A-Za-z0-9+/=]*${end}`), 3),
  vendor(
    'mapbox-secret-token',
    re(`${start}sk\\.eyJ[A-Za-z0-9_-]{50}[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*${end}`),
    3,
  ),
  vendor('contentful-token', re(`${start}CFPAT-[A-Za-z0-9_-]{43}${end}`), 3),
  vendor('airtable-token', re(`${start}pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}${end}`), 3),
  vendor('langsmith-key', re(`${start}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}${end}`), 3),
  vendor('pinecone-key', re(`${start}pcsk_[A-Za-z0-9]{5,8}_[A-Za-z0-9]{40,70}${end}`), 3),
  vendor('tavily-key', re(`${start}tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}${end}`), 3),
  vendor(
    'hubspot-token',
    re(
      `${start}pat-(?:na|eu|ap)\\d-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}${end}`,
    ),
    3,
  ),
  vendor(
    'salesforce-token',
    re(`${start}00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{80}[A-Za-z0-9._]*`),
    3,
  ),
  vendor(
    'yandex-key',
    re(
      `${start}(?:AQVN[A-Za-z0-9_-]{35,38}|YC[A-Za-z0-9_-]{38}|t1\\.[A-Z0-9a-z_-]+[=]{0,2}\\.[A-Z0-9a-z_-]{86}[=]{0,2})${end}`,
    ),
    3,
  ),
  vendor(
    'azure-devops-pat',
    re(`${start}[A-Za-z0-9]{52}JQQJ99[A-Za-z0-9]{2}AZDO[A-Za-z0-9]{4}${end}`),
    3,
  ),
  vendor('firecrawl-key', re(`${start}fc-[a-f0-9]{32}${end}`), 3),
  vendor('deno-token', re(`${start}dd[pw]_[A-Za-z0-9]{36}${end}`), 3),
  vendor('fastly-token', re(`${start}fst_[A-Za-z0-9_-]{32}${end}`), 3),
  vendor('render-key', re(`${start}rnd_[A-Za-z0-9]{32}${end}`), 3),
  vendor('openrouter-key', re(`${start}sk-or-v1-[a-f0-9]{64}${end}`), 3),
  vendor('gitea-token', re(`${start}gta_[A-Za-z0-9]{40}${end}`), 0),
  {
    kind: 'discord-webhook',
    hints: ['/api/webhooks/'],
    pattern:
      /https?:\/\/(?:[a-z]+\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/(?<secret>[A-Za-z0-9_-]{60}[A-Za-z0-9_-]*)/g,
  },
  {
    // Azure shared access signatures: `sig=` beside `sv=`/`se=`/`sp=` in a URL or connection string.
    kind: 'azure-sas-signature',
    hints: ['sig='],
    pattern: /[?&;]sig=(?<secret>[A-Za-z0-9%+/=]{20}[A-Za-z0-9%+/=]*)/g,
    accept: (value, match) => hasSasFields(match.input) && !isPlaceholder(value),
  },
  {
    // A service-account JSON's `private_key_id` names the key; scanners report it with the key.
    kind: 'gcp-private-key-id',
    hints: ['private_key_id'],
    pattern: /["']?private_key_id["']?\s*[:=]\s*["']?(?<secret>[a-f0-9]{40})(?![a-f0-9])/g,
  },
  {
    // PuTTY key files: the private half follows `Private-Lines:`.
    kind: 'private-key',
    hints: ['Private-Lines'],
    pattern: /Private-Lines:\s*\d+\s*\r?\n(?<secret>(?:[A-Za-z0-9+/=]{16}[A-Za-z0-9+/=]*\r?\n?)+)/g,
  },
  vendor(
    'doppler-token',
    re(`${start}dp\\.(?:pt|st|ct|scim|audit|sa)\\.[A-Za-z0-9]{40}[A-Za-z0-9]*${end}`),
    3,
  ),
  vendor('digitalocean-token', re(`${start}do[opr]_v1_[a-f0-9]{64}${end}`), 3),
  vendor(
    'planetscale-token',
    re(`${start}pscale_(?:tkn|oauth|pw)_[A-Za-z0-9=._-]{32,64}${end}`),
    3,
  ),
  vendor('rubygems-key', re(`${start}rubygems_[a-f0-9]{48}${end}`), 3),
  vendor(
    'flyio-token',
    re(`${start}(?:FlyV1 )?fm[12][ar]?_[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,3}`),
    3,
  ),
  vendor('square-token', re(`${start}(?:EAAA|sq0atp-|sq0csp-)[A-Za-z0-9_-]{22,60}${end}`), 3),
  // User, page and app tokens all start `EAA` and a letter naming the app's token kind.
  vendor('facebook-token', re(`${start}EAA[A-Z][A-Za-z0-9]{90}[A-Za-z0-9]*${end}`), 3),
  vendor('artifactory-key', re(`${start}AKCp[A-Za-z0-9]{69}${end}`), 3),
  vendor('artifactory-token', re(`${start}cmVmd[A-Za-z0-9]{59}${end}`), 3),
  vendor('mailchimp-key', re(`${start}[0-9a-f]{32}-us[0-9]{1,2}${end}`), 3),
  vendor(
    'age-secret-key',
    re(`${start}AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}${end}`),
    3,
  ),
  vendor('openshift-token', re(`${start}sha256~[A-Za-z0-9_-]{43}${end}`), 3),
  unhinted(
    'discord-token',
    // The first segment is the base64 of a numeric user id (`M`, `N`, `O` first); a glued
    // character or two before it (copy-paste debris) does not make it any less a token.
    re(
      `[MNO](?<![A-Za-z0-9_\\-+/.]{3}[MNO])[A-Za-z\\d_-]{23,25}\\.[A-Za-z\\d_-]{6}\\.[A-Za-z\\d_-]{27,38}${end}`,
    ),
    3,
  ),
  // `https://api.telegram.org/bot123456789:AA…/getMe`: the `bot` glued before the id is the URL's.
  // gitleaks documents the bot id as 5-16 digits and the secret as `A` and 34 more characters.
  vendor('telegram-token', re(`(?:(?<=/bot)|${start})\\d{5,16}:A[A-Za-z0-9_-]{34}${end}`), 3),
  vendor(
    'azure-client-secret',
    re(`${start}[A-Za-z0-9_.-]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}${end}`),
    3,
  ),
  vendor('github-token', re(`${start}ghs_\\d+_eyJ[A-Za-z0-9_.-]{20}[A-Za-z0-9_.-]*`), 3),
  vendor(
    'flutterwave-key',
    re(`${start}FLW(?:SECK|PUBK|ENCK)(?:_TEST)?-[a-hA-H0-9]{12,32}(?:-X)?`),
    3,
  ),
  vendor('adobe-client-secret', re(`${start}p8e-[A-Za-z0-9]{32}${end}`), 3),
  vendor('easypost-token', re(`${start}EZ[AT]K[A-Za-z0-9]{54}${end}`), 3),
  vendor('flyio-token', re(`${start}fo1_[A-Za-z0-9_-]{43}${end}`), 3),
  vendor('heroku-key', re(`${start}HRKU-AA[A-Za-z0-9_-]{58}${end}`), 3),
  vendor('infracost-token', re(`${start}ico-[A-Za-z0-9]{32}${end}`), 3),
  vendor('intra42-secret', re(`${start}s-s4t2(?:ud|af)-[a-f0-9]{64}${end}`), 3),
  vendor('sonar-token', re(`${start}sq[pau]_[A-Za-z0-9]{40}${end}`), 3),
  // Access tokens: `sgp_<40 hex>`, or with the instance id (`sgp_<16 hex>_…`, `sgp_local_…`) since 5.3.
  vendor(
    'sourcegraph-token',
    re(`${start}sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}${end}`),
    3,
  ),
  {
    // SoftLayer (IBM Cloud classic) API URLs carry the 64-hex API key as a path segment.
    kind: 'softlayer-key',
    hints: ['softlayer.com'],
    pattern:
      /https?:\/\/api\.softlayer\.com\/(?:soap|rest)\/v3(?:\.1)?\/(?<secret>[a-z0-9]{64})(?![a-z0-9])/gi,
  },
  vendor(
    'teams-webhook',
    re('https://[a-z0-9-]+\\.webhook\\.office\\.com/webhookb2/[^\\s"\'<>]{40}[^\\s"\'<>]*'),
    3,
  ),
  // Further documented prefixes (vendors' token formats), so a token is found with no key name.
  vendor('alibaba-access-key-id', re(`${start}LTAI[A-Za-z0-9]{20}${end}`), 3),
  vendor('cloudflare-origin-ca-key', re(`${start}v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}${end}`), 3),
  vendor('dynatrace-token', re(`${start}dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}${end}`), 3),
  vendor('duffel-token', re(`${start}duffel_(?:test|live)_[A-Za-z0-9_=-]{43}${end}`), 3),
  vendor('frameio-token', re(`${start}fio-u-[A-Za-z0-9_=-]{64}${end}`), 3),
  // Its own hint: the kind's shared hints (`glc_`, `glsa_`) never occur in these keys.
  withHints(['eyJrIjoi'], 'grafana-token', re(`${start}eyJrIjoi[A-Za-z0-9]{70,400}={0,3}`), 3),
  withHints(
    ['atlasv1'],
    'terraform-token',
    re(`${start}[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}${end}`),
    3,
  ),
  withHints(
    ['NRAK-', 'NRII-', 'NRJS-'],
    'newrelic-key',
    re(`${start}(?:NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9-]{32}|NRJS-[a-f0-9]{19})${end}`),
    // 19 hex digits hold little entropy by letter count (a uniform draw falls below 2.5 bits about
    // once in 14,000); the fixed prefix and length carry it, the gate only turns typed fillers down.
    2,
  ),
  withHints(
    ['access-'],
    'plaid-token',
    re(
      `${literalFirst('access-')}(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${end}`,
    ),
    3,
  ),
  vendor('prefect-token', re(`${start}pnu_[A-Za-z0-9]{36}${end}`), 3),
  vendor('scalingo-token', re(`${start}tk-us-[A-Za-z0-9_-]{48}${end}`), 3),
  vendor('brevo-key', re(`${start}xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}${end}`), 3),
  vendor('settlemint-token', re(`${start}sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}${end}`), 3),
  vendor('shippo-token', re(`${start}shippo_(?:live|test)_[a-fA-F0-9]{40}${end}`), 3),
  vendor('typeform-token', re(`${start}tfp_[A-Za-z0-9_.=-]{59}${end}`), 3),
  vendor(
    'defined-networking-token',
    re(`${start}dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}${end}`),
    3,
  ),
  withHints(
    ['pat.', 'sat.'],
    'harness-token',
    re(`${start}(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[0-9a-f]{24}\\.[A-Za-z0-9]{20}${end}`),
    3,
  ),
  withHints(['_mmk'], 'maxmind-key', re(`${start}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk${end}`), 3),
  withHints(['key-'], 'mailgun-key', re(`${literalFirst('key-')}[a-f0-9]{32}${end}`), 3),
  withHints(['API-'], 'octopus-key', re(`${literalFirst('API-')}[A-Z0-9]{26}${end}`), 3),
  vendor('clojars-token', re(`${start}CLOJARS_[A-Za-z0-9]{60}${end}`), 3),
  withHints(
    ['sl.'],
    'dropbox-token',
    re(`${literalFirst('sl\\.')}[A-Za-z0-9_=-]{130,140}${end}`),
    3,
  ),
  withHints(['AC'], 'twilio-account-sid', re(`${literalFirst('AC')}[a-f0-9]{32}${end}`), 3),
  withHints(
    ['A'.repeat(22)],
    'twitter-bearer-token',
    re(`${start}A{22}[A-Za-z0-9%]{80,100}${end}`),
    3,
  ),
  {
    kind: 'azure-storage-key',
    hints: ['AccountKey', 'SharedAccessKey'],
    // Azure connection strings: `AccountKey=<base64>;`, `SharedAccessKey=<base64>`.
    pattern:
      /(?:AccountKey|SharedAccessKey)\s*=\s*(?<secret>[A-Za-z0-9+/]{20}[A-Za-z0-9+/]*={0,2})/g,
    accept: (value) => !isPlaceholder(value) && shannonEntropy(value) >= 3.5,
  },
  {
    kind: 'hex-private-key',
    hints: ['0x'],
    // `0x` and exactly 64 hex digits is how secp256k1 (Ethereum, Bitcoin) private keys are
    // written. Transaction and block hashes share the shape but come labelled (`txHash:`,
    // `blockHash`, `root`), so a hash word just before the value keeps it.
    pattern: /0x(?<![A-Za-z0-9]0x)(?<secret>[0-9a-fA-F]{64})(?![0-9a-fA-F])/g,
    accept: (value, match) => {
      const before = match.input.slice(Math.max(0, match.index - 60), match.index);
      const line = before.slice(before.lastIndexOf('\n') + 1);
      return (
        !/hash|tx|block|root|digest|slot|topic|commit|sha|keccak|signature|address|\bid\b/i.test(
          line,
        ) &&
        !isRepetitive(value) &&
        shannonEntropy(value) >= 3
      );
    },
  },
  // JFrog Artifactory: API keys start `AKC`, encrypted passwords `AP` + a hex digit.
  vendor(
    'artifactory-key',
    /(?<=^|[\s=:"'])(?:AKC[A-Za-z0-9]{10}[A-Za-z0-9]*|AP[0-9A-F][A-Za-z0-9]{8}[A-Za-z0-9]*)(?![A-Za-z0-9])/g,
    0,
    true,
  ),
  {
    kind: 'jwt',
    hints: ['eyJ'],
    pattern: re(
      `${start}eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\\.eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*(?:\\.[A-Za-z0-9_-]*)?`,
    ),
  },
  {
    kind: 'private-key',
    hints: ['PRIVATE KEY'],
    pattern:
      /-{3,5} ?BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)? ?-{3,5}[\s\S]*?(?:-{3,5} ?END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)? ?-{3,5}|(?=["'`]\s*[,}\]])|$)/g,
    accept: (value) => {
      const body = value
        .replace(/-{3,5} ?(?:BEGIN|END)[^-]*-{3,5}/g, '')
        .replace(/\\n|\\r/g, '')
        .replace(/^[A-Za-z-]+:.*$/gm, '');
      const base64 = body.replace(/[^A-Za-z0-9+/=]/g, '');
      // An OpenSSH key opens with the base64 of `openssh-key-v1` and readable cipher and key-type
      // names: key material even when the paste stops inside that header.
      if (base64.length >= 32 && base64.startsWith(opensshMagic)) return true;
      return (
        // A truncated key (a pasted fragment) still leaks part of the key: 32 characters suffice.
        base64.length >= 32 &&
        !isPlaceholder(base64.slice(0, 64)) &&
        shannonEntropy(base64) > 4 &&
        !decodesToPrintable(base64)
      );
    },
  },
];

const opensshMagic = 'b3BlbnNzaC1rZXktdjE';
const pemEndLine = /-{3,5} ?END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)? ?-{3,5}/g;
// How far back from an END line the body is read: a 16,384-bit RSA key is ~12,000 characters.
const pemBodyReach = 16_000;

/**
 * Private-key bodies whose BEGIN line was cut off (a clipped tool output, `tail` of a log): the
 * base64 lines standing right before an `-----END … PRIVATE KEY-----` line, with real or escaped
 * (`\n` inside a JSON string) line breaks. The first, partial line may follow other text on its line.
 */
export function findHeadlessPrivateKeys(text: string): KeyedMatch[] {
  const found: KeyedMatch[] = [];
  if (!text.includes('PRIVATE KEY')) return found;
  pemEndLine.lastIndex = 0;
  for (let match = pemEndLine.exec(text); match; match = pemEndLine.exec(text)) {
    const floor = Math.max(0, match.index - pemBodyReach);
    let cursor = match.index;
    let start = cursor;
    let base64 = '';
    for (;;) {
      // Step over one line break, real or escaped, before the line that ends at `cursor`.
      const breakLength = lineBreakBefore(text, cursor);
      if (breakLength === 0) break;
      const lineEnd = cursor - breakLength;
      let lineStart = lineEnd;
      while (
        lineStart > floor &&
        isBase64Character(text.charCodeAt(lineStart - 1)) &&
        !(text[lineStart - 2] === '\\' && /[nr]/.test(text[lineStart - 1]!))
      ) {
        lineStart--;
      }
      const line = text.slice(lineStart, lineEnd);
      if (line.length < 16) break;
      base64 = line + base64;
      start = lineStart;
      cursor = lineStart;
      // A line with other text before its base64 run is where the cut fell: the run is the last piece.
      if (lineBreakBefore(text, cursor) === 0) break;
    }
    if (start === match.index) continue;
    if (
      base64.length >= 32 &&
      shannonEntropy(base64) > 4 &&
      !isPlaceholder(base64.slice(0, 64)) &&
      !decodesToPrintable(base64)
    ) {
      found.push({ kind: 'private-key', start, end: match.index + match[0].length });
    }
  }
  return found;
}

/** True for the characters of standard base64 with its padding: `A-Z a-z 0-9 + / =`. */
export function isBase64Character(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 43 ||
    code === 47 ||
    code === 61
  );
}

/** Length of the line break ending just before `index`: `\n`, `\r\n`, escaped `\\n`/`\\r\\n`, or 0. */
function lineBreakBefore(text: string, index: number): number {
  if (text[index - 1] === '\n') return text[index - 2] === '\r' ? 2 : 1;
  if (text[index - 1] === 'n' && text[index - 2] === '\\') {
    return text[index - 3] === 'r' && text[index - 4] === '\\' ? 4 : 2;
  }
  return 0;
}

// Key names are split into lower-case segments (`dbPassword` -> db, password). A `strong` segment
// (password, secret, ...) marks any literal as a secret, whatever its length; a `weak` one (token,
// key, auth, ...) needs a random-looking value. A last segment that names metadata (`_url`,
// `_name`, `_id`) or a key that is public (`public_key`) marks no secret at all.
const strongSegments = new Set([
  'pass',
  'passwd',
  'password',
  'passwords',
  'passphrase',
  'pwd',
  'pw',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'privatekey',
  'clientsecret',
]);
const weakSegments = new Set([
  'token',
  'tokens',
  'key',
  'keys',
  'apikey',
  'auth',
  'authtoken',
  'accesstoken',
  'accesskey',
  'apitoken',
  'secretkey',
  'salt',
  'session',
  'sessionid',
  'cookie',
  'license',
  'licence',
  'dsn',
  'pat',
  'bearer',
  'jwt',
  'otp',
  'pin',
  'sig',
  'credential',
  // Its abbreviations (`SERVICE_CRED`, `db_creds`): the prefilter reads `cred` already.
  'cred',
  'creds',
  'login',
]);
const metadataLast = new Set([
  'id',
  'ids',
  'url',
  'uri',
  'name',
  'names',
  'path',
  'file',
  'type',
  'length',
  'size',
  'hint',
  'policy',
  'header',
  'endpoint',
  'prefix',
  'format',
  'field',
  'expiry',
  'expires',
  'ttl',
  'env',
  'var',
  'count',
  'enabled',
  'required',
  'version',
  'mode',
  'label',
  'timeout',
  'store',
  'manager',
  'provider',
  'ref',
  'reference',
  'arn',
  'kind',
  'algorithm',
  'regex',
  'pattern',
  'template',
  'location',
  'dir',
  'index',
  'column',
  'class',
  'method',
  'strategy',
  'properties',
  'property',
  // What is done with a password or what it must be (`passwordEncoder`, `PasswordHasher`,
  // `password_validator`, `password_strength`): a thing about the secret, not the secret.
  'encoder',
  'hasher',
  'validator',
  'generator',
  'strength',
  'complexity',
]);
// Words that make `key` or `token` name something other than a credential, each only where it
// qualifies that word (`sort_key`, `max_tokens`, `public_key`), never a password, a secret or a
// credential (`REGISTRY_PASSWORD`, `INPUT_PASSWORD`, `csrf_secret`), and never a word further off
// (`NODE_AUTH_TOKEN`, `primary_access_key`, `prompt_tokens_details` reads `prompt_tokens`).
// Counts of tokens (an LLM's usage, a limit) are plural (`input_tokens`) or follow the word
// (`tokens_used`, `token_limit`): `INPUT_TOKEN` is a GitHub Action's `token` input.
const tokenCountWords =
  /^(?:total|max|min|num|limit|used|remaining|input|output|prompt|completion|cached|reasoning)$/;
// A data structure's key (a row's, a map's, a cache's): a key, not a token (`node_token`,
// `registry_token`, `cache_token` are join and access tokens). `primary` is not among them: a DB
// primary key holds a column's name, a random `primaryKey` is a cloud service's access key (Azure's
// `primaryKey` beside `secondaryKey`).
const structureKeyWords =
  /^(?:schema|table|column|field|object|node|item|entry|record|row|element|registry|foreign|sort|partition|cache|hot|lookup|map|dict|unique|composite|idempotency|routing|shard)$/;
// Public halves and anti-forgery values, of either word.
const publicWords = /^(?:public|publishable|pub|csrf|xsrf)$/;
// Words that only spell `key` inside them.
const keyInsideWords = /^(?:keyboard|monkey|turkey|donkey|hockey|jockey)$/;
// Any of the words above, and `primary`: what a key naming no secret at all may say its value is
// (`sortOrder`, `primaryColor`), read by the checks of values under ordinary keys.
const notSecretWord = (segment: string) =>
  tokenCountWords.test(segment) ||
  structureKeyWords.test(segment) ||
  publicWords.test(segment) ||
  keyInsideWords.test(segment) ||
  segment === 'primary';
const keyWord = /^keys?$/;
const tokenWord = /^tokens?$/;

/**
 * True when a word of the key names what `key` or `token` is here as no credential (see above):
 * read only next to that word, and never where the key names a password, a secret or a credential.
 */
function qualifiedNotSecret(segments: readonly string[]): boolean {
  if (segments.some((segment) => keyInsideWords.test(segment))) return true;
  if (
    segments.some((segment) => strongSegments.has(segment) || gluedPassword.test(segment)) ||
    /private_?key|client_?secret/.test(segments.join('_'))
  ) {
    return false;
  }
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const next = segments[index + 1] ?? '';
    const previous = segments[index - 1] ?? '';
    if (publicWords.test(segment) && (keyWord.test(next) || tokenWord.test(next))) return true;
    if (structureKeyWords.test(segment) && keyWord.test(next)) return true;
    if (tokenCountWords.test(segment) && (next === 'tokens' || tokenWord.test(previous))) {
      return true;
    }
  }
  return false;
}

// Words of a page cursor's name; a name holding any other word (`page_access_token` is a Facebook
// Page's credential) is not a cursor.
// `page_token` alone is also what Messenger bots call a Facebook Page's access token: `page` needs
// `next` beside it (`nextPageToken`).
const cursorWords = new Set(['pagination', 'paging', 'continuation', 'cursor', 'marker']);
const cursorNameWords = new Set([...cursorWords, 'page', 'next', 'token']);

/**
 * A page cursor (`NextToken` of AWS, `nextPageToken` of Google, `ContinuationToken` of S3): the next
 * request needs it verbatim, and it opens nothing without the caller's own credentials.
 */
function namesPageCursor(segments: readonly string[]): boolean {
  if (!segments.every((segment) => cursorNameWords.has(segment))) return false;
  return (
    segments.some((segment) => cursorWords.has(segment)) ||
    (segments.includes('next') && segments.at(-1) === 'token')
  );
}

const eventVerbs = new Set([
  'created',
  'updated',
  'issued',
  'changed',
  'rotated',
  'expires',
  'expired',
  'modified',
  'revoked',
  'generated',
  'used',
  'refreshed',
  'verified',
  'reset',
  'set',
]);

/**
 * A value an OAuth client sends in the open, in the authorization request's URL: `state` (its
 * anti-forgery value, RFC 6749 section 10.12) and `code_challenge` (a hash of the PKCE verifier,
 * RFC 7636). The verifier and the returned `code` are not among them.
 */
function namesOAuthFrontChannelValue(segments: readonly string[]): boolean {
  const name = segments.join('_');
  return name === 'state' || name === 'code_challenge';
}

const qualifierSegments = new Set([
  'prod',
  'production',
  'dev',
  'development',
  'test',
  'staging',
  'stage',
  'live',
  'value',
  'str',
  'string',
  'b64',
  'base64',
  'hex',
  'raw',
  'enc',
  'encoded',
  'new',
  'old',
  'local',
  'secret',
  'v',
]);
const relationWords = new Set(['to', 'for', 'of', 'from', 'with', 'containing']);
const selfDeclaredFake = new Set([
  'non',
  'not',
  'fake',
  'dummy',
  'mock',
  'example',
  'sample',
  'invalid',
  'wrong',
  'placeholder',
  'bogus',
]);

/** A key's words, lower case, without trailing digits (`messagingServiceSid2` -> messaging, service, sid). */
export function keySegments(rawKey: string): string[] {
  return rawKey
    .replace(/^[-$@_]+/, '')
    .replace(/["']/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .map((segment) => segment.replace(/\d+$/, ''))
    .filter((segment) => segment !== '');
}

/** True when the key names an identifier (`access_id`, `accessId`): UUIDs under it are ids. */
export function keyIsIdLike(rawKey: string): boolean {
  // Session ids are UUIDs in most agents' logs (`sessionId`, `oldSession`); a UUID there names a
  // session rather than unlocking one.
  const last = keySegments(rawKey).at(-1);
  return last === 'id' || last === 'session' || last === 'sessionid';
}

// Words that make an id part of a credential: `secret_id` (Vault AppRole), `session_id` (a
// cookie), `access_key_id` (the public half of a signing pair), `client_id` and `app_id` (issued
// beside a secret and named with it by the scanners); a refresh or one-time token's id is
// the token.
const credentialIdWords =
  /^(?:access|secret|secrets|token|tokens|key|keys|api|apikey|auth|session|private|pass|passwd|password|pwd|credential|credentials|client|app|consumer|signing|webhook|refresh|totp|hmac|oauth)$/;

/**
 * True when the text just before a value ends with a key that names it an id of a thing (`fileId:`,
 * `"document_id": "`, `BUILD_ID=`), not of a credential.
 */
export function keyNamesPublicId(before: string): boolean {
  const line = before.slice(before.lastIndexOf('\n') + 1);
  const key = keyAtLineEnd(line);
  if (!key) return false;
  const segments = keySegments(key);
  // `id` alone names nothing: any value may be called that.
  // The words before `id` name the thing: a thing the key rules call secret (`cookie_id`,
  // `otp_id`, `bearer_id`) makes the value one of those, not an id of something else.
  return (
    segments.length >= 2 &&
    segments.at(-1) === 'id' &&
    !segments.some((segment) => credentialIdWords.test(segment)) &&
    keyIsSecret(segments.slice(0, -1).join('_')) === undefined
  );
}

/**
 * The last part of a dotted key, read with the part before it when it is only `key` or `token`
 * (`jwt.public.key`, `ci.cache.key`, `request.idempotency.key` name a public key, a cache key and an
 * idempotency key, as `public_key` would).
 */
function dottedLeaf(rawKey: string): string[] {
  const parts = rawKey.split('.');
  const last = keySegments(parts.at(-1)!);
  if (parts.length >= 2 && last.length === 1 && /^(?:keys?|tokens?)$/.test(last[0]!)) {
    return [...keySegments(parts.at(-2)!), ...last];
  }
  return last;
}

const gluedPassword = /^[a-z]{2,12}(?:password|passwd|passphrase)$/;

const keyVerdicts = new Map<string, 'strong' | 'weak' | undefined>();

/** How strongly a key name marks its value as secret, or undefined when it does not. */
export function keyIsSecret(rawKey: string): 'strong' | 'weak' | undefined {
  if (keyVerdicts.has(rawKey)) return keyVerdicts.get(rawKey);
  // Keys repeat a lot (JSON field names); a bounded memo keeps classification off the hot path.
  if (keyVerdicts.size > 10_000) keyVerdicts.clear();
  const verdict = classifyKey(rawKey);
  keyVerdicts.set(rawKey, verdict);
  return verdict;
}

// GPG key ids (8 or 16 hex digits, `0x` or not) and fingerprints (40 hex digits, spaced in fours or
// not; 64 for v5 and v6 keys), one or a list.
const gpgKeyIds =
  /^(?:(?:0x)?(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{16}|[0-9A-Fa-f]{40}|[0-9A-Fa-f]{64})(?:[\s,;]+|$))+$/;
const spacedFingerprint = /^(?:[0-9A-Fa-f]{4}\s+){9}[0-9A-Fa-f]{4}$/;
// A time: epoch seconds to nanoseconds, ISO 8601 or a date with its separators, an HTTP date.
const timeValue =
  /^(?:\d{9,19}(?:\.\d+)?|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2}| ?UTC)?|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}(?: \d{1,2}:\d{2}(?::\d{2})?)?|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,? [\w :+-]+|null|none|never|-)?$/i;

/**
 * The form a value takes under a key named for it, where that form is no credential: key ids and
 * fingerprints under a GPG key's name (`GPG_KEY`, `GPG_KEYS` of official Docker images,
 * `PGP_FINGERPRINT`), and times under a key naming when something happened to a secret
 * (`token_expires_at`, OAuth's `client_secret_expires_at`, `password_changed_at`; only a verb
 * before `at` says so: `CLIENT_SECRET_MS`, `token_created` hold secrets). Anything else under such
 * a key is judged as under any key of its words: a base64 private key under `GPG_KEY`, a token
 * under `token_issued_at`. A private key or its passphrase is named so (`GPG_PRIVATE_KEY`,
 * `GPG_PASSPHRASE`) and has no form kept.
 */
function keptValueForm(segments: readonly string[]): ((value: string) => boolean) | undefined {
  const last = segments.at(-1)!;
  if (
    /^(?:keys?|fingerprints?|fpr)$/.test(last) &&
    segments.some((segment) => segment === 'gpg' || segment === 'pgp') &&
    !segments.some((segment) => segment === 'private' || strongSegments.has(segment))
  ) {
    return (value) => gpgKeyIds.test(value) || spacedFingerprint.test(value);
  }
  if (last === 'at' && segments.length >= 2 && eventVerbs.has(segments[segments.length - 2]!)) {
    return (value) => timeValue.test(value);
  }
  return undefined;
}

interface KeptForm {
  /** True when the value (trimmed, unquoted) has the form the key is kept for. */
  fits: (value: string) => boolean;
  /** How strongly the key's words mark any other value as secret. */
  strength: 'strong' | 'weak';
}
const keptForms = new Map<string, KeptForm | null>();

/** The form a key is kept for and its strength for other values (see `keptValueForm`), if any. */
function keptFormOf(rawKey: string): KeptForm | undefined {
  let form = keptForms.get(rawKey);
  if (form === undefined) {
    if (keptForms.size > 10_000) keptForms.clear();
    const segments = keySegments(rawKey);
    const fits = segments.length === 0 ? undefined : keptValueForm(segments);
    const strength = fits === undefined ? undefined : classifyKey(rawKey, false);
    form = fits !== undefined && strength !== undefined ? { fits, strength } : null;
    keptForms.set(rawKey, form);
  }
  return form ?? undefined;
}

const fitsForm = (form: KeptForm, value: string) =>
  form.fits(value.trim().replace(/^["']|["']$/g, ''));

/**
 * How strongly a key marks `value` as secret: as `keyIsSecret`, and for a key kept for the form of
 * its value (see `keptValueForm`), as its words do when the value is not of that form.
 */
export function keyIsSecretFor(rawKey: string, value: string): 'strong' | 'weak' | undefined {
  const verdict = keyIsSecret(rawKey);
  if (verdict !== undefined) return verdict;
  const form = keptFormOf(rawKey);
  return form === undefined || fitsForm(form, value) ? undefined : form.strength;
}

function classifyKey(rawKey: string, honourForms = true): 'strong' | 'weak' | undefined {
  // Generated ids (`toolu_01DD7PwKMij...`) are not names, whatever segments they happen to hold.
  if (rawKey.length >= 16 && /\d/.test(rawKey) && shannonEntropy(rawKey) > 3.8) return undefined;
  const segments = keySegments(rawKey);
  if (segments.length === 0) return undefined;
  // `PASS: test_x`, `--- PASS: TestRetry3Times` are test reports: `pass` alone is too ambiguous
  // for any value (tried as a weak key: it redacted Go test names); `db_pass` is a password.
  if (segments.length === 1 && segments[0] === 'pass') return undefined;
  const last = segments[segments.length - 1]!;
  // `access_key_id` and `access_id` name the public half of a key pair but are still sensitive.
  // The id of an access key (`aws_access_key_id`, `AccessKeyId`) is named with the key's words.
  const accessId =
    last === 'accessid' ||
    last === 'accesskeyid' ||
    (segments.length >= 2 && last === 'id' && segments[segments.length - 2] === 'access') ||
    (segments.length >= 3 &&
      last === 'id' &&
      segments[segments.length - 2] === 'key' &&
      segments[segments.length - 3] === 'access');
  if (metadataLast.has(last) && !accessId) return undefined;
  // A key kept for the form of its value (GPG key ids, times): see `keptValueForm`.
  if (honourForms && keptValueForm(segments) !== undefined) return undefined;
  // In a dotted path (`postgresql.primary.password`, Helm values, Spring properties) the parents
  // say where the value sits, the last part what it is: `primary` is a primary key's word only there.
  const leaf = rawKey.includes('.') ? dottedLeaf(rawKey) : segments;
  if (qualifiedNotSecret(leaf)) return undefined;
  if (namesPageCursor(segments)) return undefined;
  // `nonMatchingToken`, `fake_api_key`, `example_secret`: the name says the value is not real.
  if (segments.some((segment) => selfDeclaredFake.has(segment))) return undefined;
  // `keyVaultToStoreSecrets`, `path_to_password`, `name_of_secret`: a preposition before the
  // secret word makes the key name something about a secret (a vault, a path), not the secret.
  const preposition = segments.findIndex((segment) => relationWords.has(segment));
  if (
    preposition > 0 &&
    segments.slice(preposition + 1).some((segment) => /secret|passw|token|key|cred/.test(segment))
  ) {
    return undefined;
  }
  const joined = segments.join('');
  // `PGPASSWORD`, `REDISPASSWORD`, `dbpassword`: the secret word glued to what it is for.
  if (
    segments.some((segment) => strongSegments.has(segment) || gluedPassword.test(segment)) ||
    /private_?key|client_?secret/.test(segments.join('_'))
  ) {
    return 'strong';
  }
  if (accessId) return 'weak';
  // The last segment names what the value is (`session_cwd` is a directory); a qualifier after a
  // secret word (`api_token_prod`, `auth_key_b64`) keeps it a secret.
  const beforeLast = segments[segments.length - 2];
  if (
    weakSegments.has(last) ||
    (beforeLast !== undefined && weakSegments.has(beforeLast) && qualifierSegments.has(last))
  ) {
    return 'weak';
  }
  if (/(?:token|apikey|secret|passw)/.test(joined)) return 'weak';
  if (namesProtocolCredential(segments)) return 'weak';
  return undefined;
}

/**
 * Protocol words for values that unlock as a token does, under names that hold no `token`,
 * `secret` or `key`: OAuth's PKCE `code_verifier` and OAuth 1's `oauth_verifier`, JWT client
 * `client_assertion`s and SAML assertions (`SAMLResponse`), authorization, device and recovery
 * codes, a wallet's mnemonic or seed phrase, key-encrypting and data keys (`kek`, `dek`), a
 * password `pepper`, and session cookies named by their frameworks (`PHPSESSID`, `JSESSIONID`,
 * `connect.sid`). Bare `code`, `seed` or `sid` name too much else (`exit_code`, `random_seed`,
 * a Twilio `sid`); the public halves (`code_challenge`, `state`, `nonce`, `user_code`) are not here.
 */
const credentialTerms =
  /(?:^|_)(?:verifier|assertion|mnemonic|kek|dek|pepper|phpsessid|jsessionid|saml_?response|connect_sid|seed_(?:phrase|words)|(?:wallet|master|hd|bip)_seed|(?:auth|authorization|authz|device|recovery|backup|oauth|grant)_codes?)$/;

/**
 * True when the key ends with one of `credentialTerms`, or with one and a qualifier
 * (`code_verifier_prod`): a word after the term names something else (`oauth_code_challenge`).
 */
function namesProtocolCredential(segments: readonly string[]): boolean {
  const last = segments.at(-1);
  const core = last !== undefined && qualifierSegments.has(last) ? segments.slice(0, -1) : segments;
  return credentialTerms.test(core.join('_'));
}

// Services whose keys carry no prefix of their own: scanners find them by the service's name next
// to a random value (`sourcegraph: <40 hex>`, `datadog_api = ...`). Prefixed vendors are left out:
// their own rules find the token anywhere.
const serviceNames = new Set(
  (
    'sourcegraph meraki cloudflare datadog newrelic sentry okta mailgun mailchimp sendgrid twilio ' +
    'messagebird discord heroku netlify algolia airtable asana bitbucket contentful dropbox fastly ' +
    'freshbooks gocardless hubspot intercom jira confluence atlassian launchdarkly mapbox mattermost ' +
    'pagerduty plaid rapidapi sendbird sendinblue brevo shippo snyk squarespace sumologic travis ' +
    'twitch twitter typeform zendesk nexmo vonage pusher finicky beamer bittrex coinbase kraken ' +
    'kucoin etsy flickr frameio gitter linkedin nytimes yandex zapier circleci codecov ' +
    'bitly clickup dynatrace harness kubecost loggly logdna mixpanel newsapi openweather ' +
    'optimizely rollbar statuscake trello virustotal wakatime cloudant softlayer'
  ).split(' '),
);

const serviceVerdicts = new Map<string, boolean>();

/** True when the key is a service's name (`sourcegraph`, `datadogApi`) without metadata words. */
export function keyNamesService(rawKey: string): boolean {
  let verdict = serviceVerdicts.get(rawKey);
  if (verdict === undefined) {
    if (serviceVerdicts.size > 10_000) serviceVerdicts.clear();
    verdict = classifyServiceKey(rawKey);
    serviceVerdicts.set(rawKey, verdict);
  }
  return verdict;
}

function classifyServiceKey(rawKey: string): boolean {
  const segments = keySegments(rawKey);
  if (segments.length === 0 || segments.length > 3) return false;
  if (metadataLast.has(segments.at(-1)!)) return false;
  if (qualifiedNotSecret(segments) || segments.some((segment) => selfDeclaredFake.has(segment))) {
    return false;
  }
  return segments.some((segment) => serviceNames.has(segment));
}

/** A value under a service name is a key only when it is clearly generated: long, mixed, dense. */
export function acceptServiceValue(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length < 20 || trimmed.length > 200) return false;
  if (!/^[A-Za-z0-9_+/=.-]+$/.test(trimmed)) return false;
  // Heroku, Snyk and others issue UUID keys.
  if (isUuid(trimmed)) return !isLowVariety(trimmed.replace(/-/g, ''));
  if (!/\d/.test(trimmed) || !/[A-Za-z]/.test(trimmed)) return false;
  // `claude-sonnet-4-20250514`, `v1.2.3-beta.4`: names and versions made of short parts.
  if (/^[A-Za-z0-9]{1,12}(?:[-_.][A-Za-z0-9]{1,12})+$/.test(trimmed)) return false;
  if (isPlaceholder(trimmed) || looksLikeWords(trimmed)) return false;
  return shannonEntropy(trimmed) >= 3.5;
}

function stripUnbalancedClosers(value: string): string {
  let result = value;
  for (;;) {
    const last = result.at(-1);
    const opener = last === ')' ? '(' : last === ']' ? '[' : last === '}' ? '{' : undefined;
    if (!opener) return result;
    const opens = result.split(opener).length - 1;
    const closes = result.split(last!).length - 1;
    if (closes <= opens) return result;
    result = result.slice(0, -1).replace(/[.,;:]+$/, '');
  }
}

/** `proxy-handled`, `dev_codemie_user`, `Multi-Session`: letters-only words joined by `-`, `_` or `.`. */
export function isWordName(value: string): boolean {
  return (
    /^[A-Za-z][a-z]+(?:[-_.][A-Za-z][a-z]+)+$/.test(value) || /^[a-z]+(?:[-_.][a-z]+)+$/.test(value)
  );
}

/** `^3.948.0`, `~1.2`, `>=2.0.0 <3`, `1.2.3-beta.4`, `workspace:*`: a dependency version, not a secret. */
export function isVersionRange(value: string): boolean {
  return (
    /^(?:[\^~]|[<>]=?|=)?v?\d+(?:\.(?:\d+|[x*]))+(?:-[\w.]+)?(?:\+[\w.]+)?(?:\s*(?:\|\||[<>]=?|-)\s*v?[\d.x*]+)*$/.test(
      value,
    ) || /^(?:workspace|npm|catalog|link|file):\S*$/.test(value)
  );
}

/**
 * A spaced value that is a command line: a word that is a path or a flag
 * (`node scripts/validate-secrets.js`, `--from HEAD~1`). A passphrase of plain words stays a secret.
 */
export function looksLikeCommandOrProse(value: string): boolean {
  const words = value.split(/\s+/).filter((word) => word !== '');
  return words.some((word) => /^-{1,2}[A-Za-z]/.test(word) || /[\w.]\/[\w.]/.test(word));
}

/**
 * True when `value`, held under the object key `key`, is a secret: the key names one and the value
 * passes the keyed-value checks (an object value is as good as quoted).
 */
export function isKeyedSecret(key: string, value: string): boolean {
  const strength = keyIsSecretFor(key, value);
  return strength !== undefined && acceptKeyedValue(value, strength, true, keyIsIdLike(key));
}

/**
 * True when a dot-separated part of `value` reads as generated rather than as a name. A signature
 * part mixing lower case, capitals and digits over 16+ characters is random even where one of its
 * `_`-joined pieces happens to read as a word (`…0IK_Lrva`), which `looksGenerated` alone lets pass.
 */
function hasGeneratedPart(value: string): boolean {
  return value.split('.').some(
    // Identifiers (`config.clientSecret`) are short; a signature part is 16 characters or more.
    (part) =>
      part.length >= 16 &&
      !isNumberedName(part) &&
      (looksGenerated(part, 16, true) ||
        (/[a-z]/.test(part) &&
          /[A-Z]/.test(part) &&
          /\d/.test(part) &&
          looksRandom(part, { minLength: 16, minEntropy: 3.5 }))),
  );
}

/**
 * True for a name with numbers between its words (`accessTokenFromOauth2Server`,
 * `PKCS8EncodedKeySpec`, `lambdaExecutionRole2`): cut at its digits, every piece reads as a name
 * and every number is short. A signature cut at its digits leaves random-case pieces (`xQ`, `pZk`).
 */
function isNumberedName(part: string): boolean {
  const pieces = part.split(/(\d+)|[_-]/).filter((piece) => piece !== undefined && piece !== '');
  // An acronym runs into the next word (`PKCSAccess`, `HMACSigner`): cut them apart first.
  const piecesAreNames = pieces.every((piece) =>
    /^\d+$/.test(piece)
      ? piece.length <= 4
      : partsAreNames(piece.replace(/([A-Z]+)(?=[A-Z][a-z])/g, '$1_')),
  );
  // Cut at digits, a signature's pieces are short enough to each fall into the hump rhythm
  // (`FHvzpuKqi`, `agacgcwcoaeRluC`); read together, a name's humps are words and a signature's are not.
  return piecesAreNames && humpsReadAsWords(part.replace(/[\d_-]+/g, ''));
}

// A name's humps, each optionally followed by a number (`item2Name`, `sha256Hex`, `oauth2Client`,
// `S3Bucket`): a number ends a word, so no lower-case letter follows one, and a lower-case run
// starts only the name.
const humpedName =
  /^(?:[A-Z]{0,4}[a-z]{2,}|[A-Z]+|[a-z])\d{0,4}(?:(?:[A-Z]{1,4}[a-z]{2,}|[A-Z]{1,4})\d{0,4})*$/;

/**
 * A part no name has: mixed case and a digit, six characters or more, not in a name's humps
 * (`nr0V4uIo`, `gazB6ihS3`; not `item2Name`, `sha256Hex`, `base64Url`).
 */
function isDrawnPart(part: string): boolean {
  return (
    part.length >= 6 &&
    /\d/.test(part) &&
    /[a-z]/.test(part) &&
    /[A-Z]/.test(part) &&
    !humpedName.test(part)
  );
}

/**
 * A dotted value with a drawn part (`nr0V4uIo.Z8`, `A4F.gazB6ihS3`): a password holding a dot, not
 * member access, whose parts are names (`config.dbPassword`, `settings.DB_PASS`).
 */
export function hasDrawnPart(value: string): boolean {
  return /^[\w$-]+(?:\.[\w$-]+)+$/.test(value) && value.split('.').some(isDrawnPart);
}

/** Accepts a value found after a key name, given how strongly that name implies a secret. */
const prefixedUuid =
  /^(?:[A-Za-z][A-Za-z0-9]{0,11}[-_]){1,3}[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function acceptKeyedValue(
  value: string,
  strength: 'strong' | 'weak',
  quoted: boolean,
  idLike = false,
): boolean {
  // Markdown emphasis around a value (`**Multi-codemie-sessions**`) is formatting, not part of it.
  const trimmed = value.trim().replace(/^[*_]{2,}|[*_]{2,}$/g, '');
  if (trimmed === '' || isTemplate(trimmed)) return false;
  // An ellipsis in a value (`password=<value>...`, `"token": "…<value>"`, `<half>…<half>`) is a
  // sentence's or a display's cut or elision: the characters around it are shown all the same, so
  // each piece is judged alone. A sample cut to a few characters (`sk-abc...`, `sk-…wxyz`) is then
  // too short or too plain to be one.
  if (ellipsisRun.test(trimmed)) {
    for (const piece of shownPieces(trimmed)) {
      if (!showsTaggedHeaderOnly(piece) && acceptKeyedValue(piece, strength, quoted, idLike)) {
        return true;
      }
    }
    return false;
  }
  // A generated token (`hf_…`, `api_org_…`) is a literal, though `_` makes it read as snake_case.
  if (
    /^[A-Za-z0-9_\-+/=.~]+$/.test(trimmed) &&
    !isCodeReference(trimmed) &&
    judgeSegment(trimmed) !== undefined
  ) {
    return true;
  }
  // A word and short hex (`build.3f9a…`) names a thing in prose, and reads as member access; under
  // a key naming a secret, 64 bits of random hex after it are the secret.
  if (hasHexBody(trimmed, true)) return true;
  // A TOTP seed or key in base32 capitals: one case, few digits, yet generated.
  if (isBase32Body(trimmed, true)) return true;
  // A YAML tag (`password: !vault |`, `!!python/object`); a drawn value may start with `!` too.
  if (/^!!?[\w/:.-]+$/.test(trimmed) && !isDrawnPart(trimmed.replace(/^!+/, ''))) return false;
  // Identifier-like UUIDs are secrets under token names (Heroku, Snyk keys), not under `*_id` names.
  if (strength === 'weak' && isUuid(trimmed)) return !idLike;
  // A UUID behind a short word prefix (`sdk-<uuid>`, `api-<uuid>`, `sk-lf-<uuid>`) is a keyed
  // credential in the same way; the prefix names its issuer or kind, not a thing.
  if (!idLike && prefixedUuid.test(trimmed)) return true;
  if (isVersionRange(trimmed)) return false; // `"@aws-sdk/credential-providers": "^3.948.0"`
  // `Multi-codemie-sessions`, `proxy-handled`: words joined by hyphens are names, whatever their case.
  if (/^[A-Za-z][a-z]+(?:-[A-Za-z][a-z]+)+$/.test(trimmed)) return false;
  // `node-cache-Linux-x64-pnpm-<sha256>` (a CI cache key): four or more name parts, then the digest
  // of what they name. Up to three parts before hex are a vendor prefix, judged as a token above.
  if (
    /^[A-Za-z][A-Za-z0-9.]*(?:[-_][A-Za-z0-9][A-Za-z0-9.]*){3,}[-_](?:[0-9a-f]{8}[0-9a-f]*|[0-9A-F]{8}[0-9A-F]*)$/.test(
      trimmed,
    ) &&
    (trimmed.match(/(?:^|[-_])[A-Za-z]{3,}(?=[-_])/g)?.length ?? 0) >= 2
  ) {
    return false;
  }
  if (/\s/.test(trimmed)) {
    // Tokens have no spaces; a spaced value under a token name is prose (`--api-key key "optimize
    // performance"`). A password may be a passphrase, but not a command or a sentence with a path.
    if (strength === 'weak' || looksLikeCommandOrProse(trimmed)) return false;
  }
  // "notapassword", "your_password", "Password1": a word about a password; `TestSource%Password`
  // mixes in other characters and is a literal like any other.
  if (/password/i.test(trimmed) && trimmed.length < 24 && /^[A-Za-z_-]*\d{0,4}$/.test(trimmed)) {
    return false;
  }
  if (/^[a-z]+(?:-[a-z]+)+$/.test(trimmed)) return false; // kebab-case words
  // snake_case names; a part of random case (`hf_hZEmnoOEYISjra…`) makes it a prefixed token instead.
  if (
    strength === 'weak' &&
    /^[A-Za-z]+(?:_(?:[A-Za-z]+|\d{1,4}))+$/.test(trimmed) &&
    partsAreNames(trimmed)
  ) {
    return false;
  }
  if (strength === 'weak' && looksLikeWords(trimmed)) return false;
  // Member access names its parts; a signed token (`<id>.<time>.<signature>`) draws them.
  const dottedToken =
    /^[\w-]+(?:\.[\w-]+)+$/.test(trimmed) && (hasGeneratedPart(trimmed) || hasDrawnPart(trimmed));
  const dottedWords = strength === 'strong' && isDottedWords(trimmed);
  if (!quoted && !dottedToken && !dottedWords && isCodeReference(trimmed)) return false;
  if (
    /^(?:true|false|null|none|nil|undefined|yes|no|on|off|required|optional|string|int|bool|number|env|secret|password|token)$/i.test(
      trimmed,
    )
  ) {
    return false;
  }
  if (
    /^[a-z]+(?:[_-][a-z]+)*[_-]?(?:key|token|secret|password|pass|pwd)$/i.test(trimmed) &&
    strength === 'weak'
  ) {
    return false;
  }
  if (isPlaceholder(trimmed)) return false;
  // Member access: every part a name (`config.db.password`); `lomit.pinas.88` is no expression.
  // Under a password's key, capitalised words (`Maro.Tilsen`) are a typed password unless a part
  // is a word code names containers and members with (`Config.Default`, `Settings.Password`).
  if (/^[a-z]\w*(?:\.[a-z]\w*)+$/i.test(trimmed) && !quoted && !dottedToken && !dottedWords) {
    return false;
  }
  // A path; one opening with `/` only when its parts are names (`/run/secrets/db`), as standard
  // base64 opens with `/` one time in 64 (`"credential":"/zu+yFZ…"`).
  if (/^~\/|^\.\.?\/|^[A-Za-z]:\\/.test(trimmed)) return false;
  if (trimmed.startsWith('/') && pointsElsewhere(trimmed) && mostPartsNamed(trimmed)) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return false; // a URL: its credentials have their own rule
  if (strength === 'strong') {
    if (trimmed.length < 4) return false;
    if (/^[A-Z][A-Z0-9_]*$/.test(trimmed) && trimmed.includes('_')) return false; // CONSTANT_NAME
    return !/^\d{1,3}$/.test(trimmed);
  }
  // A value typed rather than generated (`Pinas2024x`, `lomit#88Tar`): 10 or 11 characters mixing
  // three classes, with a run of letters and a digit; not a version, a path, a time or a name
  // carrying a number (`Version123`, `item2Name`, `ReactDom18x`).
  // Eight or nine characters pass only with all four classes (`Banba00!`, `Hx7q!mwa`): a password
  // policy's minimum, which names and shortcuts (`Shift+F1`, `v2-api`) seldom meet.
  if (trimmed.length < 12) {
    return (
      (trimmed.length >= 10 || (trimmed.length >= 8 && characterClasses(trimmed) === 4)) &&
      isTypedSecret(trimmed)
    );
  }
  // 16 random digits fall under 2.8 bits a digit a third of the time (a sample is short); a
  // number people type or print (`1700000000000000`, `4000000000000002`) repeats its digits.
  if (/^\d{16}\d*$/.test(trimmed)) return shannonEntropy(trimmed) >= 2;
  return (
    looksRandom(trimmed, { minLength: 12, minEntropy: 3, allowHex: true }) &&
    characterClasses(trimmed) >= 2
  );
}

// Words code names a container or a member with: a dotted value holding one reads as code.
const codeWords = new Set(
  (
    'default value values password passwd pwd pass secret secrets token tokens key keys empty none ' +
    'null config configs configuration settings setting environment env system properties props ' +
    'resources constants consts options opts credentials creds auth app application instance ' +
    'current string strings main global globals vars params data db database vault store get set ' +
    'user users admin root test tests example sample demo local prod dev'
  ).split(' '),
);

/** `Maro.Tilsen`, `Goga.Batrus.Lamo`: capitalised words joined by dots, none a word of code. */
function isDottedWords(value: string): boolean {
  if (!/^[A-Z][a-z]{1,20}(?:\.[A-Z][a-z]{1,20}){1,3}$/.test(value)) return false;
  return value.split('.').every((part) => !codeWords.has(part.toLowerCase()));
}

// A part of a joined name: a word, an abbreviation with a short number (`v2`, `F12`, `F10x`, `42`),
// a lower-case word numbered (`link42`); a year or count (`post-2024-1`) among three parts or more.
const namePart = /^(?:[A-Za-z]+|[A-Za-z]{0,2}\d{1,3}[A-Za-z]?|[a-z]{2,}\d{1,2})$/;
function isJoinedName(value: string): boolean {
  const parts = value.split(/[-+_]/);
  return (
    parts.length >= 2 &&
    parts.every((part) => namePart.test(part) || (parts.length >= 3 && /^\d{1,4}$/.test(part)))
  );
}
function isTypedSecret(value: string): boolean {
  return (
    characterClasses(value) >= 3 &&
    /[A-Za-z]{3}/.test(value) &&
    /\d/.test(value) &&
    !/\d[.:]\d|[/\\:()[\]{}<>$]/.test(value) &&
    !humpedName.test(value) &&
    // Words and abbreviations joined by `-`, `+` or `_` with a short number (`v2-api-docs`,
    // `nav-link-42`, `Ctrl+Alt+T1`, `F12-devtool`) name a thing: a React key, a route, a shortcut.
    !isJoinedName(value) &&
    // A camel hump (`ReactDom18x`, a video id `dQw4w9WgXcQ`) reads as a name or a drawn id of a
    // thing (under `key` those are product codes and ids): without a symbol, it stays.
    (/[^A-Za-z0-9_-]/.test(value) || !/[a-z][A-Z]/.test(value))
  );
}

/**
 * `key = value`, `key: value`, `"key": "value"`, `key := value`, `key => value`, `--key=value`,
 * `--key value`, XML `<add key="Password" value="..."/>`.
 */
// Keys and values are bounded (a keyed credential is short; long tokens have their own rules): the scan
// resumes right after each rejected key, so an unbounded value would make a long line of
// `k=k=k=…` quadratic.
// A subscript (`ENV['SECRET_KEY_BASE'] = …`, `os.environ["API_TOKEN"] = …`) closes the key with `']`.
// A key does not start right after a backslash: `\npassword` in a JSON string is a line break
// before `password`.
export const keyValuePattern =
  /(?<![\\])(?<key>[A-Za-z_$@-][\w.$-]{0,100})(?<close>["']\]|["']?)[ \t]*(?<sep>!==|===|!=|==|:=|::?:?=|\|\|=|&&=|\?\?=|\?=|=>|=|:(?!\/\/|:)|[ \t](?=["']))[ \t]*(?:(?<quote>["'`])(?<quoted>[^"'`\r\n]{0,300})(?:\k<quote>|$)|(?<bare>(?:(?!\\[nrt"\\/])[^\s"'`,;<>)\]}]){1,300}(?:[)\]}](?:(?!\\[nrt"\\/])[^\s"'`,;<>]){0,100}){0,3}))/g;

/**
 * `setProperty("API_TOKEN", "value")`, `getenv('api_key', 'value')`: a quoted key, a comma, a quoted
 * value; a conversion may follow the key (Rust's `insert("api_token".to_string(), "value"…)`).
 * The key literal may be a label ending in `:` or `=` and a format slot (`print("token:",
 * "value")`, `Printf("api key: %s", "value")`): a name of up to three words, bounded.
 */
const callPairPattern =
  /\(\s*(?<q0>["'])(?<key>[A-Za-z_][\w.-]{0,60}(?: [A-Za-z_][\w.-]{0,30}){0,2})(?:[ \t]{0,2}[:=][ \t]{0,2}(?:%[sv]|\{\})?)?\k<q0>(?:\.[A-Za-z_]\w{0,20}\(\))?\s*,\s*(?<quote>["'])(?<quoted>[^"'\r\n]*)\k<quote>/g;

/**
 * `const apiKey: string = "value"`, `val token: String? = "value"`, `static API_KEY: &str = "value"`,
 * `let secret: Option<&'static str> = "value"`: a typed declaration (TypeScript, Kotlin, Swift,
 * Scala, Rust) puts a type between the name and `=`, which the plain pair reads as the value. The
 * type is one name, optionally qualified, generic, an array, optional or a union of names; the
 * value must be a quoted literal. Bounded: the name, the type and the value each have a limit.
 */
const typedDeclarationPattern =
  /(?<![\w$.])(?<key>[A-Za-z_$][\w$]{0,100})[ \t]*[?!]?:[ \t]*(?:&(?:'static[ \t]+)?)?[A-Za-z_][\w.]{0,60}(?:<[^<>=\r\n]{0,60}>)?(?:\[\])?\??(?:[ \t]*\|[ \t]*[A-Za-z_][\w.]{0,60}){0,3}[ \t]*=[ \t]*(?<quote>["'])(?<quoted>[^"'\r\n]{0,300})\k<quote>/g;

/**
 * `["--api-key", "value"]`, `args: ['--token', 'value']`, `subprocess.run([..., "--password", "value"])`:
 * an argument list in code, a secret-named flag as one literal and its value as the next.
 */
const quotedFlagPairPattern =
  /(?<q0>["'])--?(?<key>[A-Za-z][\w-]{0,60})\k<q0>[ \t]*,[ \t]*(?<quote>["'])(?<quoted>[^"'\r\n]{0,300})\k<quote>/g;

/** `"value" == password`: a literal compared with a secret-named variable. */
const reverseComparisonPattern =
  /(?<quote>["'])(?<quoted>[^"'\r\n]+)\k<quote>\s*(?:!==|===|!=|==)\s*(?<key>[A-Za-z_$][\w.$]*)/g;

/** `password.equals("value")` (Java, Kotlin): a literal compared with a secret-named variable. */
const equalsCallPattern =
  /(?<=(?<key>[A-Za-z_$][\w$]*)\s*)\.\s*(?:equals|equalsIgnoreCase|contentEquals|compareTo)\(\s*(?<quote>["'])(?<quoted>[^"'\r\n]+)\k<quote>/g;

const cliFlagPattern =
  /(?<![\w-])--?(?<key>[A-Za-z][\w-]*)[ \t]+(?:(?<quote>["'])(?<quoted>[^"'\r\n]*)\k<quote>|(?<bare>[^\s"'-][^\s"']*))/g;

const xmlPairPattern = /key=["'](?<key>[^"']+)["'][ \t]+value=["'](?<value>[^"']*)["']/gi;

/**
 * `| DB_PASSWORD | <value> |`: a markdown table row naming a secret in one cell and giving it in
 * the next (a settings table, an `.env` shown as a table). The value cell is one run, optionally
 * in backticks or quotes; a cell of words (`| token | the API token |`) is a description. The key
 * cell may be quoted too (`| "password" | "<value>" |`).
 */
const markdownCellPattern =
  /(?<=\|)[ \t]*[`*"']{0,2}(?<key>[A-Za-z_][\w.-]{0,60})[`*"']{0,2}[ \t]*\|[ \t]*(?:(?<quote>["'])(?<quoted>[^"'|\r\n]*)\k<quote>|`(?<code>[^`|\r\n]+)`|(?<bare>[^\s|`"']+))[ \t]*(?=\|)/g;

/**
 * `<password>value</password>`, `<apiKey>value</apiKey>`: an XML element named like a secret; its
 * text may be a CDATA section (`<password><![CDATA[value]]></password>`). An element may be named
 * by its `name` or `key` attribute instead (`<property name="password"><value>…</value>`,
 * `<entry key="api.token">…</entry>`), its text directly inside or in a `<value>` child.
 */
const xmlElementPattern =
  /<(?<key>[A-Za-z_][\w.:-]{0,100})>(?:<!\[CDATA\[(?<cdata>[^\]\r\n]{1,300})\]\]>|(?<value>[^<>\r\n]{1,300}))<\/\k<key>>/g;
const xmlNamedElementPattern =
  /<[A-Za-z_][\w.:-]{0,60}[ \t][^<>\r\n]{0,200}?\b(?:name|key)=["'](?<key>[^"'<>\r\n]{1,100})["'][^<>\r\n]{0,200}?(?<!\/)>[ \t]*(?:<value>[ \t]*)?(?:<!\[CDATA\[(?<cdata>[^\]\r\n]{1,300})\]\]>|(?<value>[^<>\r\n]{1,300}))<\//g;

export interface KeyedMatch {
  kind: string;
  start: number;
  end: number;
}

/** Finds values whose key names a secret. Returns spans of the values only. */
export function findKeyedSecrets(text: string): KeyedMatch[] {
  const found: KeyedMatch[] = [];
  // Each line holding a secret-like key word, found from the word outward: a `^.*(?:word).*$`
  // pattern backtracked through every line, and was a twentieth of all redaction time.
  keyword.lastIndex = 0;
  for (let word = keyword.exec(text); word; word = keyword.exec(text)) {
    let start = word.index;
    while (start > 0 && !isLineTerminator(text.charCodeAt(start - 1))) start--;
    let end = word.index + word[0].length;
    while (end < text.length && !isLineTerminator(text.charCodeAt(end))) end++;
    const line = text.slice(start, end);
    if (line.length > longLine) findKeyedInLongLine(line, start, found);
    else findKeyedInLine(line, start, found);
    keyword.lastIndex = end;
  }
  return found;
}

// A `.properties` line (or a shell line) continued with `\`: raw, or inside a JSON string (`\\`
// then the escaped `\n`).
const continuationLength = (text: string, at: number): number => {
  if (text.charCodeAt(at + 1) === 10) return 2;
  if (text.charCodeAt(at + 1) === 13 && text.charCodeAt(at + 2) === 10) return 3;
  return text.startsWith('\\\\\\n', at) ? 4 : 0;
};
// What a continued line holds: `key = head\` (a value going on) or `key.\` (a key going on).
const continuedValueLine =
  /^[ \t]*(?<key>[A-Za-z_][\w.-]{0,100})[ \t]*[=:][ \t]*(?<head>[^\s\\"']{0,300})[ \t]*$/;
const continuedKeyLine = /^[ \t]*(?<key>[A-Za-z_][\w.-]{0,100})$/;
const keyTailLine = /[ \t]*(?<key>[\w.-]{1,100})[ \t]*[=:][ \t]*(?<value>[^\s\\"']{1,300})/y;
const valueTailLine = /[ \t]*(?<value>[^\s\\"']{1,300})/y;
const continuedLineReach = 400;

/**
 * Values of secret-named keys split by a `\` line continuation (Java `.properties`, where the next
 * line's leading blanks are dropped): `db.password=ab\` / `    cd`, `password = \` / `    value`,
 * `spring.datasource.\` / `  password=value`. The line pair is joined and judged as one pair. Each
 * continuation is read once, with its own line (at most 400 characters back) and the next.
 */
export function findContinuedKeyedSecrets(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  for (let at = text.indexOf('\\'); at !== -1; at = text.indexOf('\\', at + 1)) {
    const length = continuationLength(text, at);
    if (length === 0) continue;
    const window = Math.max(0, at - continuedLineReach);
    const before = text.slice(window, at);
    const lineStart =
      window +
      Math.max(
        before.lastIndexOf('\n') + 1,
        // `lastIndexOf` is -1 without a match: `+ 2` would then cut the line's first letter.
        before.includes('\\n') ? before.lastIndexOf('\\n') + 2 : 0,
        before.lastIndexOf('"') + 1,
      );
    if (lineStart === window && window > 0) continue;
    const line = text.slice(lineStart, at);
    const next = at + length;
    const pair = continuedValueLine.exec(line);
    if (pair) {
      valueTailLine.lastIndex = next;
      const tail = valueTailLine.exec(text);
      if (!tail) continue;
      const head = pair.groups!.head!;
      const value = tail.groups!.value!;
      // A shell line's continuation (`ENV A=b \` / `    PASSWORD=x \` / `    LOG=info`) parts words:
      // a blank before the `\` ends the value, and a next line of its own pair is a new one.
      if (head.length > 0 && line.length > line.trimEnd().length) continue;
      if (/^(?:[A-Z_][A-Z0-9_]*|[a-z_]\w*(?:\.[\w-]+)+)[=:](?![=:]|$)/.test(value)) continue;
      const strength = keyIsSecret(pair.groups!.key!);
      // A pair continued over lines is a settings file's, not code: the value is a literal.
      if (!strength || !acceptKeyedValue(head + value, strength, true)) continue;
      const kind = strength === 'strong' ? 'password' : 'secret';
      const headEnd = lineStart + line.length - (line.length - line.trimEnd().length);
      if (head.length > 0) found.push({ kind, start: headEnd - head.length, end: headEnd });
      const tailEnd = valueTailLine.lastIndex;
      found.push({ kind, start: tailEnd - value.length, end: tailEnd });
      continue;
    }
    const keyHead = continuedKeyLine.exec(line);
    if (!keyHead) continue;
    keyTailLine.lastIndex = next;
    const rest = keyTailLine.exec(text);
    if (!rest) continue;
    const value = rest.groups!.value!;
    const strength = keyIsSecret(`${keyHead.groups!.key!}${rest.groups!.key!}`);
    if (!strength || !acceptKeyedValue(value, strength, true)) continue;
    const end = keyTailLine.lastIndex;
    found.push({
      kind: strength === 'strong' ? 'password' : 'secret',
      start: end - value.length,
      end,
    });
  }
  return found;
}

/**
 * True when `key`, found at `start`, is the end of a base64 run of 24 or more characters it is
 * glued to (a digit, `/` or `+` before it), so the `=` after it is padding.
 */
function endsBase64Run(text: string, start: number, key: string): boolean {
  // Glued to what comes before (a key found in mid-run starts after a digit, `/` or `+`).
  if (!isBase64Code(text.charCodeAt(start - 1)) || !/^[A-Za-z0-9]+$/.test(key)) return false;
  // The run's head already replaced by a marker (the rescan of redacted output).
  if (
    text.charCodeAt(start - 2) === 93 &&
    redactedBefore.test(text.slice(Math.max(0, start - 80), start - 1))
  )
    return true;
  let runStart = start - 1;
  while (runStart > 0 && start - runStart < 24 && isBase64Code(text.charCodeAt(runStart - 1)))
    runStart--;
  return start + key.length - runStart >= 24;
}

const redactedBefore = /\[REDACTED(?::[\w-]+)?\]$/;

function isBase64Code(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 43 ||
    code === 47
  );
}

/** What ends a line for `.` and `^`/`$` in a JavaScript regular expression. */
function isLineTerminator(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

const longLine = 2000;
// The protocol words of `credentialTerms` too (`code_verifier`, `SAMLResponse`, `device_code`).
const keyword =
  /pass|pwd?|secret|token|key|auth|cred|cookie|session|sig(?:nature|(?![a-z]))|licen|dsn|sid|pat|api|access|login|private|salt|pin|otp|jwt|bearer|verifier|assertion|mnemonic|seed|saml|kek|dek|pepper|(?:device|recovery|backup|grant)[_-]?code/gi;

/**
 * Minified JSON and long log lines: run the pair patterns only in windows around each keyword (a
 * key is shorter than 80 characters, a value than 400), merged where they overlap.
 */
function findKeyedInLongLine(line: string, base: number, found: KeyedMatch[]): void {
  const windows: Array<[number, number]> = [];
  keyword.lastIndex = 0;
  for (let match = keyword.exec(line); match; match = keyword.exec(line)) {
    const start = Math.max(0, match.index - 80);
    const end = Math.min(line.length, match.index + 480);
    const last = windows[windows.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  for (const [start, end] of windows) findKeyedInLine(line.slice(start, end), base + start, found);
}

// Each pair pattern with a literal it cannot match without, checked first: most lines lack most.
const keyedPatterns: Array<[RegExp, (text: string) => boolean]> = [
  [keyValuePattern, () => true],
  [cliFlagPattern, (text) => text.includes('-')],
  [xmlPairPattern, () => true],
  [markdownCellPattern, (text) => text.includes('|')],
  [xmlElementPattern, (text) => text.includes('</')],
  [xmlNamedElementPattern, (text) => text.includes('</') && /(?:name|key)=/.test(text)],
  [callPairPattern, (text) => text.includes('(')],
  [typedDeclarationPattern, (text) => text.includes(':') && text.includes('=')],
  [quotedFlagPairPattern, (text) => text.includes('-') && text.includes(',')],
  [reverseComparisonPattern, (text) => text.includes('=')],
  [equalsCallPattern, (text) => text.includes('quals') || text.includes('compareTo(')],
];

// Source files' extensions (languages, scripts, markup): a key ending in one is a file's name.
const sourceFileKey =
  /\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kts?|swift|c|cc|cpp|h|hpp|cs|php|sh|bash|zsh|ps1|sql|html|css|scss|vue|svelte|exs?|erl|scala|clj|lua|pl|dart|tf|proto|gradle)$/i;

// Segments of a namespaced key after its first name: lower-case words, numbers, `*`, with at
// least two segments, one word and one number or `*` among them (`1:user:profile`, `user:*`;
// `12:34` is a time, `admin:letmein` a user and a password); words as short as a key's parts.
const colonKeyTail =
  /^(?=.*[a-z])(?=(?:.*:)?(?:\d+|\*)(?::|$))(?:[a-z]{1,12}(?:[_-][a-z]{1,12})*|\d{1,12}|\*)(?::(?:[a-z]{1,12}(?:[_-][a-z]{1,12})*|\d{1,12}|\*))+$/;
// Keys naming a password or a login (`auth:admin:letmein`, `basic_auth:deploy:1234`): what follows
// is a user and a password however plain.
const loginKey = /pass|pwd|secret|cred|auth|login/i;

/** The key and its value as one namespaced key, the key standing first or inside the chain. */
function readsAsColonKey(text: string, keyStart: number, key: string, value: string): boolean {
  // `aaa:1:pat:aab:dabefcgh`, `KEYS dek:0:dsn:aa:cgh`: the number stood before the secret word.
  const before = colonKeyBefore(text, keyStart);
  const inChain = before !== undefined && colonKeyTail.test(`${before}${key}:${value}`);
  // A login word opening the pair names a user and a password; after a name and a number
  // (`app:1:pwd:aaa:abc`, a `.pgpass` line's shape) it is one more segment, as the words after it.
  if (loginKey.test(key)) return inChain && /(?:^|:)(?:\d+|\*):/.test(before!);
  return inChain || colonKeyTail.test(value);
}

function findKeyedInLine(text: string, base: number, found: KeyedMatch[]): void {
  for (const [pattern, mayMatch] of keyedPatterns) {
    if (!mayMatch(text)) continue;
    pattern.lastIndex = 0;
    const pairs = pattern === keyValuePattern;
    const insideString = pairs ? openQuoteCounter(text) : undefined;
    for (
      let match = pairs ? findKeyValueMatch(pattern, text, 0) : pattern.exec(text);
      match;
      match = pairs ? findKeyValueMatch(pattern, text, pattern.lastIndex) : pattern.exec(text)
    ) {
      if (
        pattern === xmlPairPattern ||
        pattern === xmlElementPattern ||
        pattern === xmlNamedElementPattern
      ) {
        const cdata = match.groups!.cdata;
        const value = cdata ?? match.groups!.value!;
        const strength = keyIsSecretFor(match.groups!.key!, value);
        if (!strength || !acceptKeyedValue(value, strength, true)) continue;
        // The value ends the match but for its closing (`</…>`, `]]></…>`, or a quote).
        const closing =
          pattern === xmlNamedElementPattern
            ? cdata !== undefined
              ? 5
              : 2
            : pattern === xmlElementPattern
              ? match.groups!.key!.length + 3 + (cdata !== undefined ? 3 : 0)
              : -1;
        const valueStart =
          base +
          match.index +
          (closing === -1 ? match[0].lastIndexOf(value) : match[0].length - closing - value.length);
        found.push({
          kind: strength === 'strong' ? 'password' : 'secret',
          start: valueStart,
          end: valueStart + value.length,
        });
        continue;
      }
      const groups = match.groups ?? {};
      // A rejected pair's value may itself be the key of the next pair (`build: password = "x"`):
      // resume right after this key instead of after the whole match.
      // A table row's value cell may be the key cell of the next pair (`| env | token | <value> |`).
      if (pattern === keyValuePattern || pattern === markdownCellPattern)
        pattern.lastIndex = match.index + Math.max(1, groups.key?.length ?? 1);
      // `…s/s4PwXAdBMpJqs= dev@laptop`: the tail of a base64 run and its padding (an SSH public
      // key and its comment), not a key and `=`; `Pw` in a random run read as a password's name.
      if (
        pattern === keyValuePattern &&
        (groups.sep === '=' || groups.sep === '==') &&
        endsBase64Run(text, match.index, groups.key ?? '')
      )
        continue;
      // A key kept for its value's form (`GPG_KEY`, `token_issued_at`) is judged with the value.
      const strength = keyIsSecret(groups.key ?? '') ?? keptFormOf(groups.key ?? '')?.strength;
      if (!strength) continue;
      if (
        (pattern === cliFlagPattern || pattern === quotedFlagPairPattern) &&
        strength === 'weak' &&
        !/(?:token|key|secret|auth)/i.test(groups.key ?? '') &&
        !namesProtocolCredential(keySegments(groups.key ?? ''))
      ) {
        continue;
      }
      const quoted = groups.quoted !== undefined;
      let value = quoted ? groups.quoted! : (groups.bare ?? groups.code ?? '');
      if (!quoted) {
        // A query parameter's value ends at the next `&` (`?secret=<seed>&issuer=…`).
        if (pattern === keyValuePattern && /[?&]/.test(text[match.index - 1] ?? '')) {
          value = value.split('&')[0]!;
        }
        // `a=b&c=d…`, `k=k=k…`: a long bare run holding more separators is a chain of pairs or data,
        // whose own keys are tried next; checking it whole for every key would cost O(n × length).
        if (value.length > 120 && /[=:&]/.test(value.slice(0, -2))) continue;
        // `key: session_cwd}` in code: the closing bracket belongs to the code, not the value.
        // A sentence's full stop is not the value's; an ellipsis stays for the value's judge (above).
        value = stripUnbalancedClosers(
          trailingEllipsis.test(value) ? value : value.replace(/[.,;:]+$/, ''),
        );
      }
      if (groups.quote === '`') continue; // a shell command substitution, not a literal
      // `"password:" + id`, `'token=' + encodeURIComponent(t)`: the key ends a string literal and
      // the quote after the separator closes it; what follows is code, not a value. The key stands
      // inside a string when an odd number of that quote precede it on the line (a key's own
      // closing quote, `{"password":"…"}`, is the pattern's `close`).
      if (quoted && insideString && !groups.close && insideString(match.index, groups.quote!)) {
        const quoteAt = match.index + match[0].indexOf(groups.quote!, groups.key!.length);
        if (/^[ \t]*(?:[+),.;\]}%]|$)/.test(text.slice(quoteAt + 1, quoteAt + 40))) continue;
      }
      // `src/pwd.ts: cannot find name`, `pass.py: line 3`: a source file named like a secret, whose
      // diagnostic follows; a data or text file (`password.txt: hunter2`) may hold the value.
      if (pattern === keyValuePattern && !quoted && sourceFileKey.test(groups.key ?? '')) continue;
      // `src/get_pwd.ts:12:5: error`: a file name before a diagnostic's line and column is no key.
      if (
        !quoted &&
        /\.[A-Za-z][A-Za-z0-9]{0,4}$/.test(groups.key ?? '') &&
        /^\d+(?::\d+)+:?$/.test(value)
      ) {
        continue;
      }
      // `KEYS session:1:user:profile`, `GET token:v2:users`: a name glued by colons to plain words
      // and numbers is one namespaced key (Redis, caches, URNs), not a key and its value.
      if (
        pattern === keyValuePattern &&
        !quoted &&
        groups.sep === ':' &&
        readsAsColonKey(text, match.index, groups.key ?? '', value) &&
        text[match.index + match[0].lastIndexOf(value) - 1] === ':'
      ) {
        continue;
      }
      // After a subscript (`headers['cookie'] = cookieHeader`) the line is code: an unquoted
      // name on the right is a variable.
      if (!quoted && groups.close?.endsWith(']') && /^[A-Za-z_$][\w$]*$/.test(value)) continue;
      // `password: --from-env NAME`: a long flag is how the value is given, not the value. A flag is
      // named in words (`--password-stdin`, `--fromEnv`); a random value may start `--` too (one
      // base64url draw in 1,000), and `--wbH4gT` names no option.
      if (!quoted && /^--[A-Za-z]/.test(value) && readsAsWords(value.slice(2).split('=')[0]!))
        continue;
      // `var password: String?`, `val clientSecret: String? = null`, `token: Option<String> = …`:
      // a type annotation (Kotlin, Swift, TypeScript, Rust), not a value. A type is a name without
      // digits, marked optional, an array or generic, or followed by the declaration's `=`.
      if (
        pattern === keyValuePattern &&
        !quoted &&
        groups.sep === ':' &&
        isTypeAnnotation(
          value,
          text.slice(match.index + match[0].length, match.index + match[0].length + 8),
        )
      ) {
        continue;
      }
      // A quote left open at the line's end (`password: "abc` / `  def"`) has no closing quote.
      const closed = quoted ? match[0].lastIndexOf(`${groups.quote}${value}${groups.quote}`) : -1;
      const offset =
        closed >= 0 ? closed : match[0].lastIndexOf(quoted ? `${groups.quote}${value}` : value);
      const valueStart = base + match.index + offset + (quoted ? 1 : 0);
      const passphrase =
        !quoted && strength === 'strong' && /^(?::|=)$/.test(groups.sep ?? '')
          ? passphraseTail(text, value, valueStart - base + value.length)
          : 0;
      // A passphrase is judged whole: one short word of it (`zvvz`) may look like filler.
      const whole =
        passphrase > 0
          ? text.slice(valueStart - base, valueStart - base + value.length + passphrase)
          : value;
      if (keyIsSecretFor(groups.key ?? '', whole) === undefined) continue;
      if (!acceptKeyedValue(whole, strength, quoted, keyIsIdLike(groups.key ?? ''))) continue;
      found.push({
        kind: strength === 'strong' ? 'password' : 'secret',
        start: valueStart,
        end: valueStart + whole.length,
      });
    }
  }
}

/**
 * A format string's replacement field inside braces (`Password={password}`, `{cfg.pwd}`,
 * `{0}`, `{creds["pwd"]!r}`): a position, a name that reads as one, or an expression with member
 * access, a subscript or a call. A drawn value (`S9J_EvPabGPjEB`) is none of these.
 */
function isFormatSlot(value: string): boolean {
  const field = value.replace(/(?:![rsa])?(?::[^}]*)?$/, '');
  if (/^\d+$/.test(field)) return true;
  if (!/^[A-Za-z_][\w]*(?:(?:\.|\?\.)[A-Za-z_][\w]*|\[[^\]]*\]|\(\))*$/.test(field)) return false;
  return (/[.[(]/.test(field) && !hasDrawnPart(field)) || partsAreNames(field);
}

const typeName = /^(?:&(?:'static)?)?[A-Za-z_][A-Za-z_.]*(?:<[^<>\d]{0,60}>)?(?:\[\])?[?!]?$/;

/** True when `value`, after `name:`, is a type (`String?`, `Secret[]`, `Option<String>` + ` =`). */
function isTypeAnnotation(value: string, after: string): boolean {
  if (!typeName.test(value)) return false;
  return /[?!>\]]$/.test(value) || /^(?:[ \t]*=(?![=>])|<[A-Za-z_&])/.test(after);
}

/**
 * For increasing positions of one line: whether the position stands inside a string literal opened
 * by `quote`. A quote opens a string only after a character that is not a letter or digit (`it's`
 * holds an apostrophe, not a string); a backslash escapes the next character inside a string.
 * Read incrementally, so a line is read once however many keys it holds.
 */
function openQuoteCounter(line: string): (at: number, quote: string) => boolean {
  let read = 0;
  let open = 0; // the code of the quote that opened the current string, or 0
  return (at, quote) => {
    if (at < read) {
      read = 0;
      open = 0;
    }
    for (; read < at; read++) {
      const code = line.charCodeAt(read);
      if (open !== 0) {
        if (code === 92) read++;
        else if (code === open) open = 0;
      } else if ((code === 34 || code === 39) && !/[A-Za-z0-9]/.test(line[read - 1] ?? '')) {
        open = code;
      }
    }
    return open === quote.charCodeAt(0);
  };
}

// Words that make a spaced value a sentence (`password: must be at least 8 characters`) rather
// than a passphrase (`password: correct horse battery staple`).
const proseWords = new Set(
  (
    'a an the is are was were be been being at of to in on for and or but must should shall will ' +
    'would can could may might with without not no yes your you our my this that these those it ' +
    'its as by from if when then than use used using set see only any all required optional ' +
    'please here there which who what how where same new'
  ).split(' '),
);

/**
 * Length of the words continuing an unquoted value to the end of its line (`password: correct
 * horse battery staple`): a passphrase is one value. 0 when the rest reads as prose, code, a
 * comment or a command, or does not run to the end of the line.
 */
function passphraseTail(line: string, value: string, valueEnd: number): number {
  if (
    /^-{1,2}[A-Za-z]/.test(value) ||
    proseWords.has(value.toLowerCase()) ||
    isCodeReference(value) ||
    isTemplate(value)
  ) {
    return 0;
  }
  const rest = /^(?:[ \t]+(?:(?!\\[nrt"])[^\s"'`])+){1,8}(?=[ \t]*(?:\r?\n|\\n|\\r|$))/.exec(
    line.slice(valueEnd, valueEnd + 200),
  );
  if (!rest) return 0;
  const words = rest[0].trim().split(/[ \t]+/);
  for (const word of words) {
    if (
      !/^[\w!@#$%^&*+=~.-]+$/.test(word) ||
      word.startsWith('#') ||
      /[.,;:]$/.test(word) ||
      proseWords.has(word.toLowerCase()) ||
      /^-{1,2}[A-Za-z]/.test(word) ||
      // `ENV A=<value> PORT=8080`, `Environment=A=<value> B=c`: the next word is the next pair.
      /^[A-Za-z_][\w.]*=/.test(word)
    ) {
      return 0;
    }
  }
  return rest[0].length;
}

/** True for `ABCDEFGHIJ…` alphabets and `0123456789` runs: a generated key has no 8-long run. */
function hasAlphabetRun(value: string): boolean {
  let run = 1;
  for (let index = 1; index < value.length; index++) {
    run = value.charCodeAt(index) === value.charCodeAt(index - 1) + 1 ? run + 1 : 1;
    if (run >= 8) return true;
  }
  return false;
}

/** True when a base64 value decodes to readable text (`UGF0aWVuY2Ug…` = "Patience …"). */
function decodesToText(value: string): boolean {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const decoded = decodeBase64(base64.length % 4 === 1 ? base64.slice(0, -1) : base64);
  if (decoded === undefined || decoded.length === 0) return false;
  let printable = 0;
  for (let index = 0; index < decoded.length; index++) {
    const code = decoded.charCodeAt(index);
    if ((code >= 32 && code < 127) || code === 10 || code === 9) printable++;
  }
  return printable / decoded.length > 0.95 && /[a-z]{3,} [a-z]{2,}/i.test(decoded);
}

/** True when base64 decodes to printable ASCII: key material (DER, OpenSSH) is binary. */
function decodesToPrintable(base64: string): boolean {
  const clean = base64.replace(/=+$/, '');
  const decoded = decodeBase64(clean.slice(0, clean.length - (clean.length % 4)));
  if (decoded === undefined || decoded.length < 12) return false;
  let printable = 0;
  for (let index = 0; index < decoded.length; index++) {
    const code = decoded.charCodeAt(index);
    if (code >= 32 && code < 127) printable++;
  }
  return printable / decoded.length > 0.95;
}

/** True when a long base64 value decodes to a PEM key or a service-account JSON. */
function decodesToKeyMaterial(value: string): boolean {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const decoded = decodeBase64(base64.slice(0, base64.length - (base64.length % 4)));
  return decoded !== undefined && /PRIVATE KEY|private_key|client_secret/.test(decoded);
}

/**
 * What names the value that `line` (the text before it on its line) ends at: the key just before
 * it (`"nonce": "`, `X-CSRF-Token: `), an HTML element's `name` before its `value` or `content`
 * (`<input name="authenticity_token" value="`), or, where no key stands just before (a list's
 * item), the whole line. Another member of a one-line object (`{"nonce": 7, "value": "…"}`)
 * names nothing of this value.
 */
export function nameBeforeValue(line: string): string {
  const element = /\bname\s*=\s*["']([^"'<>]*)["'][^<>]*?\b(?:value|content)\s*=\s*["']?$/i.exec(
    line,
  );
  if (element !== null) return element[1]!;
  return keyAtLineEnd(line) ?? line;
}

/** True when the text before a value ends with a page cursor's key (`"NextToken": "`). */
export function keyNamesPageCursor(before: string): boolean {
  const line = before.slice(before.lastIndexOf('\n') + 1);
  const key = keyAtLineEnd(line);
  return key !== undefined && namesPageCursor(keySegments(key));
}

/**
 * True when the text just before a quoted value names it as public, fake or anti-forgery
 * (`publicToken = "…"`, `wrongLength := "…"`, `name="authenticity_token" value="…"`).
 */
export function keyDeclaresNotSecret(before: string): boolean {
  const line = before.slice(before.lastIndexOf('\n') + 1);
  if (/csrf|xsrf|authenticity|nonce/i.test(nameBeforeValue(line))) return true;
  // A signature (Anthropic thinking blocks, webhook and JWS signatures) or encrypted reasoning is
  // opaque data anyone holding the message already has; image and file bytes are content.
  if (
    /(?:signature|encrypted_content|encryptedcontent|["']data["']|base64|image|thumbnail|icon|font)["']?\s*(?:=>|:=|[:=])\s*$/i.test(
      line,
    )
  ) {
    return true;
  }
  const key = keyAtLineEnd(line, { trailingQuote: false });
  if (!key) return false;
  const segments = keySegments(key);
  return (
    namesPageCursor(segments) ||
    namesOAuthFrontChannelValue(segments) ||
    qualifiedNotSecret(segments) ||
    // A key that names no secret at all (`sortOrder`, `rookTable`) may say what its value is by any
    // of its words.
    (keyIsSecret(key) === undefined && segments.some((segment) => notSecretWord(segment))) ||
    segments.some((segment) => selfDeclaredFake.has(segment))
  );
}

// Anchored on the separator and a long value (rare) rather than on ~90 service names (a
// case-insensitive alternation is slow); the key before the separator is read back.
const servicePattern =
  /(?:=>|:=|[:=])(?<=[\w.-]["']?[ \t]*(?:=>|:=|[:=]))[ \t]*["']?(?<secret>[A-Za-z0-9_+/=.-]{20,200})(?![A-Za-z0-9_+/=.-])/g;

function keyBefore(match: RegExpExecArray): string {
  const before = match.input.slice(Math.max(0, match.index - 60), match.index);
  return /([\w.-]*)["']?[ \t]*$/.exec(before)![1]!;
}

/**
 * A value stated after "password is": it looks like a password when it is no word, name, path,
 * address, number, template or code and has something a word does not (a digit, a symbol, both
 * cases outside a capitalised word or camel-case name).
 */
/**
 * True when a part of `value` between `_-.~` separators reads as a word (`gpt4o-mini`,
 * `o200k_base`): four or more letters, lower case or capitalised, two of them vowels, in a value
 * whose parts are each in one case.
 */
function namesWithWordPart(value: string): boolean {
  // Case mixed inside a part (`jzx9uZHiDLV`) is a generator's, whatever the other parts read as.
  if (/[a-z][A-Z]|[A-Z]{2}[a-z]/.test(value)) return false;
  for (const part of value.split(/[_\-.~]/)) {
    if (/^[A-Za-z][a-z]{3,}$/.test(part) && (part.match(/[aeiouy]/gi)?.length ?? 0) >= 2) {
      return true;
    }
  }
  return false;
}

/**
 * True when most `/`-parted parts of `path` read as names (`etc`, `.ssh`, `id_rsa`, `Users`): a
 * drawn value's parts mix cases and digits at random (`bsOammMn6kc`, `s6IUHU0prxQ`).
 */
function mostPartsNamed(path: string): boolean {
  const parts = path.split('/').filter((part) => part !== '');
  const named = parts.filter(
    (part) =>
      /[A-Za-z]{2}/.test(part) &&
      (lowerCaseName.test(part) || readsAsWords(part.replace(/^\./, ''))),
  );
  return named.length * 2 > parts.length;
}

// Lower-case letters only, maybe joined by `-`/`_` and with an extension (`background`, `app-data`,
// `notes.txt`): words the word model may not know; base64 draws no digit and no capital in a row of
// six one time in 200.
const lowerCaseName = /^\.?[a-z]{2,}(?:[-_][a-z]+)*(?:\.[a-z0-9]{1,5})?$/;

function looksLikeStatedPassword(stated: string): boolean {
  // Markdown emphasis closing after the value (`**password = Multi-word-names**`) is not part of it.
  const value = stated.replace(/(?:\*\*|__)$/, '');
  if (value.length < 6) return false;
  if (
    isTemplate(value) ||
    isPlaceholder(value) ||
    isCodeReference(value) ||
    looksLikeWords(value)
  ) {
    return false;
  }
  if (!/[A-Za-z]/.test(value) || /^(?:[a-z][\w+.-]*:\/\/|~|\.\.?\/)/i.test(value)) return false;
  // A value opening with `/` is a path when most of its parts are names (`/run/secrets/db`,
  // `/home/me/.ssh/id_rsa`): standard base64 opens with `/` one time in 64 and parts itself with
  // it anywhere, between runs of mixed case (`/hEL…+2W…`, `/eLdmNdac/4Ng/xKTL`).
  if (value.startsWith('/') && pointsElsewhere(value) && mostPartsNamed(value)) return false;
  // A YAML tag (`password: !vault |`, `!!python/object`): a lower-case word after `!`.
  if (/^!!?[a-z]+(?:[/:][\w/:.-]*)?$/.test(value)) return false;
  // Brackets and semicolons are code (`Optional<String>`, `getToken();`), `@` with a dot an address.
  if (/[<>{}()[\];]/.test(value) || /^[^@\s]+@[\w-]+\.[\w.-]+$/.test(value)) return false;
  if (isVersionRange(value)) return false;
  // Words joined by `-_.` (`Multi-word-names`, `read_only`), each in one case or capitalised: a name.
  if (/^(?:[A-Z]?[a-z]+|[A-Z]+)(?:[-_.](?:[A-Z]?[a-z]+|[A-Z]+))*$/.test(value)) return false;
  // A word and a number, maybe a symbol (`Summer2024!`, `letmein123`): the commonest chosen password.
  if (/^[A-Za-z]{3,}\d+[^A-Za-z0-9]?$/.test(value)) return true;
  // Names join words with `-_.:/`; other symbols in a stated value are a password's.
  if (/[=@+~!#$%^&*?|]/.test(value)) return true;
  // Digits before letters (`9zignpuy`, `ab3cd`) start no word, except ordinals and `2fa`.
  if (/\d[A-Za-z]/.test(value.replace(/\b\d+(?:st|nd|rd|th|fa|[dkx])\b/gi, ''))) return true;
  if (readsAsWords(value)) return false;
  // Both cases other than a capitalised word (`UciPZIZAxj`, `INPJZGXTk`): names in camel case
  // were left above.
  const mixedCase = /[a-z]/.test(value) && /[A-Z]/.test(value) && !/^[A-Z][a-z]+$/.test(value);
  return /\d/.test(value) || /[^A-Za-z0-9]/.test(value) || mixedCase;
}

/**
 * For a prose statement whose secret word ends a longer name (`auth_token is`, `db-password was`):
 * the name read back whole must still name a secret (`csrf_token`, `public_key`, `fake_secret` do
 * not). A word standing alone (`the token is`) is judged by the phrase, as before.
 */
function proseKeyIsSecret(match: RegExpExecArray): boolean {
  const start = match.index;
  const joiner = match.input.charCodeAt(start - 1);
  // `_`, `-`, `.` join name parts; anything else (a space, a quote, the start) leaves the word alone.
  if (joiner !== 95 && joiner !== 45 && joiner !== 46) return true;
  const before = /[A-Za-z0-9_.-]{1,60}$/.exec(match.input.slice(Math.max(0, start - 60), start));
  if (!before) return true;
  const word = /^[A-Za-z]+(?:[ _-]?key)?/i.exec(match[0])![0];
  // `auth_token = "…"`, `DB_PASSWORD: …` right after the name is a pair: the keyed rules judge it.
  if (/^s?[ \t]*[:=]/.test(match[0].slice(word.length))) return false;
  return keyIsSecret(`${before[0]}${word.replace(/ /g, '_')}`) !== undefined;
}

/** Credentials carried by a request rather than a key name: headers, URLs, curl flags. */
export const contextRules: SecretRule[] = [
  {
    kind: 'authorization',
    hints: ['authorization'],
    pattern:
      /\b(?:Proxy-)?Authorization["']?\]?\s*(?:[:=]|,(?=\s*["']))\s*["']?\s*(?:(?:Bearer|Basic|Token|Digest|Bot|ApiKey|Key|Negotiate|OAuth|SSWS|JWT)\s+)?(?<secret>[^\s"',;]+)/gi,
    accept: (value, match) => {
      // `headers["Authorization"] = authValue`: after a subscript only a quoted literal is data.
      const lead = match[0].slice(0, match[0].length - value.length);
      if (lead.includes(']') && !/["']\s*(?:[A-Za-z]+\s+)?$/.test(lead)) return false;
      return (
        !isTemplate(value) &&
        !isPlaceholder(value) &&
        value.length >= 6 &&
        !/^[`{$(<]|^[#%]\{/.test(value)
      );
    },
  },
  {
    kind: 'bearer-token',
    hints: ['bearer'],
    pattern: /\bBearer\s+(?<secret>[A-Za-z0-9._~+/-]{16}[A-Za-z0-9._~+/-]*={0,2})/g,
    // `Bearer dev-codemie-user`: a name made of words is a test user's handle, not a token.
    accept: (value) => !isPlaceholder(value) && !isWordName(value),
  },
  {
    kind: 'api-key-header',
    hints: ['api', 'auth-token', 'access-token', 'private-token', 'subscription-key'],
    pattern:
      /\b(?:x-api-key|api-key|apikey|x-auth-token|x-access-token|x-jfrog-art-api|private-token|x-goog-api-key|x-apikey|ocp-apim-subscription-key)["']?\s*(?::|,(?=\s*["']))\s*["']?(?<secret>[^\s"',;]+)/gi,
    accept: (value, match) =>
      !isTemplate(value) &&
      !isPlaceholder(value) &&
      value.length >= 8 &&
      !/^[`{$(<]|^[#%]\{/.test(value) &&
      !isWordName(value) &&
      !isCodeReference(value) &&
      // `apikey: ./keys/api.json`: where the key is kept.
      !pointsElsewhere(value) &&
      // After a comma the name may be a record's field (`{"name": "APIKEY", "description": …}`)
      // rather than a call's first argument: the next string must not read as a word or name.
      (!match[0].slice(0, match[0].lastIndexOf(value)).includes(',') ||
        !/^(?:[A-Za-z][a-z]*(?:[A-Z][a-z]+)*|[A-Z]+)(?:[_-](?:[A-Za-z][a-z]*(?:[A-Z][a-z]+)*|[A-Z]+))*$/.test(
          value,
        )),
  },
  {
    kind: 'url-credentials',
    hints: ['://'],
    pattern:
      /\b[a-z][a-z0-9+.-]{1,20}:\/\/(?<user>[^\s:/@"'<>{}]*):(?<secret>[^\s@/"'<>]+)@(?=[A-Za-z0-9[\]._-])/gi,
    // A literal password in a URL is a credential even when it reads `pass` or `password`: the
    // scanners disagree on `user:password@`, and a real password left in the clear costs more
    // than one over-redacted example. `postgres:postgres@` (user = password) is a local default.
    // An ellipsis in the password is a cut or an elision (`bob:<password>...@`): what it shows is
    // judged, piece by piece.
    accept: (value, match) =>
      shownPieces(value).some(
        (shown) =>
          !isTemplate(shown) &&
          !vendorPlaceholder.test(shown) &&
          shown !== match.groups?.user &&
          !/^\d{1,5}$/.test(shown),
      ),
  },
  {
    kind: 'url-token',
    hints: ['://'],
    // `https://<token>@host` and `https://<token>:x-oauth-basic@host`: the user part is the token.
    pattern: /:\/\/(?<secret>[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*)(?::[^\s@/"']*)?@/g,
    accept: (value) => looksRandom(value, { minLength: 20, minEntropy: 3, allowHex: true }),
  },
  {
    kind: 'webhook-url',
    hints: ['hook'],
    // A webhook URL is its own credential (whoever holds it may post): Slack, Teams, Discord,
    // Zapier, CI systems, and any issuer without a rule. The path after the hook segment (or after
    // a `hooks.` host and its first path word) is the secret when it carries generated parts
    // (digits mixed with letters, 8+ characters).
    pattern:
      /\bhttps?:\/\/(?:[^\s"'<>/]*\bhooks?\.[^\s"'<>/]+(?:\/[a-z]+)?|[^\s"'<>/]+(?:\/[^\s"'<>/?#]+)*?\/(?:[\w-]*hooks?|webhooks?\w*|incomingwebhook))\/(?<secret>[^\s"'<>?#]{8,400})/gi,
    accept: (value) =>
      !isTemplate(value) &&
      !vendorPlaceholder.test(value) &&
      value
        .split(/[/@]/)
        .some(
          (part) =>
            part.length >= 8 && /\d/.test(part) && /[A-Za-z]/.test(part) && !isPlaceholder(part),
        ),
  },
  {
    kind: 'bundler-credentials',
    hints: ['BUNDLE_'],
    pattern: /\bBUNDLE_[A-Z0-9_]+__[A-Z]+["']?\s*[:=]\s*["']?(?<secret>[^\s"':]+:[^\s"']+)/g,
    accept: (value) => !isTemplate(value) && !vendorPlaceholder.test(value),
  },
  {
    kind: 'curl-credentials',
    hints: ['curl'],
    // Only curl's flags: `-u` means something else to `date`, `ps`, `sort`, ... The flag is looked
    // for within 2,000 characters of `curl` and before the next `curl`: an unbounded scan is
    // quadratic on a line of many `curl`s.
    pattern:
      /\bcurl\b(?:(?!curl\b)[^\n]|\\\r?\n){0,2000}?\s(?:-u|--user|--proxy-user)(?:\s+|=)["']?(?<user>[^\s:"'<]*)["']?:(?<secret>'[^'\s]+'|"[^"\s]+"|[^\s"']+)/g,
    accept: (value) => {
      const bare = value.replace(/^["']|["']$/g, '');
      return !isTemplate(bare) && !isPlaceholder(bare) && bare.length >= 4 && !/^[$(<]/.test(bare);
    },
  },
  {
    kind: 'curl-credentials',
    hints: ['curl'],
    // `curl -u <token>:` (an empty password): services that take a token as the user name.
    pattern:
      /\bcurl\b(?:(?!curl\b)[^\n]|\\\r?\n){0,2000}?\s(?:-u|--user)(?:\s+|=)["']?(?<secret>[A-Za-z0-9_.~+/-]{16}[A-Za-z0-9_.~+/-]*):(?=["']?(?:\s|$))/g,
    // The position says token (a user name with an empty password); the value need only not be a
    // name, a placeholder or a template. Entropy is no test here: it fails random values that
    // repeat characters.
    accept: (value) => !isPlaceholder(value) && !isTemplate(value) && !readsAsWords(value),
  },
  {
    kind: 'curl-header',
    hints: ['-h', '--header', 'curl'],
    // `curl -H "Name: value"` with any header name: a name about credentials (`Token`, `X-Auth-…`,
    // `Authentication`, `Cookie`) marks the value whatever it looks like; under any other name a
    // generated-looking value (`X-Tenant: <random>`) is redacted too.
    pattern:
      /(?<![\w-])(?:-[a-zA-Z]*H|--header)\s*(?:=\s*)?(?<quote>["']?)(?<name>[A-Za-z][\w-]{0,60})\s*:\s*(?<secret>[^"'\r\n]{1,2000}?)\k<quote>(?=\s|$|\\)/g,
    accept: (value, match) => {
      const name = match.groups!.name!;
      const bare = value
        .replace(/^(?:Bearer|Basic|Token|Digest|Bot|ApiKey|Key|OAuth|JWT)\s+/i, '')
        .trim();
      if (bare === '' || isTemplate(bare) || isPlaceholder(bare) || /^[$`{(<%]/.test(bare))
        return false;
      if (/^(?:set-)?cookie$/i.test(name)) {
        // `theme=dark` is a preference; a session, token or generated value is a credential.
        return bare.split(/;\s*/).some((pair) => {
          const [cookie = '', cookieValue = ''] = pair.split('=');
          return (
            (/sess|sid|token|auth|key|secret|jwt|pass|login/i.test(cookie) &&
              cookieValue.length >= 6) ||
            looksRandom(cookieValue, { minLength: 16, minEntropy: 3.5, allowHex: true })
          );
        });
      }
      if (/auth|token|key|secret|pass|session|cookie|cred|api/i.test(name)) {
        return bare.length >= 6 && !isCodeReference(bare) && !isWordName(bare);
      }
      // Under any other name the header is still a place credentials go, so the value is judged
      // by its shape, not its entropy (an entropy floor misses random values that happen to repeat
      // characters, `fgrcjpIoIIIaIpw3IgII`): one opaque token mixing three kinds of character that
      // does not read as words, a date, a version, a media type or an address.
      return (
        !/\s/.test(bare) &&
        bare.replace(/[^A-Za-z0-9]/g, '').length >= 16 &&
        characterClasses(bare) >= 3 &&
        !/^[a-z][\w+.-]*:\/\//i.test(bare) &&
        !isCodeReference(bare) &&
        !readsAsWords(bare)
      );
    },
  },
  {
    kind: 'password',
    hints: ['|', '>'],
    // A YAML block scalar under a secret-named key: the indented lines below are the value.
    pattern:
      /^(?<indent>[ \t]*)["']?(?<key>[A-Za-z_][\w.-]*)["']?[ \t]*:[ \t]*[|>][+-]?[ \t]*\r?\n(?<secret>(?:\k<indent>[ \t]+\S[^\r\n]*(?:\r?\n|$))+)/gm,
    accept: (value, match) => {
      const strength = keyIsSecretFor(match.groups!.key!, value.trim());
      if (!strength) return false;
      const body = value.trim();
      // A script or a document under the key (several words on a line) is not a value.
      return (
        body !== '' &&
        !/\s/.test(body.split(/\r?\n/)[0]!.trim()) &&
        acceptKeyedValue(body.replace(/\s+/g, ''), strength, true)
      );
    },
  },
  {
    kind: 'password',
    hints: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred', 'cookie', 'session', 'pat'],
    // A YAML scalar under a secret-named key that starts on the next, more-indented line
    // (`password:` / `    <value>`): the key's own line holds nothing (or a comment). A mapping, a
    // list, a flow collection or words below the key are structure or prose, not a value.
    pattern:
      /^(?<indent>[ \t]*)(?:-[ \t]+)?["']?(?<key>[A-Za-z_][\w.-]{0,100})["']?[ \t]*:[ \t]*(?:#[^\r\n]{0,200})?\r?\n\k<indent>[ \t]+(?<secret>(?![^\r\n]*:(?:[ \t]|$))(?!-(?:[ \t]|$))[^\s#|>[{&*!][^\r\n]{0,300}(?:\r?\n\k<indent>[ \t]+[^\s#][^\r\n]{0,300}){0,8})/gm,
    accept: (value, match) => {
      const lines = value.split(/\r?\n/).map((line) => line.trim());
      const next = match.index + match[0].length;
      const rest = match.input.slice(next, next + 1);
      // The value's last line is the last one more indented than the key: the pattern stops at 8.
      if (rest !== '' && rest !== '\n' && rest !== '\r') return false;
      if (lines.some((line) => /^(?:-(?:\s|$)|[\w.\-"' ]+:(?:\s|$)|#)/.test(line))) return false;
      const quote = /^["']/.exec(lines[0]!)?.[0];
      const joined = lines.join('');
      const body = quote === undefined ? joined : joined.slice(1).replace(/["']\s*$/, '');
      if (lines.some((line) => /\s/.test(line.replace(/^["']|["']$/g, '')))) return false;
      const strength = keyIsSecretFor(match.groups!.key!, body);
      return strength !== undefined && acceptKeyedValue(body, strength, quote !== undefined);
    },
  },
  {
    kind: 'password',
    hints: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred', 'cookie', 'session', 'pat'],
    // A YAML plain or quoted scalar under a secret-named key that goes on over more-indented lines
    // (`password: "abc` / `  def"`): every line of it is the value. The lines are bounded (a
    // credential is short), and the next line at the key's indentation ends it.
    pattern:
      /^(?<indent>[ \t]*)(?:-[ \t]+)?["']?(?<key>[A-Za-z_][\w.-]*)["']?[ \t]*:[ \t]+(?<secret>[^\s#|>][^\r\n]{0,300}(?:\r?\n\k<indent>[ \t]+[^\s#][^\r\n]{0,300}){1,8})/gm,
    accept: (value, match) => {
      const strength = keyIsSecretFor(match.groups!.key!, value);
      if (!strength) return false;
      const lines = value.split(/\r?\n/).map((line) => line.trim());
      // A mapping or a list below the line, or a comment, is structure, not a continued value.
      if (lines.slice(1).some((line) => /^(?:-\s|[\w.-]+:(?:\s|$))/.test(line))) return false;
      const quote = /^["']/.exec(lines[0]!)?.[0];
      const joined = lines.join('');
      const body = quote === undefined ? joined : joined.slice(1).replace(/["']\s*$/, '');
      // Words over lines are prose (a description); a credential has no spaces.
      if (lines.some((line) => /\s/.test(line.replace(/^["']|["']$/g, '')))) return false;
      return acceptKeyedValue(body, strength, quote !== undefined);
    },
  },
  {
    kind: 'password',
    hints: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred', 'cookie', 'session'],
    // A literal under a secret-named key continued over lines by concatenation: `api_key = "abc" +`
    // / `  "def"` (JavaScript, Java, C#), `("abc"` / ` "def")` (Python, C, Go's `+`), `"abc" .`
    // (PHP). The pieces are one value, judged joined, and redacted together from the first piece
    // to the last, so the code reads `api_key = "[REDACTED]"`. A piece with a space is prose (a
    // long message split over lines), not a credential.
    pattern:
      /(?<![\w$.])(?<key>[A-Za-z_$][\w$.-]{0,100})["']?\]?[ \t]*(?::=|=|:)[ \t]*\(?[ \t]*["'](?<secret>[^\s"'][^"'\r\n]{0,300}(?:["'][ \t]*[+.]?[ \t]*\\?\r?\n[ \t]*[+.]?[ \t]*["'][^"'\r\n]{1,300}){1,8})["']/g,
    accept: (value, match) => {
      const pieces = value.split(/["'][ \t]*[+.]?[ \t]*\\?\r?\n[ \t]*[+.]?[ \t]*["']/);
      if (pieces.some((piece) => piece === '' || /\s/.test(piece))) return false;
      const joined = pieces.join('');
      const strength = keyIsSecretFor(match.groups!.key!, joined);
      return strength !== undefined && acceptKeyedValue(joined, strength, true);
    },
  },
  {
    kind: 'password',
    hints: ['password', 'passphrase', 'token', 'secret', 'key', 'pwd', 'passwd'],
    // Prose: "the admin password is X", "your API token is: X", "password was set to X", "password
    // for db: X", "the password for the vpn is X". The phrase
    // is the evidence; the value need only look like a password rather than the next word of the
    // sentence: no word, name, path, template or code, and something a word does not have (a
    // digit, a symbol, or both cases outside a name: `UciPZIZAxj`, `Summer2024!`).
    // The secret word may end a longer name (`auth_token is`, `db-password was`, `CLIENT_SECRET:`):
    // the whole name is then read back and judged as a key (`csrf_token is` names no secret).
    pattern:
      /(?<![A-Za-z0-9])(?:password|passphrase|passwd|pwd|token|(?:secret|private)(?:[ _-]?key)?|api[ _-]?key|access[ _-]?key)s?(?:[ \t]+(?:for|of|on)[ \t]+(?:the[ \t]+)?[\w.@-]{1,40}(?:[ \t]+[a-z]{2,12})?)?(?:[ \t]+(?:is|was|=|:|(?:is |was |has been )?(?:set|changed|reset) to|is now)|[ \t]*[:=])[ \t:]+["'`]?(?<secret>[^\s"'`]{6,200}?)["'`]?(?=[\s,;)]|[.!?](?:\s|$)|$)/gi,
    // An ellipsis in the value is a cut or an elision: each piece shown is judged alone. After a
    // quote, an operator (`"password: "+name`, PHP's `.`) ends a string built in code: what
    // follows is code. Two dots or more open an ellipsis (`"...<end of a value>"`), not an operator.
    accept: (value, match) =>
      !(
        /["'`]$/.test(match[0].slice(0, match[0].lastIndexOf(value))) &&
        /^(?:[+),;\]}%|&]|\.(?!\.))/.test(value)
      ) &&
      proseKeyIsSecret(match) &&
      shownPieces(value).some(
        (piece) =>
          piece.length >= 6 && !showsTaggedHeaderOnly(piece) && looksLikeStatedPassword(piece),
      ),
  },
  {
    kind: 'password',
    hints: ['password', 'passphrase', 'passwd', 'token', 'secret'],
    // Prose naming the value right after the word, with no `is` or colon: "use the password X to
    // log in", "try the token X". Without the phrase's verb the word alone is weak evidence (`the
    // password field`, `token budget`, `the token gpt-4o-2024-08-06`), so the value is 16+
    // characters mixing both cases and digits in a token's shape (no word part, camel-case name or
    // UUID; hex may be a commit), or a stated password with a digit and a symbol no name has
    // (`blue4180&O`). Sentence punctuation after the value is not part of it, nor are brackets,
    // escapes or a list's commas (code, a heading over an escaped line break).
    pattern:
      /(?<![A-Za-z0-9_.-])(?:[Pp]ass(?:word|phrase|wd)|PASS(?:WORD|PHRASE|WD)|[Tt]oken|TOKEN|[Ss]ecret|SECRET)[ \t]+["'`]?(?<secret>[\w+/=-][^\s"'`\\()[\]{}<>,;]{6,198}[^\s"'`\\()[\]{}<>,;.:!?])["'`]?(?=[\s.,;:!?)]|$)/g,
    accept: (value) =>
      !isPlaceholder(value) &&
      ((value.length >= 16 &&
        /[a-z]/.test(value) &&
        /[A-Z]/.test(value) &&
        /\d/.test(value) &&
        !isUuid(value) &&
        !namesWithWordPart(value) &&
        !readsAsCamelName(value.replace(/\d+/g, '')) &&
        acceptKeyedValue(value, 'weak', false)) ||
        (/[!@#$%^&*+=?~|]/.test(value) &&
          /\d/.test(value) &&
          /[A-Za-z]/.test(value) &&
          looksLikeStatedPassword(value))),
  },
  {
    kind: 'service-key',
    hints: [...serviceNames],
    pattern: servicePattern,
    accept: (value, match) => keyNamesService(keyBefore(match)) && acceptServiceValue(value),
  },
  {
    kind: 'password',
    hints: ['auth'],
    // A user and password pair given as two literals: `auth=("bob", "…")` (requests, httpx),
    // `http_auth=(…)` / `basic_auth=(…)` (Elasticsearch), `HTTPBasicAuth("bob", "…")`,
    // `aiohttp.BasicAuth(…)`. The second literal is the password. A list (`auth: ['read', 'write']`)
    // is a set of modes or scopes, not a pair.
    pattern:
      /(?:\b(?:auth|http_auth|basic_auth|proxy_auth)\s*[=:]\s*\(|\b(?:HTTP)?(?:Basic|Digest|Proxy)Auth\()\s*(?<q1>["'])[^"'\r\n]{0,200}\k<q1>\s*,\s*(?<q2>["'])(?<secret>[^"'\r\n]{1,200})\k<q2>/g,
    accept: (value) =>
      value.length >= 3 && !/\s/.test(value) && !isTemplate(value) && !isPlaceholder(value),
  },
  {
    kind: 'mnemonic',
    hints: ['mnemonic', 'seed', 'phrase'],
    // A wallet's recovery phrase (BIP-39: 12, 15, 18, 21 or 24 lower-case words) under a key or
    // in a sentence naming it: the words are the wallet's private key. Prose under such a name
    // has short words (`a`, `to`) and capitals that break the run.
    pattern:
      /(?:mnemonic|seed|recovery[ _-]?phrase|secret[ _-]?phrase|backup[ _-]?phrase|seed[ _-]?words)(?:[ _-]?(?:phrase|words))?["']?[ \t]*(?:[:=]|is:?|was:?)[ \t]*["'`]?(?<secret>[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})(?![ \t]*[a-z])/gi,
    accept: (value) => {
      // A sentence may capitalise the first word; the others are lower-case.
      if (value.slice(1) !== value.slice(1).toLowerCase()) return false;
      const words = value.split(/[ \t]+/).length;
      return words % 3 === 0 && words >= 12 && words <= 24;
    },
  },
  {
    kind: 'npm-auth',
    hints: ['_auth', '_password'],
    // `.npmrc` registry credentials: whatever follows `:_authToken=` is the credential, however
    // typed it looks; only `${NPM_TOKEN}` references and `xxxx` placeholders stay.
    pattern: /_(?:authToken|auth|password)(?<=(?:^|[\s:])_\w+)\s*=\s*["']?(?<secret>[^\s"']+)/gm,
    accept: (value) => !isTemplate(value) && !vendorPlaceholder.test(value) && value.length >= 8,
  },
  {
    kind: 'npm-auth',
    hints: ['_auth', '_password'],
    // `npm config set //registry.example.com/:_authToken <token>`: the registry-scoped key and its
    // value parted by a space, as the CLI takes them.
    pattern: /:_(?:authToken|auth|password)[ \t]+["']?(?<secret>[^\s"']+)/g,
    accept: (value) => !isTemplate(value) && !vendorPlaceholder.test(value) && value.length >= 8,
  },
  {
    kind: 'client-id',
    hints: ['client', 'tenant', 'subscription'],
    // `AZURE_CLIENT_ID=<uuid>`, `ad_tenant_id: <uuid>`: a provider's client, tenant or
    // subscription id names the account the credentials belong to; scanners report it. A bare
    // `clientId` (no provider named) is an application's own id and stays.
    pattern:
      /(?:client|tenant|subscription)[_-]?id["']?\s*(?:=>|:=|[:=])\s*["']?(?<secret>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?![\w-])/gi,
    accept: (_value, match) => {
      // The provider is the part of the key before `client`/`tenant` (read back: a pattern
      // starting with it would be tried at every position).
      const before = match.input.slice(Math.max(0, match.index - 40), match.index);
      const provider = /[A-Za-z0-9_-]*$/.exec(before)![0].replace(/[_-]+$/, '');
      const last = keySegments(provider).at(-1);
      return (
        last !== undefined &&
        !/^(?:the|my|your|a|an|oauth|app|api|default|test|example|sample|fake|dummy)$/.test(last)
      );
    },
  },
  {
    kind: 'high-entropy-string',
    // A quoted string that is nothing but a long base64 run of high entropy (detect-secrets'
    // Base64 plugin works the same way): keys, encrypted blobs, signed cookies. Integrity
    // digests (`sha512-…`) and anything shorter than 40 characters are left alone.
    // `X{40}X*`, not `X{40,}`: V8 runs an open-ended count of 4 or more as a loop that keeps a
    // backtrack entry per character, and a quoted 4 MB image (~5.6 M characters) overflows its
    // stack (RangeError); a plain `X*` keeps none. Every rule here is written so.
    pattern: /(?<q>["'])(?<secret>[A-Za-z0-9+/_-]{40}[A-Za-z0-9+/_-]*={0,2})\k<q>/g,
    accept: (value, match) => {
      if (/^(?:sha\d+|md5)-/i.test(value)) return false;
      if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/\d/.test(value)) return false;
      if (isPlaceholder(value) || hasAlphabetRun(value) || shannonEntropy(value) < 4.5)
        return false;
      const before = match.input.slice(Math.max(0, match.index - 200), match.index);
      if (keyDeclaresNotSecret(before) || keyNamesPublicId(before)) return false;
      // Digests are written base64 too; the line says so (`sha256`, `hash`, `integrity`).
      const line = before.slice(before.lastIndexOf('\n') + 1);
      if (/sha-?\d|md5|hash|digest|integrity|checksum|fingerprint/i.test(nameBeforeValue(line))) {
        return false;
      }
      // Credentials are short; a run of 1,000+ characters is content (image bytes, an encrypted
      // blob) unless it decodes to a key.
      if (value.length >= 1000) return decodesToKeyMaterial(value);
      return !decodesToText(value);
    },
  },
  {
    kind: 'connection-string-password',
    hints: ['password', 'pwd'],
    // A JSON string's escapes (`\n`, `\"`) end the value: they are line and string ends in the text.
    pattern: /(?:^|[;"'\s])(?:Password|Pwd)\s*=\s*(?<secret>(?:(?!\\[nrt"\\/])[^;"'\s])+)/gi,
    // Code is not a connection string: `password = input(...)`, `password=false`. Nor is a list:
    // a connection string ends its values with `;`, so a value ending in `,` is an argument or an
    // item (`connect(user=u, password=db_password, host=h)`), left to the keyed rules, which
    // read code apart from literals.
    accept: (value) =>
      !value.endsWith(',') &&
      !isTemplate(value) &&
      !isPlaceholder(value) &&
      value.length >= 4 &&
      (!isCodeReference(value) || hasDrawnPart(value)) &&
      !/[()[\]]/.test(value) &&
      // `PASSWORD=/run/secrets/db`: a file that holds the password, as the keyed rules read it.
      !pointsElsewhere(value) &&
      !/^(?:true|false|null|none|nil|undefined)$/i.test(value),
  },
  {
    kind: 'connection-string-password',
    hints: ['password', 'pwd'],
    // ODBC and ADO.NET quote a value in braces (`PWD={a;b}}c}`, `}}` a literal brace), so that it
    // may hold `;`. A format slot (`Password={password}`, `{cfg.pwd}`) is code, not a value.
    // A quote inside the braces is code that builds the string (`PWD={" + password + "}"`), not a value.
    pattern:
      /(?:^|[;"'\s])(?:Password|Pwd)\s*=\s*\{(?<secret>(?:[^{}\r\n"']|\}\}){1,300})\}(?!\})/gi,
    accept: (value) =>
      value.length >= 4 &&
      !/^\s|\s$/.test(value) &&
      !isTemplate(value) &&
      !isPlaceholder(value) &&
      !isFormatSlot(value) &&
      !isCodeReference(value),
  },
  {
    kind: 'connection-string-password',
    hints: ['jdbc:oracle', 'jdbc:Oracle', 'JDBC:ORACLE'],
    // Oracle's JDBC and OCI URLs carry `user/password@` before the host
    // (`jdbc:oracle:thin:scott/<password>@//db:1521/svc`); `jdbc:oracle:thin:@db` has none.
    pattern:
      /jdbc:oracle:(?:thin|oci8?|kprb):[A-Za-z0-9_$#.]{1,128}\/(?<secret>[^\s@/"'`;]{1,200})@/gi,
    accept: (value) => !isTemplate(value) && !isPlaceholder(value) && value.length >= 3,
  },
  {
    kind: 'password',
    hints: ['identified'],
    // SQL sets a password with `IDENTIFIED BY` (MySQL, MariaDB, Oracle; `IDENTIFIED WITH <plugin>
    // BY`), quoted or, in Oracle, bare. A hash (`BY PASSWORD '*…'`, `BY VALUES '…'`), a bind
    // variable (`?`, `:pw`, `%s`, `@pw`) or a template is no password.
    pattern:
      /\bIDENTIFIED[ \t]+(?:WITH[ \t]+[\w'"]{1,64}[ \t]+)?BY[ \t]+(?<quote>['"]?)(?<secret>[^\s'";,)]{1,200}|(?<=['"])[^'"\r\n]{1,200}(?=['"]))\k<quote>/gi,
    accept: (value, match) =>
      value.length >= 3 &&
      // A bare value needs SQL around it: the keywords in capitals, or a user or role named before
      // them on the line. In prose (`rows are identified by primary key`) the words are English.
      (match.groups!.quote !== '' ||
        /^IDENTIFIED[ \t]/.test(match[0]) ||
        /\b(?:create|alter)[ \t]+(?:user|role|login)\b/i.test(
          match.input.slice(match.input.lastIndexOf('\n', match.index) + 1, match.index),
        )) &&
      !/^(?:PASSWORD|VALUES)$/i.test(value) &&
      !/^[?:%@$]/.test(value) &&
      !isTemplate(value) &&
      !isPlaceholder(value) &&
      !isCodeReference(value),
  },
];
