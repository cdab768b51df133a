/**
 * Prefixes whose issuers document the whole token shape (length, alphabet, segments), with the
 * built-in rule kind that encodes that shape. A value that starts with one of these prefixes but
 * that its own rule rejects (wrong length, a doubled separator, a mangled checksum marker, a body
 * cut short) is the scanners' deliberate near-miss or a truncated display, not a credential of an
 * unknown family: the generic token-shape layer stands down for it. When the owning kind is
 * switched off (`disabledKinds`), the prefix is unknown again and the generic layer judges it.
 * Only prefixes unique to one issuer are listed: `sk_` alone (Stripe and others) is not.
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

/**
 * Segment layouts only one issuer mints, with the kind that encodes the exact format: Discord bot
 * tokens (base64 user id, 6-character timestamp, HMAC, parted by dots) and SendGrid keys (two
 * letters, 22 and 43 characters). A value laid out so that its issuer's rule turns it down (a
 * segment a character short, another first letter) is a near-miss, as with prefixes above.
 */
export const documentedLayouts: ReadonlyArray<readonly [layout: RegExp, kind: string]> = [
  [/^[A-Za-z0-9][\w-]{20,30}\.[\w-]{4,8}\.[\w-]{20,45}$/, 'discord-token'],
  [/^[A-Z]{2}\.[\w-]{22}\.[\w-]{43}$/, 'sendgrid-key'],
];

// A run's characters short of `/` and `=`, which part separate values (path segments, pairs).
const tokenCharacter = /[A-Za-z0-9_.~+-]/;
const bodyCharacter = /[\w-]/;

/**
 * The kind owning the documented prefix or layout of `text` from `start` to `end`, if any. Called
 * only for the few spans the generic layer reports, so a scan of the short lists is enough.
 */
export function documentedFormatOwner(
  text: string,
  start: number,
  end: number,
): string | undefined {
  // The generic layer judges pieces of a run (parted at `---`, or at a separator it trims): a
  // piece inherits the prefix its run starts with.
  let runStart = start;
  while (runStart > 0 && start - runStart < 1000 && tokenCharacter.test(text[runStart - 1]!)) {
    runStart--;
  }
  for (const [prefix, kind] of documentedPrefixes) {
    if (text.startsWith(prefix, start) || text.startsWith(prefix, runStart)) return kind;
  }
  // The generic layer trims separators off a span's ends; a layout counts them, over the span
  // and over the whole run it was cut from.
  let through = end;
  while (through < text.length && through - runStart <= 100 && bodyCharacter.test(text[through]!)) {
    through++;
  }
  for (const from of new Set([start, runStart])) {
    if (through - from > 100) continue;
    const value = text.slice(from, through);
    for (const [layout, kind] of documentedLayouts) {
      if (layout.test(value)) return kind;
    }
  }
  return undefined;
}
