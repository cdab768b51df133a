/**
 * Attack on the exemptions that keep ordinary tool output in the clear (digests, cursors, ids,
 * OAuth front-channel values, JOSE headers, encoded JSON, GPG key ids, dotted and qualified key
 * names, paths under password names): real-shaped secrets drawn at run time, written where a kept
 * value stands. Prints the share left in the clear per context and secret kind (a leak: the middle
 * of the secret, or the encoded blob holding it, still stands in the redacted text).
 * Run: pnpm build && node bench/exemption-leaks.ts [samples=200] [context filter]
 * Secrets are never printed; `verdict` says whether a demanding reviewer calls a keep a leak.
 */
import {
  credentialFamilies,
  pick,
  type Random,
  seededRandom,
} from '../dist/credential-families.js';
import { redactSecrets } from '../dist/index.js';

const samples = Number(process.argv[2] ?? 200);
const only = process.argv[3];

const symbols = '!@#$%^&*()-_=+[]{};:,.?~';
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const bytes = (random: Random, count: number) =>
  Buffer.from(Array.from({ length: count }, () => Math.floor(random.next() * 256)));
const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

// Families written as a whole URL (a webhook, an API URL holding the key) are left out: the middle
// of such a value may be its host or path, which stays.
const vendorFamilies = credentialFamilies.filter(
  (family) => family.fixedPrefix && !family.make(seededRandom(1)).includes('://'),
);
type Secret = (random: Random) => string;
const secrets: Record<string, Secret> = {
  vendor: (random) =>
    vendorFamilies[Math.floor(random.next() * vendorFamilies.length)]!.make(random),
  password: (random) => {
    for (;;) {
      const value = pick(random, alnum + symbols, 16 + Math.floor(random.next() * 13));
      if (/[^A-Za-z0-9]/.test(value) && !/^[-_]/.test(value)) return value;
    }
  },
  jwt: (random) =>
    `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(
      JSON.stringify({
        sub: pick(random, alnum, 12),
        iat: 1_700_000_000 + Math.floor(random.next() * 1e7),
      }),
    )}.${b64url(bytes(random, 32))}`,
  base64: (random) => bytes(random, 32).toString('base64'),
  hex: (random) => bytes(random, 32).toString('hex'),
  alnum32: (random) => pick(random, alnum, 32),
  uuid: (random) => {
    const hex = bytes(random, 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  },
};

/** A context writes the secret where a kept value stands; `leaked` finds it in the output. */
interface Context {
  name: string;
  /** The secret kinds placed there (vendor always). */
  kinds: readonly string[];
  write: (secret: string, random: Random) => string;
  /** What must be gone from the output when the secret is redacted (default: its middle). */
  mark?: (secret: string, text: string) => string;
}

const middle = (secret: string) =>
  secret.length <= 14 ? secret : secret.slice(secret.length / 2 - 6, secret.length / 2 + 6);
const all = Object.keys(secrets);
const encodedJson = (object: unknown) => Buffer.from(JSON.stringify(object)).toString('base64');
const blob = (_secret: string, text: string) => text.slice(text.indexOf(': ') + 2);

const contexts: Context[] = [
  // controls: no exemption involved (the value judges' own rate)
  { name: 'control: bare value in prose', kinds: all, write: (s) => `the value is ${s} here` },
  { name: 'control: DB_PASSWORD=', kinds: all, write: (s) => `DB_PASSWORD=${s}` },
  { name: 'control: "api_key"', kinds: all, write: (s) => `"api_key": "${s}"` },
  // digests under digest-named keys
  { name: 'digest: "CodeSha256"', kinds: all, write: (s) => `"CodeSha256": "${s}",` },
  { name: 'digest: checksum:', kinds: all, write: (s) => `checksum: ${s}` },
  { name: 'digest: hash=', kinds: all, write: (s) => `hash=${s}` },
  { name: 'digest: sha256=', kinds: all, write: (s) => `sha256=${s}` },
  { name: 'digest: token_hash', kinds: all, write: (s) => `"token_hash": "${s}"` },
  { name: 'digest: checksum/secret', kinds: all, write: (s) => `    checksum/secret: ${s}` },
  { name: 'digest: sha256:<v>', kinds: all, write: (s) => `image: app@sha256:${s}` },
  // ids
  { name: 'k8s: pod/<v>', kinds: all, write: (s) => `pod/${s} created` },
  { name: 'k8s: name: <v>', kinds: all, write: (s) => `  name: ${s}` },
  { name: 'kms: KeyId', kinds: all, write: (s) => `"KeyId": "${s}",` },
  { name: 'deployment: deploymentId', kinds: all, write: (s) => `"deploymentId": "${s}"` },
  // sealed secrets
  {
    name: 'sealed: encryptedData member',
    kinds: all,
    write: (s) => `spec:\n  encryptedData:\n    api_key: ${s}`,
  },
  // OAuth
  {
    name: 'oauth: ?state=',
    kinds: all,
    write: (s) => `https://id.example.com/authorize?client_id=app&state=${s}`,
  },
  { name: 'oauth: "state"', kinds: all, write: (s) => `"state": "${s}"` },
  {
    name: 'oauth: code_challenge',
    kinds: all,
    write: (s) => `code_challenge=${s}&code_challenge_method=S256`,
  },
  { name: 'oauth: code_verifier', kinds: all, write: (s) => `code_verifier=${s}` },
  {
    name: 'oauth: &code=',
    kinds: all,
    write: (s) => `https://app.example.com/cb?state=xyz&code=${s}`,
  },
  // JOSE header holding a private JWK
  {
    name: 'jose: header with private jwk',
    kinds: ['base64'],
    write: (s) =>
      b64url(
        JSON.stringify({
          alg: 'ES256',
          jwk: { kty: 'EC', crv: 'P-256', x: s.slice(0, 43), y: s.slice(0, 43), d: s },
        }),
      ),
    mark: (_s, text) => text.slice(20, 60),
  },
  // base64 of JSON
  ...[
    ['base64 json: {"user","pw"}', (s: string) => ({ user: 'app', pw: s })],
    ['base64 json: {"login","p"}', (s: string) => ({ login: 'deploy', p: s })],
    ['base64 json: {"value"}', (s: string) => ({ value: s })],
    [
      'base64 json: {"db":{"host","user","pin"}}',
      (s: string) => ({ db: { host: 'db1', user: 'app', pin: s } }),
    ],
  ].map(
    ([name, shape]) =>
      ({
        name: name as string,
        kinds: all,
        write: (s: string) => `payload: ${encodedJson((shape as (s: string) => unknown)(s))}`,
        mark: blob,
      }) satisfies Context,
  ),
  // page cursors
  { name: 'cursor: "NextToken"', kinds: all, write: (s) => `"NextToken": "${s}"` },
  { name: 'cursor: next_cursor_token', kinds: all, write: (s) => `next_cursor_token: ${s}` },
  { name: 'cursor: continuation_token', kinds: all, write: (s) => `"continuation_token": "${s}"` },
  { name: 'cursor: ?cursor=', kinds: all, write: (s) => `GET /v1/items?cursor=${s}` },
  // <verb>_at
  { name: 'verb_at: token_issued_at', kinds: all, write: (s) => `token_issued_at: ${s}` },
  { name: 'verb_at: PASSWORD_CHANGED_AT', kinds: all, write: (s) => `PASSWORD_CHANGED_AT=${s}` },
  // GPG
  { name: 'gpg: GPG_KEY=', kinds: all, write: (s) => `GPG_KEY=${s}` },
  { name: 'gpg: ENV GPG_KEY', kinds: all, write: (s) => `ENV GPG_KEY ${s}` },
  { name: 'gpg: gpg.key:', kinds: all, write: (s) => `gpg.key: ${s}` },
  // dotted keys and qualifier words
  {
    name: 'dotted: azure.storage.primary.key',
    kinds: all,
    write: (s) => `azure.storage.primary.key=${s}`,
  },
  { name: 'dotted: docker.registry.token', kinds: all, write: (s) => `docker.registry.token=${s}` },
  { name: 'qualified: REGISTRY_PASSWORD', kinds: all, write: (s) => `REGISTRY_PASSWORD=${s}` },
  { name: 'qualified: INPUT_TOKEN', kinds: all, write: (s) => `INPUT_TOKEN=${s}` },
  { name: 'qualified: NODE_AUTH_TOKEN', kinds: all, write: (s) => `NODE_AUTH_TOKEN=${s}` },
  { name: 'qualified: "primaryKey"', kinds: all, write: (s) => `"primaryKey": "${s}"` },
  { name: 'qualified: "cache_password"', kinds: all, write: (s) => `"cache_password": "${s}"` },
  // paths and URLs under password names
  {
    name: 'points: PASSWORD=https://host/<v>',
    kinds: all,
    write: (s) => `DB_PASSWORD=https://vault.example.com/v1/${s}`,
  },
  {
    name: 'points: TOKEN=https://host/?key=<v>',
    kinds: all,
    write: (s) => `API_TOKEN=https://api.example.com/v1?key=${s}`,
  },
  {
    name: 'points: PASSWORD=/run/secrets/<v>',
    kinds: all,
    write: (s) => `DB_PASSWORD=/run/secrets/${s}`,
  },
  // line-wide words: a digest or anti-forgery word elsewhere on the line
  {
    name: 'line: "hash" member, then "value"',
    kinds: all,
    write: (s) => `{"hash": "md5", "value": "${s}"}`,
  },
  {
    name: 'line: "nonce" member, then "value"',
    kinds: all,
    write: (s) => `{"nonce": 7, "value": "${s}"}`,
  },
  { name: 'line: "value" alone (control)', kinds: all, write: (s) => `{"id": 7, "value": "${s}"}` },
  { name: 'key: "pw"', kinds: all, write: (s) => `{"user": "app", "pw": "${s}"}` },
  { name: 'key: DB_PW=', kinds: all, write: (s) => `DB_PW=${s}` },
  // environment syntaxes
  { name: 'env: set -gx', kinds: all, write: (s) => `set -gx API_TOKEN ${s}` },
  { name: 'env: setx', kinds: all, write: (s) => `setx DB_PASSWORD ${s}` },
  { name: 'env: ENV', kinds: all, write: (s) => `ENV API_KEY ${s}` },
];

console.log(`${samples} samples per context and kind: share of secrets left in the clear\n`);
console.log(`| context | ${all.join(' | ')} |\n|---|${all.map(() => '---:').join('|')}|`);
let worst = 0;
for (const [contextIndex, context] of contexts.entries()) {
  if (only && !context.name.includes(only)) continue;
  const cells: string[] = [];
  for (const [kindIndex, kind] of all.entries()) {
    if (!context.kinds.includes(kind)) {
      cells.push('');
      continue;
    }
    let leaked = 0;
    for (let sample = 0; sample < samples; sample++) {
      const random = seededRandom(
        (contextIndex * 1_000_003 + kindIndex * 7919 + sample * 104_729 + 1) >>> 0,
      );
      const secret = secrets[kind]!(random);
      const text = context.write(secret, random);
      const mark = context.mark ? context.mark(secret, text) : middle(secret);
      if (redactSecrets(text).text.includes(mark)) {
        leaked++;
        if (kind === 'vendor' && process.env.SHOW_FAMILY)
          console.log(`  vendor kept in ${context.name}: ${secret.slice(0, 5)}…`);
      }
    }
    if (kind === 'vendor') worst = Math.max(worst, leaked / samples);
    cells.push(`${((leaked / samples) * 100).toFixed(1)} %`);
  }
  console.log(`| ${context.name} | ${cells.join(' | ')} |`);
}
console.log(`\nworst vendor-token leak in any context: ${(worst * 100).toFixed(1)} %`);
