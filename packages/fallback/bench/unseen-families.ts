/**
 * Held-out recall: credential families that are in neither `src/credential-families.ts` nor the
 * dev fixtures, made at run time from the facts scanners publish (prefix, alphabet, length, parts;
 * gitleaks, TruffleHog, Kingfisher, Sonar), each placed in positions an agent transcript holds.
 * A value leaks when the output still holds it whole or any 16 characters of it in a row.
 * Run: pnpm build && node bench/unseen-families.ts [firstSeed=1] [seeds=2] [perCell=40] [--show]
 */

import {
  alphabets as a,
  pick as p,
  type Random,
  seededRandom,
} from '../dist/credential-families.js';
import { redactSecrets } from '../dist/index.js';

const [firstSeed = 1, seeds = 2, perCell = 40] = process.argv
  .slice(2)
  .filter((argument) => !argument.startsWith('--'))
  .map(Number);
const show = process.argv.includes('--show');
const base64 = a.base64;
const hex = a.hex;
const uuid = (r: Random) =>
  `${p(r, hex, 8)}-${p(r, hex, 4)}-${p(r, hex, 4)}-${p(r, hex, 4)}-${p(r, hex, 12)}`;
const digitRun = (r: Random, length: number) => p(r, a.digits, length);
/** Standard base64 holding at least one `/` or `+`: the shape that reads like a path. */
function slashedBase64(r: Random, length: number): string {
  for (;;) {
    const value = p(r, base64, length);
    if (/[/+]/.test(value)) return value;
  }
}

/**
 * `evident`: the value's own shape (a prefix, a layout, 40+ drawn characters) says it is a
 * credential, so it must go wherever it stands. `context`: a UUID, hex groups, 30 lower-case
 * characters or 24 base64 characters are also ids, digests and names, so only a position naming a
 * credential (a key, a header, a stated password) can tell; those are scored there alone.
 */
export const unseenFamilies: Array<[string, 'evident' | 'context', (r: Random) => string]> = [
  ['adafruit-io', 'evident', (r) => `aio_${p(r, a.alnum, 28)}`],
  [
    'gitlab-pat-routable',
    'evident',
    (r) => `glpat-${p(r, a.base64url, 27 + Math.floor(r.next() * 12))}.01.${p(r, a.lowerAlnum, 7)}`,
  ],
  [
    'gitlab-runner-routable',
    'evident',
    (r) => `glrt-t1_${p(r, a.base64url, 27)}.01.${p(r, a.lowerAlnum, 7)}`,
  ],
  ['planetscale-oauth', 'evident', (r) => `pscale_oauth_${p(r, a.base64url, 43)}`],
  ['planetscale-password', 'evident', (r) => `pscale_pw_${p(r, a.base64url, 43)}`],
  ['mailgun-pubkey', 'evident', (r) => `pubkey-${p(r, hex, 32)}`],
  ['mailgun-signing', 'context', (r) => `${p(r, hex, 32)}-${p(r, hex, 8)}-${p(r, hex, 8)}`],
  ['okta', 'evident', (r) => `00${p(r, a.base64url, 40)}`],
  ['gocardless', 'evident', (r) => `live_${p(r, a.base64url, 40)}`],
  ['lob-secret', 'evident', (r) => `live_${p(r, hex, 35)}`],
  ['shopify-custom-app', 'evident', (r) => `shpca_${p(r, hex, 32)}`],
  ['shopify-private-app', 'evident', (r) => `shppa_${p(r, hex, 32)}`],
  ['digitalocean-oauth', 'evident', (r) => `doo_v1_${p(r, hex, 64)}`],
  ['digitalocean-refresh', 'evident', (r) => `dor_v1_${p(r, hex, 64)}`],
  [
    'slack-legacy-workspace',
    'evident',
    (r) => `xoxa-2-${digitRun(r, 12)}-${digitRun(r, 12)}-${p(r, hex, 32)}`,
  ],
  ['notion-legacy', 'evident', (r) => `secret_${p(r, a.alnum, 43)}`],
  ['cloudflare-origin-ca', 'evident', (r) => `v1.0-${p(r, hex, 24)}-${p(r, hex, 146)}`],
  ['ubidots', 'evident', (r) => `BBFF-${p(r, a.alnum, 30)}`],
  ['beamer', 'evident', (r) => `b_${p(r, a.base64url, 44)}`],
  ['clickhouse-cloud', 'evident', (r) => `4b1d${p(r, a.alnum, 38)}`],
  ['asana-pat', 'context', (r) => `2/${digitRun(r, 16)}/${digitRun(r, 16)}:${p(r, hex, 32)}`],
  ['sidekiq-credentials', 'context', (r) => `${p(r, hex, 8)}:${p(r, hex, 8)}`],
  ['aws-secret-access-key', 'evident', (r) => slashedBase64(r, 40)],
  ['azure-storage-key', 'evident', (r) => `${slashedBase64(r, 86)}==`],
  ['kraken-private-key', 'evident', (r) => `${slashedBase64(r, 86)}==`],
  ['data-encryption-key-24', 'context', (r) => slashedBase64(r, 24)],
  ['data-encryption-key-32', 'evident', (r) => `${slashedBase64(r, 43)}=`],
  ['heroku-legacy-uuid', 'context', uuid],
  ['twitch-oauth', 'context', (r) => p(r, a.lowerAlnum, 30)],
  [
    'teams-webhook',
    'evident',
    (r) =>
      `https://acme.webhook.office.com/webhookb2/${uuid(r)}@${uuid(r)}/IncomingWebhook/${p(r, a.alnum, 32)}/${uuid(r)}`,
  ],
];

const headerNames = [
  'X-Api-Key',
  'Private-Token',
  'X-Vault-Token',
  'Ocp-Apim-Subscription-Key',
  'X-Session',
  'Token',
];
const words = [
  'dek',
  'kek',
  'key',
  'salt',
  'secret',
  'auth',
  'sig',
  'token',
  'pin',
  'otp',
  'jwt',
  'pepper',
];
// Positions whose text names a credential: the only ones a `context` family is scored in.
const namedPositions = new Set([
  'prose password',
  'glued word:',
  'glued word=',
  'JSON string',
  'curl -H',
  'env file',
]);
export const unseenPositions: Array<[string, (token: string, r: Random) => string]> = [
  ['alone', (t) => t],
  ['prose password', (t) => `the admin password is ${t} until Friday`],
  ['prose new one', (t) => `I rotated it; the new one is ${t}, do not share.`],
  ['after / in path', (t) => `cat /etc/app/${t}`],
  ['url path', (t) => `GET https://api.example.com/v2/keys/${t}/status`],
  ['glued word.', (t, r) => `${words[Math.floor(r.next() * words.length)]}.${t}`],
  ['glued word:', (t, r) => `${words[Math.floor(r.next() * words.length)]}:${t}`],
  ['glued word=', (t, r) => `${words[Math.floor(r.next() * words.length)]}=${t}`],
  ['query string', (t) => `https://h.example.com/cb?state=ok&code=${t}&x=1`],
  ['JSON string', (t) => `{"id":7,"credential":"${t}","ok":true}`],
  ['JSON neutral key', (t) => `{"id":7,"value":"${t}","ok":true}`],
  ['YAML block scalar', (t) => `deploy:\n  blob: |\n    ${t}\n  replicas: 2\n`],
  ['XML attribute', (t) => `<add name="svc" value="${t}" />`],
  [
    'curl -H',
    (t, r) =>
      `curl -H "${headerNames[Math.floor(r.next() * headerNames.length)]}: ${t}" https://x.example.com`,
  ],
  ['env file', (t) => `# prod\nSERVICE_URL=https://x.example.com\nSERVICE_CRED=${t}\n`],
  ['windows path', (t) => `type C:\\Users\\ci\\keys\\${t}`],
  ['markdown table', (t) => `| name | value |\n|---|---|\n| prod | ${t} |`],
  ['log line', (t) => `2026-01-02T03:04:05Z WARN auth failed for ${t} from 10.0.0.4`],
];

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
function leaked(output: string, token: string): boolean {
  if (output.includes(token)) return true;
  const window = 16;
  for (let start = 0; start + window <= token.length; start++) {
    if (output.includes(token.slice(start, start + window))) return true;
  }
  return false;
}

const cell = new Map<string, number>();
const familyTotals = new Map<string, number>();
const positionTotals = new Map<string, number>();
const examples: string[] = [];
const cellTotals = new Map<string, number>();
const familyAll = new Map<string, number>();
const positionAll = new Map<string, number>();
let evidentWrong = 0;
let contextWrong = 0;
let all = 0;
let wrong = 0;
unseenFamilies.forEach(([family, shape, make], familyIndex) => {
  unseenPositions.forEach(([position, wrap], positionIndex) => {
    if (shape === 'context' && !namedPositions.has(position)) return;
    for (let seed = firstSeed; seed < firstSeed + seeds; seed++) {
      for (let index = 0; index < perCell; index++) {
        const r = seededRandom(
          (seed * 1_000_003 + familyIndex * 7919 + positionIndex * 104_729 + index * 31) >>> 0,
        );
        const token = make(r);
        const text = wrap(token, r);
        all++;
        cellTotals.set(
          `${family}\t${position}`,
          (cellTotals.get(`${family}\t${position}`) ?? 0) + 1,
        );
        familyAll.set(family, (familyAll.get(family) ?? 0) + 1);
        positionAll.set(position, (positionAll.get(position) ?? 0) + 1);
        if (!leaked(redactSecrets(text).text, token)) continue;
        wrong++;
        if (shape === 'context') contextWrong++;
        else evidentWrong++;
        const key = `${family}\t${position}`;
        cell.set(key, (cell.get(key) ?? 0) + 1);
        familyTotals.set(family, (familyTotals.get(family) ?? 0) + 1);
        positionTotals.set(position, (positionTotals.get(position) ?? 0) + 1);
        if (show && (cell.get(key) ?? 0) <= 3)
          examples.push(`${family} | ${position} | ${JSON.stringify(text)}`);
      }
    }
  });
});
console.log(`seeds ${firstSeed}..${firstSeed + seeds - 1}, ${perCell} per cell\n`);
console.log('| family | shape | values | leak |\n|---|---|---:|---:|');
for (const [family, shape] of unseenFamilies) {
  const whole = familyAll.get(family) ?? 0;
  console.log(
    `| ${family} | ${shape} | ${whole} | ${percent(familyTotals.get(family) ?? 0, whole)} |`,
  );
}
console.log('\n| position | values | leak |\n|---|---:|---:|');
for (const [position] of unseenPositions) {
  const whole = positionAll.get(position) ?? 0;
  console.log(`| ${position} | ${whole} | ${percent(positionTotals.get(position) ?? 0, whole)} |`);
}
console.log('\ncells with leaks (family, position, leaks, values)');
for (const [key, count] of [...cell].sort((x, y) => y[1] - x[1])) {
  console.log(`  ${key}\t${count}\t${cellTotals.get(key)}`);
}
const evidentAll = [...unseenFamilies]
  .filter(([, shape]) => shape === 'evident')
  .reduce((sum, [family]) => sum + (familyAll.get(family) ?? 0), 0);
console.log(
  `\nevident shapes, every position: ${evidentWrong}/${evidentAll} = ${percent(evidentWrong, evidentAll)}`,
);
console.log(
  `context shapes, named positions: ${contextWrong}/${all - evidentAll} = ${percent(contextWrong, all - evidentAll)}`,
);
console.log(`**all** ${wrong}/${all} = ${percent(wrong, all)}`);
if (show) console.log(examples.join('\n'));
