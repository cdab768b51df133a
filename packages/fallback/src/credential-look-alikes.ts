/**
 * Test and benchmark data, not part of the public API.
 * Values agents print all day that share a token's alphabet and length but open nothing:
 * identifiers, digests in git and package contexts, UUIDs, cloud console ids, temporary and build
 * file names, CSS module classes, slugs, test names. Each `make` draws a whole line; none may be
 * redacted (`credential-shapes.ts` holds the other direction).
 */
import { alphabets, pick, type Random } from './credential-families.js';
import { choose, integer } from './credential-shapes.js';

export interface LookAlike {
  kind: string;
  make: (random: Random) => string;
}

const words = (
  'account build cache client config cluster data deploy event export frontend gateway handler ' +
  'import index ingest logger master media network order payment queue render report resource ' +
  'router search server service session storage stream sync table tenant upload worker bucket ' +
  'lambda function website assets backup pipeline artifact notification'
).split(' ');
const word = (random: Random) => choose(random, words);
const pascal = (text: string) => text[0]!.toUpperCase() + text.slice(1);
const hex = (random: Random, length: number) => pick(random, alphabets.hex, length);
const uuid = (random: Random) =>
  `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${choose(random, [...'89ab'])}${hex(random, 3)}-${hex(random, 12)}`;
const base36Upper = alphabets.upperAlnum;
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A ULID minted between 2019 and 2027: a millisecond timestamp in ten characters, then 16 drawn. */
function ulid(random: Random): string {
  let time = Date.UTC(2019, 0, 1) + Math.floor(random.next() * 8 * 365 * 86_400_000);
  let head = '';
  for (let index = 0; index < 10; index++) {
    head = crockford[time % 32] + head;
    time = Math.floor(time / 32);
  }
  return head + pick(random, crockford, 16);
}

export const credentialLookAlikes: LookAlike[] = [
  { kind: 'git commit', make: (r) => `commit ${hex(r, 40)}\nAuthor: dev <dev@example.com>` },
  { kind: 'short sha in log', make: (r) => `${hex(r, 7)} ${word(r)}: fix ${word(r)} retry` },
  {
    kind: 'npm integrity',
    make: (r) => `"integrity": "sha512-${pick(r, alphabets.base64, 86)}=="`,
  },
  { kind: 'uuid in prose', make: (r) => `Created ${word(r)} ${uuid(r)} in 2.3s` },
  {
    kind: 'CloudFormation physical id',
    make: (r) =>
      `${pascal(word(r))}Stack-${pascal(word(r))}${pascal(word(r))}${pick(r, alphabets.upperHex, 8)}-${pick(r, base36Upper, integer(r, 12, 13))}`,
  },
  {
    kind: 'CloudFormation id in prose',
    make: (r) =>
      `Resource ${pascal(word(r))}-${pascal(word(r))}${pascal(word(r))}-${pick(r, alphabets.alnum, 12)} is UPDATE_COMPLETE`,
  },
  {
    kind: 'ULID after a word',
    make: (r) => {
      const id = ulid(r);
      return `${word(r)}${choose(r, ['.', '_', '-'])}${r.next() < 0.5 ? id.toLowerCase() : id}`;
    },
  },
  { kind: 'mktemp file', make: (r) => `wrote /tmp/${word(r)}-${pick(r, alphabets.alnum, 20)}` },
  {
    kind: 'build chunk',
    make: (r) => `dist/assets/${word(r)}-${pick(r, alphabets.alnum, 8)}.js  12.4 kB`,
  },
  {
    kind: 'CSS module class',
    make: (r) => `<div class="${pascal(word(r))}_${word(r)}__${pick(r, alphabets.alnum, 5)}">`,
  },
  {
    kind: 'slug with hash',
    make: (r) => `https://example.com/blog/${word(r)}-${word(r)}-${word(r)}-${hex(r, 12)}`,
  },
  {
    kind: 'test name',
    make: (r) => `PASS test_${word(r)}_${word(r)}_with_${word(r)}_${integer(r, 1, 99)} (0.02s)`,
  },
  {
    kind: 'kubernetes pod',
    make: (r) =>
      `${word(r)}-${word(r)}-${pick(r, 'bcdfghjklmnpqrstvwxz2456789', 10)}-${pick(r, 'bcdfghjklmnpqrstvwxz2456789', 5)}   1/1   Running`,
  },
  {
    kind: 'docker digest',
    make: (r) => `${word(r)}@sha256:${hex(r, 64)}`,
  },
  {
    kind: 'base32 archive name',
    make: (r) => `saved ${word(r)}-${pick(r, alphabets.base32, 26).toLowerCase()}.tar.gz`,
  },
  {
    kind: 'aws request id',
    make: (r) => `RequestId: ${uuid(r)} Duration: 3.1 ms`,
  },
  {
    kind: 'camel identifier with number',
    make: (r) =>
      `const ${word(r)}${pascal(word(r))}${pascal(word(r))}V${integer(r, 2, 9)} = ${word(r)}${pascal(word(r))}Handler;`,
  },
  {
    kind: 'python wheel',
    make: (r) =>
      `${word(r)}_${word(r)}-${integer(r, 0, 9)}.${integer(r, 0, 30)}.${integer(r, 0, 9)}-py3-none-any.whl`,
  },
];
