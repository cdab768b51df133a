import { isCutShortHeader } from './cut-short-header.js';
import { ellipsisRun, isPlaceholder, readsAsWords } from './secret-heuristics.js';
import { isSpelledInWords } from './spelled-in-words.js';

/**
 * Prefixes unique to one issuer, with the built-in rule kind that encodes the issuer's whole token
 * shape (length, alphabet, segments). `sk_` alone (Stripe and others) is not listed.
 */
export const documentedPrefixes: ReadonlyArray<readonly [prefix: string, kind: string]> = [
  ['SG.', 'sendgrid-key'],
  ['ops_eyJ', 'onepassword-token'],
  ['ntn_', 'notion-token'],
  ['sk-proj-', 'openai-key'],
  ['sk-svcacct-', 'openai-key'],
  ['sk-admin-', 'openai-key'],
  ['sk-ant-', 'anthropic-key'],
  ['sk-or-v1-', 'openrouter-key'],
  ['ghp_', 'github-token'],
  ['gho_', 'github-token'],
  ['ghu_', 'github-token'],
  ['ghr_', 'github-token'],
  ['github_pat_', 'github-token'],
  ['glpat-', 'gitlab-token'],
  ['glptt-', 'gitlab-token'],
  ['gloas-', 'gitlab-token'],
  ['sk_live_', 'stripe-key'],
  ['rk_live_', 'stripe-key'],
  ['npm_', 'npm-token'],
  ['pypi-AgE', 'pypi-token'],
  ['shpat_', 'shopify-token'],
  ['shpss_', 'shopify-token'],
  ['shpca_', 'shopify-token'],
  ['shppa_', 'shopify-token'],
  ['hvs.', 'vault-token'],
  ['hvb.', 'vault-token'],
  ['hvr.', 'vault-token'],
  ['gsk_', 'groq-key'],
  ['pplx-', 'perplexity-key'],
  ['dckr_pat_', 'docker-token'],
  ['glsa_', 'grafana-token'],
  ['sntryu_', 'sentry-token'],
  ['rdme_', 'readme-token'],
  ['PMAK-', 'postman-key'],
  ['pul-', 'pulumi-token'],
  ['cfat_', 'cloudflare-token'],
  ['cfut_', 'cloudflare-token'],
  ['lin_api_', 'linear-key'],
  ['lin_oauth_', 'linear-key'],
  ['ATBB', 'bitbucket-app-password'],
  ['bkua_', 'buildkite-token'],
  ['CCIPAT_', 'circleci-token'],
  ['GOCSPX-', 'google-oauth-secret'],
  ['CFPAT-', 'contentful-token'],
  ['lsv2_pt_', 'langsmith-key'],
  ['lsv2_sk_', 'langsmith-key'],
  ['dop_v1_', 'digitalocean-token'],
  ['doo_v1_', 'digitalocean-token'],
  ['dor_v1_', 'digitalocean-token'],
  ['rubygems_', 'rubygems-key'],
  ['AGE-SECRET-KEY-1', 'age-secret-key'],
  ['EZAK', 'easypost-token'],
  ['EZTK', 'easypost-token'],
  ['HRKU-', 'heroku-key'],
  ['sgp_', 'sourcegraph-token'],
  ['NRAK-', 'newrelic-key'],
  ['xkeysib-', 'brevo-key'],
  ['shippo_live_', 'shippo-token'],
  ['shippo_test_', 'shippo-token'],
  ['CLOJARS_', 'clojars-token'],
  ['dt0c01.', 'dynatrace-token'],
  ['AIza', 'google-api-key'],
];

// Issuers whose documented body is hex (Sourcegraph after its optional instance segment, GitLab
// pipeline triggers, Shopify, RubyGems, Brevo): a token of theirs cut short or glued to more
// characters still opens with 16 hex characters. A body that leaves hex sooner (`sgp_local_d45b6G…`)
// is a look-alike drawn in another alphabet, not their token: the generic layer judges it.
export const hexBodies: ReadonlyArray<readonly [prefix: string, opening: RegExp]> = [
  ['sgp_', /^(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{16}/],
  ['glptt-', /^[a-fA-F0-9]{16}/],
  ['shpat_', /^[a-fA-F0-9]{16}/],
  ['shpss_', /^[a-fA-F0-9]{16}/],
  ['shpca_', /^[a-fA-F0-9]{16}/],
  ['shppa_', /^[a-fA-F0-9]{16}/],
  ['rubygems_', /^[a-fA-F0-9]{16}/],
  ['xkeysib-', /^[a-fA-F0-9]{16}/],
];
const hexOpening = new Map(hexBodies);

interface PrefixSpan {
  kind: string;
  start: number;
  end: number;
}

const escapeForPattern = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first, so `sk-proj-` wins over a shorter prefix of it at the same position.
const byLength = [...documentedPrefixes].sort((a, b) => b[0].length - a[0].length);
const kindOf = new Map(byLength);
const prefixToken = new RegExp(
  `(?<![A-Za-z0-9])(${byLength.map(([prefix]) => escapeForPattern(prefix)).join('|')})([A-Za-z0-9_.~-]{16,1000})`,
  'g',
);

// An issuer whose body is standard base64 (`ops_eyJ` + base64 JSON) writes `+` and `/` inside it;
// read with the common alphabet alone, a token glued to a name (`backup_ops_eyJ…/…`, `q=a+ops_eyJ…`,
// where the issuer's rule stands down) was cut at its first `/` and that first part kept.
const base64Bodied = byLength.filter(([prefix]) => prefix.endsWith('eyJ'));
const base64PrefixToken = new RegExp(
  `(?<![A-Za-z0-9])(${base64Bodied.map(([prefix]) => escapeForPattern(prefix)).join('|')})([A-Za-z0-9+/]{16,1000}={0,3})`,
  'g',
);

/**
 * True when a third or more of neighbouring characters step through the alphabet or the digits
 * (`aBcDeF…1234567890`, `abc123xyz-456def789`): typed for an example, not generated (a random body
 * has about one such step in 36; at a quarter, a random 24-character body read as typed about once
 * in 70,000 draws, measured over 200,000).
 */
function isTyped(body: string): boolean {
  const lowered = body.toLowerCase();
  let steps = 0;
  for (let index = 1; index < lowered.length; index++) {
    if (lowered.charCodeAt(index) === lowered.charCodeAt(index - 1) + 1) steps++;
  }
  return steps * 3 >= lowered.length - 1;
}

/**
 * Values that start with an issuer's documented prefix and go on with a token body its rule turned
 * down: a token cut short, glued to more characters, missing its checksum suffix, or minted in a
 * longer format than the rule knows. The prefix is the issuer's own mark, so such a value is its
 * secret or most of one; it is redacted under the issuer's kind (switching that kind off switches
 * this off too). A body must be 16+ characters after trailing separators are dropped, mix at least
 * two of upper case, lower case and digits, and be neither a placeholder (`xxxx…`,
 * `your_token_here`), words (`notarealkey`, `hellOworld380_testin`) nor typed (`aBcDeF123456`).
 */
export function findDocumentedPrefixTokens(text: string): PrefixSpan[] {
  const spans: PrefixSpan[] = [];
  prefixToken.lastIndex = 0;
  for (let match = prefixToken.exec(text); match !== null; match = prefixToken.exec(text)) {
    const span = acceptedSpan(text, match.index, match[1]!, match[2]!);
    if (span !== undefined) spans.push(span);
  }
  if (base64Bodied.length === 0) return spans;
  let byStart: Map<number, number> | undefined;
  base64PrefixToken.lastIndex = 0;
  for (
    let match = base64PrefixToken.exec(text);
    match !== null;
    match = base64PrefixToken.exec(text)
  ) {
    // Only a body the common alphabet cuts short (one holding `+` or `/`) is read again; it takes
    // the place of the shorter reading at the same start, so a token is one span.
    if (!/[+/]/.test(match[2]!)) continue;
    const span = acceptedSpan(text, match.index, match[1]!, match[2]!);
    if (span === undefined) continue;
    byStart ??= new Map(spans.map((found, index) => [found.start, index]));
    const same = byStart.get(span.start);
    if (same === undefined) spans.push(span);
    else spans[same] = span;
  }
  return spans;
}

function acceptedSpan(
  text: string,
  start: number,
  prefix: string,
  matched: string,
): PrefixSpan | undefined {
  // No issuer's format holds an ellipsis: one glued after a token (`ghp_…...next`) ends it.
  let body = matched.split(ellipsisRun)[0]!;
  while (body.length > 0 && '._~-'.includes(body[body.length - 1]!)) body = body.slice(0, -1);
  if (body.length < 16) return undefined;
  const end = start + prefix.length + body.length;
  // A self-describing token (base64 JSON after the issuer's tag) cut short before its first
  // generated value shows its header alone (`{"signInAddress":"https:...`): no secret is in view.
  if (isCutShortHeader(text, start, end)) return undefined;
  const classes =
    Number(/[A-Z]/.test(body)) + Number(/[a-z]/.test(body)) + Number(/[0-9]/.test(body));
  if (
    classes < 2 ||
    isPlaceholder(body) ||
    readsAsWords(body) ||
    isSpelledInWords(body) ||
    isTyped(body) ||
    hexOpening.get(prefix)?.test(body) === false
  ) {
    return undefined;
  }
  return { kind: kindOf.get(prefix)!, start, end };
}
