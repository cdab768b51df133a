import { describe, expect, it } from 'vitest';
import { pick, type Random, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

/**
 * Ordinary code and tool output that holds generated-looking values which are not credentials:
 * digests, content addresses, encoded bytes, mangled symbols, release names, object ids. The
 * generic token-shape layers must leave them whole. Values are drawn at test time.
 */
const hex = '0123456789abcdef';
const digits = '0123456789';
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const base64url = `${alnum}-_`;
const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const vlq = `${alnum}+/`;

function bytes(random: Random, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => Math.floor(random.next() * 256));
}
const base64 = (random: Random, length: number) =>
  Buffer.from(bytes(random, length)).toString('base64');
const uuid = (random: Random) => {
  const body = pick(random, hex, 32);
  return `${body.slice(0, 8)}-${body.slice(8, 12)}-4${body.slice(13, 16)}-a${body.slice(17, 20)}-${body.slice(20)}`;
};

const shapes: Array<[string, (random: Random) => string]> = [
  ['git SHA', (random) => `commit ${pick(random, hex, 40)}\nAuthor: dev`],
  ['short SHA', (random) => `* ${pick(random, hex, 7)} fix the parser`],
  ['docker digest', (random) => `FROM node@sha256:${pick(random, hex, 64)}`],
  ['npm integrity', (random) => `"integrity": "sha512-${base64(random, 64)}"`],
  ['lockfile', (random) => `  resolution: {integrity: sha512-${base64(random, 64)}}`],
  ['subresource integrity', (random) => `<script integrity="sha384-${base64(random, 48)}">`],
  ['data URI', (random) => `<img src="data:image/png;base64,${base64(random, 40 + 300)}">`],
  [
    'data URI with parameters',
    (random) => `url(data:font/woff2;charset=utf-8;base64,${base64(random, 90)})`,
  ],
  ['Go module sum', (random) => `github.com/a/b v1.2.3 h1:${base64(random, 32)}`],
  ['Go go.mod sum', (random) => `github.com/a/b v1.2.3/go.mod h1:${base64(random, 32)}`],
  ['wheel hash', (random) => `    --hash=sha256:${pick(random, hex, 64)}`],
  ['vite asset', (random) => `dist/assets/index-${pick(random, base64url, 8)}.js  142.31 kB`],
  ['webpack chunk', (random) => `main.${pick(random, hex, 20)}.chunk.js`],
  ['CSS class hash', (random) => `<div class="css-${pick(random, 'abcdefghij0123456789', 6)}">`],
  ['S3 key', (random) => `s3://bucket/uploads/${uuid(random)}/${pick(random, hex, 12)}.png`],
  ['UUID in a log', (random) => `request_id=${uuid(random)}`],
  ['k8s pod', (random) => `api-${pick(random, 'bcdfghjklmnpqrstvwxz2456789', 10)}-x2x9k`],
  [
    'trace context',
    (random) => `traceparent: 00-${pick(random, hex, 32)}-${pick(random, hex, 16)}-01`,
  ],
  ['AWS ARN', (random) => `arn:aws:iam::${pick(random, digits, 12)}:role/ServiceRole`],
  ['S3 extended request id', (random) => `x-amz-id-2: ${base64(random, 56)}`],
  ['ETag', (random) => `ETag: W/"${pick(random, hex, 8)}-${pick(random, base64url, 27)}"`],
  ['IPFS CID', (random) => `ipfs://Qm${pick(random, base58, 44)}`],
  ['Rust v0 symbol', (random) => `  at _RNvCs${pick(random, alnum, 11)}_7mycrate4main`],
  ['Itanium symbol', (random) => `_ZN4core3ptr13drop_in_place17h${pick(random, hex, 16)}E`],
  ['conda build', (random) => `numpy-1.26.4-py311h${pick(random, hex, 8)}_0`],
  ['Stripe payment method', (random) => `pm_${pick(random, alnum, 24)}`],
  ['Stripe setup intent', (random) => `seti_${pick(random, alnum, 24)}`],
  [
    'GCP operation',
    (random) =>
      `operation-${pick(random, digits, 13)}-${pick(random, hex, 13)}-${pick(random, hex, 8)}-${pick(random, hex, 8)}`,
  ],
  [
    'CI cache key',
    (random) =>
      `Cache restored from key: node-cache-Linux-x64-pnpm-${pick(random, hex, 64)}\nCache saved with key: setup-go-Linux-ubuntu22-go-1.22.${pick(random, digits, 1)}-${pick(random, hex, 64)}`,
  ],
  [
    'source map',
    (random) =>
      `{"version":3,"sources":["a.ts"],"mappings":"${Array.from({ length: 40 }, () => pick(random, vlq, 4 + Math.floor(random.next() * 60))).join(random.next() < 0.5 ? ';' : ',')}"}`,
  ],
];

describe('generic token shapes leave ordinary build and tool output whole', () => {
  const draws = 100;
  const seedBase = Date.now() % 1_000_000;

  for (const [name, make] of shapes) {
    it(`does not redact: ${name}`, () => {
      const destroyed: string[] = [];
      for (let draw = 0; draw < draws; draw++) {
        const text = make(seededRandom(seedBase + draw * 7919));
        const { findings } = redactSecrets(text);
        if (findings.length > 0) destroyed.push(`${findings[0]!.kind} in ${text.slice(0, 120)}`);
      }
      expect(destroyed, `seed base ${seedBase}`).toEqual([]);
    });
  }

  it('still redacts a signed JWT in a fixture (a bearer credential cannot be told from a test one)', () => {
    const random = seededRandom(seedBase);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const jwt = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: pick(random, digits, 10) })}.${pick(random, base64url, 43)}`;
    expect(redactSecrets(`const token = '${jwt}';`).text).not.toContain(jwt);
  });

  it('still redacts a token that leaves the VLQ alphabet inside a source map', () => {
    const random = seededRandom(seedBase + 2);
    const token = `ghp_${pick(random, alnum, 36)}`;
    const map = `{"version":3,"mappings":"${pick(random, vlq, 12)};${token};AAAA"}`;
    expect(redactSecrets(map).text).not.toContain(token);
  });

  it('is idempotent on every shape and leaves nothing to find the second time', () => {
    const random = seededRandom(seedBase + 1);
    const text = shapes.map(([, make]) => make(random)).join('\n');
    const once = redactSecrets(text);
    const twice = redactSecrets(once.text);
    expect(twice.text).toBe(once.text);
    expect(twice.findings).toEqual([]);
  });
});
