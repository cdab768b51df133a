import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alphabets,
  credentialPositions,
  pick,
  type Random,
  seededRandom,
} from './credential-families.js';
import { redactSecrets } from './index.js';
import { vendorRules } from './secret-rules.js';

// Every issuer rule off: what is caught here is caught by shape alone, as a family nobody wrote a
// rule for would be. `jwt` goes too, so signed tokens are judged by the generic layer.
const generic = new Set([
  'prefixed-token',
  'generated-token',
  'high-entropy-string',
  'password',
  'secret',
]);
const issuerKinds = [...new Set(vendorRules.map((rule) => rule.kind))].filter(
  (kind) => !generic.has(kind),
);
const shapesOnly = { disabledKinds: [...issuerKinds, 'jwt'] };

const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const lower = 'abcdefghijklmnopqrstuvwxyz';
const base64url = (text: string) =>
  Buffer.from(text).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const uuid = (random: Random) =>
  [8, 4, 4, 4, 12].map((length) => pick(random, alphabets.hex, length)).join('-');

// Shapes issuers mint, each with a made-up prefix: the share of draws the generic layers catch in
// every position. The shapes judged by statistics (capitals with digits, a pronounceable run now
// and then) miss a few. The seed is new each run, so each floor sits where, at the miss rate
// measured over 20,000 draws, 400 draws fall below it less than once in a million runs (Poisson).
const shapes: Array<[string, (random: Random) => string, number]> = [
  [
    'capitals then capitals and digits (access-key ids)',
    (r) => `${pick(r, upper, 4 + Math.floor(r.next() * 3))}${pick(r, alphabets.base32, 16)}`,
    0.8,
  ],
  [
    'dash-parted groups of capitals and digits',
    (r) =>
      `${pick(r, upper, 1)}${pick(r, '0123456789', 1)}-${[6, 11, 5, 5, 5].map((n) => pick(r, alphabets.upperAlnum, n)).join('-')}`,
    0.94,
  ],
  [
    'capitals glued to lower-case hex',
    // Letters no two-letter object-id prefix (`id`, `in`, `ws`, `ch`) is spelt from, and no
    // Twilio resource type (`SM`, `MM`, `MG`, `QU`: SIDs of resources that open nothing).
    (r) => {
      let type = pick(r, 'ABDEGJKLMNQSUXYZ', 2);
      while (/^(?:SM|MM|MG|QU)$/.test(type)) type = pick(r, 'ABDEGJKLMNQSUXYZ', 2);
      return `${type}${pick(r, alphabets.hex, 32)}`;
    },
    0.99,
  ],
  [
    'lower-case letters ending in a non-hex letter, glued to hex',
    (r) => `${pick(r, lower, 3)}${pick(r, 'ghijklmnopqrstuvwxyz', 1)}${pick(r, alphabets.hex, 32)}`,
    0.97,
  ],
  [
    'one-letter first part, a second part, 64 hex',
    (r) => `${pick(r, lower, 1)}-${pick(r, alphabets.lowerAlnum, 6)}-${pick(r, alphabets.hex, 64)}`,
    // As a file name, a second part that reads as a word (`p-furirk-<hex>.json`) is an asset's name.
    0.93,
  ],
  [
    'capitals, dash, short lower-case hex',
    (r) => `${pick(r, upper, 4)}-${pick(r, alphabets.hex, 19)}`,
    0.97,
  ],
  [
    'prefix, hex, short tail',
    (r) =>
      `${pick(r, upper, 7)}_${pick(r, upper, 4)}-${pick(r, alphabets.hex, 32)}-${pick(r, alphabets.alnum, 1 + Math.floor(r.next() * 16))}`,
    0.99,
  ],
  [
    'prefix glued to lower-case letters and digits',
    (r) => `${pick(r, lower, 2)}${pick(r, '0123456789', 1)}${pick(r, alphabets.lowerAlnum, 43)}`,
    0.96,
  ],
  [
    'prefix, groups of digits (ids), generated body',
    (r) =>
      `${pick(r, lower, 4)}-${pick(r, '0123456789', 12)}-${pick(r, '0123456789', 13)}-${pick(r, alphabets.alnum, 24)}`,
    0.96,
  ],
  [
    'prefix naming a credential, then a UUID',
    (r) =>
      `${['pat', 'access', 'secret', 'token'][Math.floor(r.next() * 4)]}-${pick(r, lower, 3)}${pick(r, '0123456789', 1)}-${uuid(r)}`,
    0.99,
  ],
  [
    'generated id, dot, hex',
    (r) => `${pick(r, lower, 3)}${pick(r, alphabets.alnum, 14)}.${pick(r, alphabets.hex, 64)}`,
    0.97,
  ],
  [
    'signed token (header, payload, signature)',
    (r) =>
      `${base64url(`{"alg":"${pick(r, upper, 2)}256","typ":"JWT"}`)}.${base64url(`{"sub":"${pick(r, alphabets.alnum, 12)}","iat":${Math.floor(r.next() * 2e9)}}`)}.${pick(r, alphabets.base64url, 43)}`,
    0.99,
  ],
  [
    'signed token with a payload past 1,000 characters',
    (r) =>
      `${base64url('{"alg":"RS256"}')}.${base64url(`{"claims":"${pick(r, alphabets.alnum, 900)}"}`)}.${pick(r, alphabets.base64url, 342)}`,
    0.99,
  ],
];

describe('generic token shapes with every issuer rule off', () => {
  const draws = 400;
  const seedBase = Date.now() % 1_000_000;
  for (const [name, make, floor] of shapes) {
    it(`redacts ${name} in every position (>= ${floor * 100} % of draws)`, () => {
      const missed: string[] = [];
      for (let draw = 0; draw < draws; draw++) {
        const random = seededRandom(seedBase + draw * 7919);
        const token = make(random);
        const [, wrap] = credentialPositions[draw % credentialPositions.length]!;
        if (redactSecrets(wrap(token), shapesOnly).text.includes(token)) missed.push(token);
      }
      expect(
        1 - missed.length / draws,
        `seed base ${seedBase}: ${missed.slice(0, 3).join(', ')}`,
      ).toBeGreaterThanOrEqual(floor);
    });
  }

  it('redacts a `_`-prefixed hex token used as a file name or a long flag', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1 }), (seed) => {
        const random = seededRandom(seed);
        // Consonants only: a prefix spelt like an object id's (`org_`, `run_`) would be one.
        const token = `${pick(random, 'bdfkmqvxz', 3)}_${pick(random, alphabets.hex, 40)}`;
        for (const wrap of [(t: string) => `cat ~/ci/${t}.json`, (t: string) => `tool --${t}=1`]) {
          expect(redactSecrets(wrap(token), shapesOnly).text).not.toContain(token);
        }
      }),
    );
  });
});

// What agents print all day that shares a shape with the tokens above: none may be redacted.
const words = ['SERVER', 'CONFIG', 'HANDLER', 'REQUEST', 'CONNECTION', 'EXTENSIONS', 'RUNNER'];
const lookAlikes: Array<[string, fc.Arbitrary<string>]> = [
  ['ULIDs', fc.ulid()],
  [
    'upper-case hex digests',
    fc.noBias(fc.stringMatching(/^(?:[0-9A-F]{32}|[0-9A-F]{40}|[0-9A-F]{64})$/)),
  ],
  [
    'object ids with a UUID (`user-…`, `key-…`)',
    fc
      .tuple(fc.constantFrom('user', 'req', 'key', 'order', 'node', 'tenant'), fc.uuid())
      .map(([prefix, id]) => `${prefix}-${id}`),
  ],
  [
    'digits after a prefix',
    fc
      .tuple(
        fc.noBias(fc.stringMatching(/^[a-z]{2,5}$/)),
        fc.noBias(fc.stringMatching(/^\d{32,64}$/)),
      )
      .map(([prefix, digits]) => `${prefix}_${digits}`),
  ],
  [
    'digits after an issuer prefix',
    fc
      .tuple(
        fc.constantFrom('vck', 'vcp', 'ghr', 'ghp', 'gho', 'npm', 'glpat', 'shpat', 'dop_v1'),
        fc.noBias(fc.stringMatching(/^\d{24,64}$/)),
      )
      .map(([prefix, digits]) => `${prefix}_${digits}`),
  ],
  [
    'constants in capitals with digits',
    fc
      .tuple(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }),
        // `AP<digit>` and `A3T` lead issuers' formats (Artifactory, AWS): not the shape judged here.
        fc.noBias(fc.stringMatching(/^[B-Z]{1,3}\d{1,3}$/)),
        fc.constantFrom('_', ''),
      )
      // Glued, one word follows the digits (`X509V3EXTENSIONS`); more words are joined by `_`.
      .map(([parts, head, join]) => `${head}${join}${join === '' ? parts[0] : parts.join('_')}`),
  ],
  [
    'typed letter-and-digit patterns',
    fc
      .integer({ min: 0, max: 10 })
      .map((shift) =>
        Array.from(
          { length: 8 },
          (_, index) =>
            `${lower.slice(shift + index * 2, shift + index * 2 + 2) || 'yz'}${index}${index + 1}`,
        ).join(''),
      ),
  ],
  [
    'dated release names',
    fc
      .tuple(
        fc.constantFrom('release', 'backup', 'snapshot-db', 'build'),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.array(fc.constantFrom(...words.map((word) => word.toLowerCase())), {
          minLength: 2,
          maxLength: 4,
        }),
      )
      .map(
        ([name, date, parts]) =>
          `${name}-${date.toISOString().replace(/\D/g, '').slice(0, 14)}-${parts.join('-')}`,
      ),
  ],
  [
    'fingerprinted assets',
    fc
      .tuple(
        fc.constantFrom('application', 'main', 'vendor', 'logo'),
        fc.noBias(fc.stringMatching(/^[0-9a-f]{64}$/)),
        fc.constantFrom('css', 'js', 'png'),
      )
      .map(([name, hash, extension]) => `public/assets/${name}-${hash}.${extension}`),
  ],
  ['content addresses (CIDv1)', fc.noBias(fc.stringMatching(/^bafy[a-z2-7]{55}$/))],
];

describe('generic token shapes leave look-alikes alone', () => {
  for (const [name, arbitrary] of lookAlikes) {
    it(`keeps ${name}`, () => {
      fc.assert(
        fc.property(arbitrary, (value) => {
          expect(redactSecrets(`value: ${value}`).findings).toEqual([]);
        }),
      );
    });
  }
});
