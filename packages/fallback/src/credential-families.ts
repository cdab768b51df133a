/**
 * Test and benchmark data, not part of the public API.
 * Credential families as their issuers and the major scanners document them (prefix, alphabet,
 * length, checksum): facts, written here as generators. Every call makes a new random value, so a
 * test or benchmark never depends on one spelling. `inDevFixtures` says whether the dev secret
 * fixtures hold the family, i.e. whether the rules could have been written from it: the families
 * without it are the unseen ones of the leave-family-out measure. The bench recomputes it from the
 * fixtures for every prefix of 4+ characters (a secret row containing the prefix); shorter prefixes
 * (`AC`, `s.`) occur by chance and keep the flag set here.
 */

export interface CredentialFamily {
  family: string;
  /** True when the value starts with a documented fixed prefix (such a family must never be missed). */
  fixedPrefix: boolean;
  inDevFixtures: boolean;
  make: (random: Random) => string;
}

export interface Random {
  next(): number;
}

/** A seeded generator (xorshift32), so a failing case can be replayed from its seed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0 || 1;
  return {
    next() {
      state ^= state << 13;
      state >>>= 0;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      return state / 2 ** 32;
    },
  };
}

const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const lower = 'abcdefghijklmnopqrstuvwxyz';
const digits = '0123456789';
export const alphabets = {
  alnum: upper + lower + digits,
  hex: '0123456789abcdef',
  upperHex: '0123456789ABCDEF',
  upperAlnum: upper + digits,
  lowerAlnum: lower + digits,
  base32: `${upper}234567`,
  base64: `${upper + lower + digits}+/`,
  base64url: `${upper + lower + digits}-_`,
  letters: upper + lower,
  digits,
  bech32: 'qpzry9x8gf2tvdw0s3jn54khce6mua7l',
};

/**
 * `length` characters of `alphabet`. Each of the alphabet's classes (upper, lower, digit) that it
 * holds appears at least once, as in any real token of that length.
 */
export function pick(random: Random, alphabet: string, length: number): string {
  for (;;) {
    let out = '';
    for (let index = 0; index < length; index++) {
      out += alphabet[Math.floor(random.next() * alphabet.length)];
    }
    const classes = [upper, lower, digits].filter((set) =>
      [...set].some((character) => alphabet.includes(character)),
    );
    if (
      length < 12 ||
      classes.every((set) => [...out].some((character) => set.includes(character)))
    ) {
      return out;
    }
  }
}

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let index = 0; index < text.length; index++) {
    crc = crcTable[(crc ^ text.charCodeAt(index)) & 0xff]! ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
function base62(value: number, width: number): string {
  const alphabet = digits + upper + lower;
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = alphabet[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

/** GitHub's format: 30 random base62 characters and a CRC32 of them in 6 base62 digits. */
function githubToken(prefix: string) {
  return (random: Random) => {
    const body = pick(random, alphabets.alnum, 30);
    return `${prefix}${body}${base62(crc32(body), 6)}`;
  };
}

/** npm's format is the same: 30 random characters and a 6-character base62 CRC32. */
function npmToken(random: Random) {
  const body = pick(random, alphabets.alnum, 30);
  return `npm_${body}${base62(crc32(body), 6)}`;
}

const family = (
  name: string,
  make: (random: Random) => string,
  { fixedPrefix = true, inDevFixtures = false } = {},
): CredentialFamily => ({ family: name, fixedPrefix, inDevFixtures, make });
const seen = { inDevFixtures: true };
const p = pick;
const a = alphabets;

export const credentialFamilies: CredentialFamily[] = [
  family('github-pat-classic', githubToken('ghp_'), seen),
  family('github-oauth', githubToken('gho_'), seen),
  family('github-app-user', githubToken('ghu_'), seen),
  family('github-app-server', githubToken('ghs_'), seen),
  family('github-refresh', githubToken('ghr_'), seen),
  family('github-fine-grained', (r) => `github_pat_${p(r, a.alnum, 22)}_${p(r, a.alnum, 59)}`),
  family('gitlab-pat', (r) => `glpat-${p(r, a.base64url, 20)}`, seen),
  family('gitlab-deploy', (r) => `gldt-${p(r, a.base64url, 20)}`, seen),
  family('gitlab-runner', (r) => `glrt-${p(r, a.base64url, 20)}`, seen),
  family(
    'slack-bot',
    (r) => `xoxb-${p(r, a.digits, 12)}-${p(r, a.digits, 13)}-${p(r, a.alnum, 24)}`,
    seen,
  ),
  family(
    'slack-user',
    (r) =>
      `xoxp-${p(r, a.digits, 12)}-${p(r, a.digits, 12)}-${p(r, a.digits, 13)}-${p(r, a.hex, 32)}`,
    seen,
  ),
  family(
    'slack-app',
    (r) => `xapp-1-A${p(r, a.upperAlnum, 10)}-${p(r, a.digits, 13)}-${p(r, a.hex, 64)}`,
    seen,
  ),
  family(
    'slack-webhook',
    (r) =>
      `https://hooks.slack.com/services/T${p(r, a.upperAlnum, 8)}/B${p(r, a.upperAlnum, 8)}/${p(r, a.alnum, 24)}`,
    seen,
  ),
  family('aws-access-key-id', (r) => `AKIA${p(r, a.base32, 16)}`, seen),
  family('aws-session-key-id', (r) => `ASIA${p(r, a.base32, 16)}`, seen),
  family('google-api-key', (r) => `AIza${p(r, a.base64url, 35)}`),
  family('google-oauth-access', (r) => `ya29.${p(r, a.base64url, 60)}`),
  family('google-oauth-client-secret', (r) => `GOCSPX-${p(r, a.base64url, 28)}`),
  family('stripe-secret', (r) => `sk_live_${p(r, a.alnum, 24)}`),
  family('stripe-restricted', (r) => `rk_live_${p(r, a.alnum, 24)}`),
  family('stripe-webhook-secret', (r) => `whsec_${p(r, a.alnum, 32)}`),
  family('twilio-api-key', (r) => `SK${p(r, a.hex, 32)}`, seen),
  family('twilio-account-sid', (r) => `AC${p(r, a.hex, 32)}`),
  family('sendgrid', (r) => `SG.${p(r, a.base64url, 22)}.${p(r, a.base64url, 43)}`, seen),
  family(
    'openai-project',
    (r) => `sk-proj-${p(r, a.base64url, 74)}T3BlbkFJ${p(r, a.base64url, 74)}`,
    seen,
  ),
  family('openai-legacy', (r) => `sk-${p(r, a.alnum, 20)}T3BlbkFJ${p(r, a.alnum, 20)}`, seen),
  family('openrouter', (r) => `sk-or-v1-${p(r, a.hex, 64)}`),
  family('anthropic', (r) => `sk-ant-api03-${p(r, a.base64url, 93)}AA`, seen),
  family('anthropic-admin', (r) => `sk-ant-admin01-${p(r, a.base64url, 93)}AA`, seen),
  family('huggingface', (r) => `hf_${p(r, a.letters, 34)}`, seen),
  family('npm', npmToken, seen),
  family('pypi', (r) => `pypi-AgEIcHlwaS5vcmc${p(r, a.base64url, 70)}`, seen),
  family('shopify-access', (r) => `shpat_${p(r, a.hex, 32)}`, seen),
  family('shopify-shared-secret', (r) => `shpss_${p(r, a.hex, 32)}`, seen),
  family('vault-service', (r) => `hvs.${p(r, a.base64url, 90)}`, seen),
  family('vault-batch', (r) => `hvb.${p(r, a.base64url, 90)}`, seen),
  family('vault-legacy-service', (r) => `s.${p(r, a.alnum, 24)}`),
  family('databricks', (r) => `dapi${p(r, a.hex, 32)}`, seen),
  family('groq', (r) => `gsk_${p(r, a.alnum, 52)}`, seen),
  family('xai', (r) => `xai-${p(r, a.alnum, 80)}`),
  family('perplexity', (r) => `pplx-${p(r, a.alnum, 48)}`),
  family('docker-pat', (r) => `dckr_pat_${p(r, a.base64url, 27)}`, seen),
  family('grafana-cloud', (r) => `glc_${p(r, a.alnum, 40)}`, seen),
  family('grafana-service-account', (r) => `glsa_${p(r, a.alnum, 32)}_${p(r, a.hex, 8)}`, seen),
  family('sentry-user', (r) => `sntryu_${p(r, a.hex, 64)}`, seen),
  family('notion', (r) => `ntn_${p(r, a.digits, 11)}${p(r, a.alnum, 35)}`, seen),
  family('linear-api', (r) => `lin_api_${p(r, a.alnum, 40)}`, seen),
  family('linear-oauth', (r) => `lin_oauth_${p(r, a.alnum, 64)}`),
  family('sourcegraph', (r) => `sgp_${p(r, a.hex, 16)}_${p(r, a.hex, 40)}`, seen),
  family('sourcegraph-short', (r) => `sgp_${p(r, a.hex, 40)}`),
  family('sourcegraph-local', (r) => `sgp_local_${p(r, a.hex, 40)}`),
  family('vercel', (r) => `vcp_${p(r, a.alnum, 56)}`),
  family('cloudflare-account', (r) => `cfat_${p(r, a.alnum, 48)}`),
  family('cloudflare-user', (r) => `cfut_${p(r, a.alnum, 48)}`),
  family('figma', (r) => `figd_${p(r, a.base64url, 40)}`, seen),
  family('doppler', (r) => `dp.pt.${p(r, a.alnum, 43)}`, seen),
  family('digitalocean', (r) => `dop_v1_${p(r, a.hex, 64)}`, seen),
  family('planetscale', (r) => `pscale_tkn_${p(r, a.base64url, 43)}`, seen),
  family('rubygems', (r) => `rubygems_${p(r, a.hex, 48)}`, seen),
  family('square', (r) => `EAAA${p(r, a.base64url, 60)}`, seen),
  family('facebook-page', (r) => `EAAG${p(r, a.alnum, 180)}`),
  family('facebook-user', (r) => `EAAB${p(r, a.alnum, 150)}`),
  family('age-secret-key', (r) => `AGE-SECRET-KEY-1${p(r, a.bech32, 58).toUpperCase()}`),
  family('openshift', (r) => `sha256~${p(r, a.base64url, 43)}`, seen),
  // Bot id of 8-10 digits (gitleaks allows 5-16), then `A` and 34 characters (`AA…` in practice).
  family(
    'telegram-bot',
    (r) => `${p(r, a.digits, 8 + Math.floor(r.next() * 3))}:A${p(r, a.base64url, 34)}`,
  ),
  family('azure-client-secret', (r) => `${p(r, a.alnum, 3)}8Q~${p(r, a.alnum, 34)}`, seen),
  family('flutterwave', (r) => `FLWSECK_TEST-${p(r, a.hex, 32)}-X`, seen),
  family('easypost', (r) => `EZAK${p(r, a.alnum, 54)}`, seen),
  family('heroku-v2', (r) => `HRKU-AA${p(r, a.base64url, 58)}`, seen),
  family('sonar', (r) => `squ_${p(r, a.alnum, 40)}`, seen),
  family('alibaba', (r) => `LTAI${p(r, a.alnum, 20)}`),
  family('dynatrace', (r) => `dt0c01.${p(r, a.upperAlnum, 24)}.${p(r, a.upperAlnum, 64)}`),
  family('newrelic-user', (r) => `NRAK-${p(r, a.upperAlnum, 27)}`, seen),
  family('prefect', (r) => `pnu_${p(r, a.alnum, 36)}`, seen),
  family('brevo', (r) => `xkeysib-${p(r, a.hex, 64)}-${p(r, a.alnum, 16)}`, seen),
  family('shippo', (r) => `shippo_live_${p(r, a.hex, 40)}`, seen),
  family('typeform', (r) => `tfp_${p(r, a.base64url, 59)}`, seen),
  family('postman', (r) => `PMAK-${p(r, a.hex, 24)}-${p(r, a.hex, 34)}`, seen),
  family('pulumi', (r) => `pul-${p(r, a.hex, 40)}`, seen),
  family('tailscale', (r) => `tskey-auth-${p(r, a.alnum, 12)}-${p(r, a.alnum, 32)}`, seen),
  family('mailgun', (r) => `key-${p(r, a.hex, 32)}`, seen),
  family('mailchimp', (r) => `${p(r, a.hex, 32)}-us${1 + Math.floor(r.next() * 20)}`, seen),
  family('artifactory', (r) => `AKCp${p(r, a.alnum, 69)}`),
  family('clojars', (r) => `CLOJARS_${p(r, a.alnum, 60)}`, seen),
  family('atlassian-api', (r) => `ATATT3xFfGF0${p(r, a.base64url, 180)}`, seen),
  family('bitbucket-app-password', (r) => `ATBB${p(r, a.alnum, 32)}`),
  family('buildkite', (r) => `bkua_${p(r, a.hex, 40)}`),
  family('circleci', (r) => `CCIPAT_${p(r, a.alnum, 22)}_${p(r, a.hex, 40)}`),
  family('netlify', (r) => `nfp_${p(r, a.alnum, 36)}`),
  family('supabase', (r) => `sbp_${p(r, a.hex, 40)}`),
  family('replicate', (r) => `r8_${p(r, a.alnum, 37)}`),
  family('contentful', (r) => `CFPAT-${p(r, a.base64url, 43)}`),
  family('airtable', (r) => `pat${p(r, a.alnum, 14)}.${p(r, a.hex, 64)}`),
  family('langsmith', (r) => `lsv2_pt_${p(r, a.hex, 32)}_${p(r, a.hex, 10)}`),
  family('pinecone', (r) => `pcsk_${p(r, a.alnum, 6)}_${p(r, a.alnum, 64)}`),
  family('tavily', (r) => `tvly-${p(r, a.alnum, 32)}`),
  family(
    'hubspot-private-app',
    (r) =>
      `pat-na1-${p(r, a.hex, 8)}-${p(r, a.hex, 4)}-${p(r, a.hex, 4)}-${p(r, a.hex, 4)}-${p(r, a.hex, 12)}`,
  ),
  family('yandex-api', (r) => `AQVN${p(r, a.base64url, 36)}`, seen),
  family(
    'azure-devops-pat',
    (r) => `${p(r, a.alnum, 52)}JQQJ99${p(r, a.alnum, 2)}AZDO${p(r, a.alnum, 4)}`,
  ),
  family('deno', (r) => `ddp_${p(r, a.alnum, 36)}`),
  family(
    'discord-webhook',
    (r) => `https://discord.com/api/webhooks/${p(r, a.digits, 18)}/${p(r, a.base64url, 68)}`,
  ),
  family(
    'telegram-bot-url',
    (r) => `https://api.telegram.org/bot${p(r, a.digits, 10)}:AA${p(r, a.base64url, 33)}/getMe`,
  ),
  family(
    'azure-sas',
    (r) =>
      `https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2030-01-01&sp=r&sig=${p(r, a.base64, 43)}%3D`,
  ),
  // Further documented fixed-prefix formats (gitleaks, TruffleHog, secretlint, vendors' docs).
  family('gitlab-pipeline-trigger', (r) => `glptt-${p(r, a.hex, 40)}`),
  family('gitlab-runner-registration', (r) => `GR1348941${p(r, a.base64url, 20)}`, seen),
  family('gitlab-ci-build', (r) => `glcbt-${p(r, a.base64url, 20)}`, seen),
  family('gitlab-incoming-mail', (r) => `glimt-${p(r, a.alnum, 25)}`, seen),
  family('gitlab-feed', (r) => `glft-${p(r, a.base64url, 20)}`),
  family('gitlab-agent', (r) => `glagent-${p(r, a.base64url, 50)}`),
  family('gitlab-scim', (r) => `glsoat-${p(r, a.base64url, 20)}`, seen),
  family('gitlab-feature-flags', (r) => `glffct-${p(r, a.base64url, 20)}`),
  family('gitlab-oauth-secret', (r) => `gloas-${p(r, a.base64url, 64)}`, seen),
  family('slack-config', (r) => `xoxe.xoxp-1-${p(r, a.alnum, 146)}`),
  family('slack-refresh', (r) => `xoxe-1-${p(r, a.alnum, 146)}`),
  family('anthropic-oauth', (r) => `sk-ant-oat01-${p(r, a.base64url, 93)}AA`),
  family(
    'openai-service-account',
    (r) => `sk-svcacct-${p(r, a.base64url, 74)}T3BlbkFJ${p(r, a.base64url, 74)}`,
  ),
  family(
    'openai-admin',
    (r) => `sk-admin-${p(r, a.base64url, 74)}T3BlbkFJ${p(r, a.base64url, 74)}`,
  ),
  family('stripe-test-secret', (r) => `sk_test_${p(r, a.alnum, 99)}`),
  family('huggingface-org', (r) => `api_org_${p(r, a.letters, 34)}`),
  family('dropbox-short-lived', (r) => `sl.${p(r, a.base64url, 135)}`),
  family('mapbox-secret', (r) => `sk.eyJ1Ijoi${p(r, a.base64url, 50)}.${p(r, a.base64url, 22)}`),
  family('tailscale-api', (r) => `tskey-api-${p(r, a.alnum, 12)}-${p(r, a.alnum, 32)}`),
  family('doppler-service-account', (r) => `dp.sa.${p(r, a.alnum, 43)}`),
  family('sentry-org', (r) => `sntrys_eyJpYXQiOjE3${p(r, a.base64url, 120)}_${p(r, a.alnum, 43)}`),
  family('vault-recovery', (r) => `hvr.${p(r, a.base64url, 90)}`),
  family('onepassword-service-account', (r) => `ops_eyJ${p(r, a.base64, 300)}`, seen),
  family(
    'onepassword-secret-key',
    (r) =>
      `A3-${p(r, a.upperAlnum, 6)}-${p(r, a.upperAlnum, 11)}-${p(r, a.upperAlnum, 5)}-${p(r, a.upperAlnum, 5)}-${p(r, a.upperAlnum, 5)}`,
  ),
  family(
    'harness-pat',
    (r) => `pat.${p(r, a.base64url, 22)}.${p(r, a.hex, 24)}.${p(r, a.alnum, 20)}`,
  ),
  family('terraform-cloud', (r) => `${p(r, a.alnum, 14)}.atlasv1.${p(r, a.base64url, 67)}`, {
    fixedPrefix: false,
  }),
  family('scalingo', (r) => `tk-us-${p(r, a.base64url, 48)}`),
  family('settlemint', (r) => `sm_pat_${p(r, a.alnum, 16)}`),
  family('duffel', (r) => `duffel_test_${p(r, a.base64url, 43)}`),
  family('frameio', (r) => `fio-u-${p(r, a.base64url, 64)}`),
  family('defined-networking', (r) => `dnkey-${p(r, a.base64url, 26)}-${p(r, a.base64url, 52)}`),
  family('infracost', (r) => `ico-${p(r, a.alnum, 32)}`),
  family('intra42', (r) => `s-s4t2ud-${p(r, a.hex, 64)}`, seen),
  family('sonar-project', (r) => `sqp_${p(r, a.hex, 40)}`),
  family('readme', (r) => `rdme_${p(r, a.lowerAlnum, 70)}`),
  family('flyio-org', (r) => `fo1_${p(r, a.base64url, 43)}`),
  family('flyio-macaroon', (r) => `fm2_${p(r, a.base64, 160)}`),
  family('adobe-client-secret', (r) => `p8e-${p(r, a.alnum, 32)}`),
  family('easypost-test', (r) => `EZTK${p(r, a.alnum, 54)}`, seen),
  family('twitter-bearer', (r) => `${'A'.repeat(22)}${p(r, a.alnum, 90)}`),
  family('grafana-api-key', (r) => `eyJrIjoi${p(r, a.alnum, 80)}`),
  family('newrelic-insert', (r) => `NRII-${p(r, a.alnum, 32)}`),
  family('newrelic-browser', (r) => `NRJS-${p(r, a.hex, 19)}`),
  family('square-oauth-secret', (r) => `sq0csp-${p(r, a.base64url, 43)}`),
  family('square-access', (r) => `sq0atp-${p(r, a.base64url, 22)}`),
  family('artifactory-reference', (r) => `cmVmdGtuOjAxOj${p(r, a.alnum, 50)}`),
  family('salesforce', (r) => `00D${p(r, a.alnum, 15)}!${p(r, a.alnum, 96)}`),
  family('yandex-cloud-key', (r) => `YC${p(r, a.base64url, 38)}`, seen),
  family('nuget-api-key', (r) => `oy2${p(r, a.lowerAlnum, 43)}`),
  family('resend', (r) => `re_${p(r, a.alnum, 8)}_${p(r, a.alnum, 24)}`),
  family('google-oauth-refresh', (r) => `1//0${p(r, a.base64url, 99)}`),
  family('vercel-refresh', (r) => `vcr_${p(r, a.alnum, 56)}`),
  family('plaid-access', (r) => {
    const hex = (length: number) => p(r, a.hex, length);
    return `access-sandbox-${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
  }),
  family('maxmind-license', (r) => `${p(r, a.alnum, 6)}_${p(r, a.alnum, 29)}_mmk`, {
    fixedPrefix: false,
  }),
  family('octopus-deploy', (r) => `API-${p(r, a.upperAlnum, 26)}`),
  family('bedrock-api-key', (r) => `ABSK${p(r, a.base64, 120)}`),
  family('softlayer-api-url', (r) => `https://api.softlayer.com/rest/v3.1/${p(r, a.hex, 64)}`),
  family(
    'jwt',
    (r) => `eyJhbGciOiJIUzI1NiJ9.eyJ${p(r, a.base64url, 40)}.${p(r, a.base64url, 43)}`,
    seen,
  ),
];

/** Where a credential may stand in an agent transcript: each position wraps a generated value. */
export const credentialPositions: Array<[string, (token: string) => string]> = [
  ['alone', (token) => token],
  ['prose', (token) => `I rotated it, the new one is ${token} for now.`],
  ['path segment', (token) => `curl -X POST /keys/${token}/rotate`],
  ['file name', (token) => `cat ~/ci/${token}.json`],
  ['right after https://', (token) => `git clone https://${token}/org/repo.git`],
  ['query string', (token) => `GET https://api.example.com/v1/items?limit=5&value=${token}&x=1`],
  ['JSON string', (token) => `{"name":"ci","value":"${token}","enabled":true}`],
  ['YAML block scalar', (token) => `config:\n  value: |\n    ${token}\n  other: 1\n`],
  ['XML attribute', (token) => `<entry name="deploy" value="${token}" />`],
  ['curl -H custom header', (token) => `curl -H "Token: ${token}" https://api.example.com`],
  ['curl --header', (token) => `curl --header 'Api-Token: ${token}' https://api.example.com`],
  ['curl -H X-Auth', (token) => `curl -sS -H "X-Auth-Key: ${token}" https://h.example.com/x`],
  ['curl -u', (token) => `curl -u deploy:${token} https://registry.example.com`],
  ['markdown code', (token) => `Set \`${token}\` in the dashboard.`],
  ['env export', (token) => `export SERVICE_VALUE=${token}`],
  ['log line', (token) => `2024-05-01T10:00:00Z INFO using credential=${token} region=eu`],
  // Pasted where a flag goes: the CLI's own error paths met this in a random test run.
  ['as a long flag', (token) => `baton compact a.json --${token}=1`],
  ['after a short dash', (token) => `tool -${token} --verbose`],
];

/** The fixed prefix of a family: what every generated value shares at its start. */
export function familyPrefix(credential: CredentialFamily): string {
  const samples = [1, 2, 3, 4, 5, 6].map((seed) => credential.make(seededRandom(seed * 7919)));
  let prefix = samples[0]!;
  for (const sample of samples) {
    while (!sample.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

/**
 * Look-alikes scanners list as negatives: the prefix with a placeholder body, a template, a body cut
 * to a few characters, the prefix named in prose. None may be redacted.
 */
export function lookAlikes(credential: CredentialFamily, random: Random): string[] {
  const prefix = familyPrefix(credential);
  if (prefix.length < 2) return [];
  const token = credential.make(random);
  const bodyLength = token.length - prefix.length;
  return [
    `${prefix}${'x'.repeat(bodyLength)}`,
    `${prefix}<your-token-here>`,
    `value: "${prefix}\${TOKEN}"`,
    `${prefix}${token.slice(prefix.length, prefix.length + 4)}…`,
    `Tokens of this kind start with \`${prefix}\` and are shown once.`,
  ];
}
