import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

// Fake secrets are generated at run time (a seeded generator over each format's alphabet), so the
// repository holds no token literal and every case gets a different, random-looking value.
let seed = 20_261_122;
function next(): number {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
  return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
}
function fake(
  length: number,
  alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
) {
  let out = '';
  for (let index = 0; index < length; index++)
    out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}
const hex = '0123456789abcdef';
const lowerDigits = 'abcdefghijklmnopqrstuvwxyz0123456789';
const upperDigits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const uuid = () =>
  [fake(8, hex), fake(4, hex), fake(4, hex), fake(4, hex), fake(12, hex)].join('-');

function expectRedacted(text: string, secret: string, kind?: string) {
  const result = redactSecrets(text);
  expect(result.text, text).not.toContain(secret);
  if (kind) expect(result.findings.map((finding) => finding.kind)).toContain(kind);
}
/** The vendor rule `kind` does not claim `text` (the generic layers may still redact a random body). */
function expectNotKind(text: string, kind: string) {
  expect(
    redactSecrets(text).findings.map((finding) => finding.kind),
    text,
  ).not.toContain(kind);
}
function expectKept(text: string) {
  expect(redactSecrets(text), text).toEqual({ text, findings: [] });
}

describe('redactSecrets: vendor formats without a key name', () => {
  it.each([
    ['alibaba-access-key-id', () => 'LTAI' + fake(20)],
    ['dynatrace-token', () => 'dt0c01.' + fake(24, upperDigits) + '.' + fake(64)],
    ['newrelic-key', () => 'NRAK-' + fake(27, upperDigits)],
    ['prefect-token', () => 'pnu_' + fake(36)],
    ['brevo-key', () => 'xkeysib-' + fake(64, hex) + '-' + fake(16)],
    ['shippo-token', () => 'shippo_live_' + fake(40, hex)],
    ['typeform-token', () => 'tfp_' + fake(59)],
    ['duffel-token', () => 'duffel_test_' + fake(43)],
    ['twilio-account-sid', () => 'AC' + fake(32, hex)],
    ['mailgun-key', () => 'key-' + fake(32, hex)],
    ['terraform-token', () => fake(14, lowerDigits) + '.atlasv1.' + fake(64)],
    ['cloudflare-token', () => 'cfat_' + fake(48)],
  ])('%s', (kind, make) => {
    const token = make();
    expectRedacted(`export VALUE=${token}`, token, kind);
    expectRedacted(`see ${token} above`, token, kind);
  });

  it('takes GitLab and Cloudflare formats at their documented lengths, and their cut or grown tokens too', () => {
    expectRedacted(`glptt-${fake(40, hex)}`, 'glptt-');
    // Pipeline trigger tokens are 40 hex, Cloudflare's 40 random + 8 checksum: a value under the
    // issuer's prefix at another length is a token cut short or of a newer format, still secret.
    const trigger = `glptt-${fake(20, hex)}_${fake(5)}`;
    expectRedacted(trigger, trigger, 'gitlab-token');
    // In another alphabet than the documented hex it is no trigger token the issuer minted, but a
    // generated body under a prefix all the same.
    const other = `glptt-${fake(20)}_${fake(5)}`;
    expectRedacted(other, other);
    const cloudflare = `cfat_${fake(49)}`;
    expectRedacted(cloudflare, cloudflare, 'cloudflare-token');
  });

  it('finds a Discord token glued to a character or two', () => {
    const token = `M${fake(25)}.${fake(6)}.${fake(27)}`;
    expectRedacted(`x${token}`, token.slice(1));
  });

  it("redacts an OpenAI key whose T3BlbkFJ marker is broken: the sk-proj- prefix is the issuer's mark", () => {
    const broken = `sk-proj-${fake(20)}T4BlbkFJ${fake(20)}`;
    expectRedacted(broken, broken, 'openai-key');
    const intact = `sk-proj-${fake(20)}T3BlbkFJ${fake(20)}`;
    expectRedacted(intact, intact, 'openai-key');
    // No documented prefix: the vendor rule does not claim it.
    expectNotKind(`sk-${fake(20)}T4BlbkFJ${fake(20)}`, 'openai-key');
  });
});

describe('redactSecrets: context', () => {
  it('redacts the generated path of any webhook URL, not documentation or settings links', () => {
    for (let round = 0; round < 20; round++) {
      const secret = `${fake(8, upperDigits)}/${fake(10, upperDigits)}/${fake(24)}`;
      const host = fake(8, 'abcdefghijklmnopqrstuvwxyz');
      expectRedacted(`curl -X POST https://hooks.${host}.com/services/${secret}`, secret);
      const hex = fake(32, lowerDigits);
      expectRedacted(`https://${host}.example.com/webhook/${hex}`, hex);
    }
    expectKept('see https://docs.stripe.com/webhooks/quickstart for details');
    expectKept('https://github.com/org/repo/settings/hooks/123456');
  });

  it('redacts a random value under a service name, not a model name or version', () => {
    const value = fake(40, '0123456789abcdefABCDEF');
    expectRedacted(`sourcegraph: ${value}`, value, 'service-key');
    expectRedacted(`"datadog": "${value}"`, value, 'service-key');
    expectKept('sentry: claude-sonnet-4-20250514');
    expectKept('datadog_url: https://app.datadoghq.com/dashboard/abc-123');
  });

  it('redacts provider client and tenant ids, not a bare clientId', () => {
    for (const key of ['AZURE_CLIENT_ID=', 'ad_tenant_id: "', 'const MessageBirdClientID = "']) {
      const id = uuid();
      expectRedacted(`${key}${id}`, id, 'client-id');
    }
    expectKept(`clientId = "${uuid()}"`);
  });

  it('redacts .npmrc credentials whatever they look like, but not an environment reference', () => {
    const value = '1'.repeat(6) + 'a'.repeat(30);
    expectRedacted(`//registry.npmjs.org/:_authToken=${value}`, value, 'npm-auth');
    expectKept('//npm.pkg.github.com/:_authToken=$' + '{NPM_TOKEN}');
  });

  it('follows curl flags over line continuations and through quoted braces', () => {
    const password = fake(16);
    expectRedacted(
      `curl -k -X POST https://host/x \\\n  -d 'world' \\\n  -u developer:${password}`,
      password,
    );
    const braced = fake(14);
    expectRedacted(`curl --user "{${uuid()}}":"{${braced}}" https://host`, braced);
    // A random literal in braces without a digit is still one (`{dolFAOZgLjjsdd}`).
    const letters = fake(14, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
    expectRedacted(`curl --user "{${uuid()}}":"{${letters}}" https://host`, letters);
  });

  it('redacts long quoted base64 blobs, not encoded sentences, alphabets or digests', () => {
    const blob = fake(86, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_') + '=';
    expectRedacted(`"${blob}"`, blob, 'high-entropy-string');
    expectKept(`"${btoa('Patience is the key to success, said nobody ever')}"`);
    expectKept(`"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"`);
    expectKept(`expect(sha256base64.parse("${fake(43)}="))`);
    expectKept(`publicToken = "${fake(43)}"`);
  });

  it('redacts 0x-prefixed 64-hex private keys, not labelled hashes', () => {
    const key = fake(64, hex);
    expectRedacted(`forgot this here 0x${key}!`, key, 'hex-private-key');
    expectKept(`txHash: 0x${fake(64, hex)}`);
    expectKept(`DOTENV_PUBLIC_KEY="03${fake(64, hex)}"`);
  });

  it('redacts a literal `password` in a URL but not a template', () => {
    expectRedacted('https://username:password@example.com', ':password@', 'url-credentials');
    expectKept('mysql://user:$' + '{PASSWORD}@example.com:3306/db');
    expectKept('postgres://postgres:postgres@localhost:5432/app');
  });

  it('reads a preposition in a key name as "about a secret", not "a secret"', () => {
    expectKept('keyVaultToStoreSecrets: cmp2-qat-1208358310');
    expectKept('path_to_password: /etc/app/db.pass');
    const password = fake(12);
    expectRedacted(`password_for_db: ${password}`, password, 'password');
  });

  it('reads `password.equals("…")` and UUID keys under a service name', () => {
    const password = fake(16);
    expectRedacted(`if (password.equals("${password}")) {`, password, 'password');
    const id = uuid();
    expectRedacted(`HEROKU: ${id}`, id, 'service-key');
    expectKept(`name.equals("${fake(16)}")`);
  });

  it('leaves code that only names a password alone', () => {
    for (const text of [
      'password = get_secret_key()',
      'password = input("Password: ")',
      'password = request.headers["x-password"]',
      'password=false',
      'apiKey: process.env.API_KEY',
      'password: !vault |',
    ]) {
      expectKept(text);
    }
  });

  it('reads XML elements named like a secret', () => {
    const password = fake(20);
    expectRedacted(`<password>${password}</password>`, password, 'password');
    const key = fake(24);
    expectRedacted(`<apiKey>${key}</apiKey>`, key, 'secret');
    expectKept('<passwordPolicy>strict</passwordPolicy>');
  });

  it('redacts passwords given on mysql, docker login and sshpass command lines only', () => {
    for (const command of ['mysql -u root -p', 'docker login -u me -p ', "sshpass -p '"]) {
      const password = fake(14);
      expectRedacted(`${command}${password}${command.endsWith("'") ? "'" : ''} host`, password);
    }
    expectKept('mysql -u root -p mydb');
    expectKept('ssh -p 2222 user@host');
    expectKept('docker login -u me -p $' + '{REGISTRY_PASSWORD}');
  });

  it('keeps a password made of a word about passwords, not one with other characters', () => {
    expectKept('<add key="ClearTextPassword" value="%TestSourcePassword%" />');
    expectRedacted('<add key="ClearTextPassword" value="Test%Password" />', 'Test%Password');
  });
});
