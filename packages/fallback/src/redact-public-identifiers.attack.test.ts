import { randomBytes } from 'node:crypto';
import { lowerShareBound } from '@baton/test-corpus/share-bounds';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

/**
 * Attack suite (reviewer): public identifiers the generic shape layers of this change took for
 * credentials. Values generated at test time; each is shown in the positions code and logs put it.
 */

const positions = [
  (value: string) => value,
  (value: string) => JSON.stringify({ address: value, amount: 1 }),
  (value: string) => `https://explorer.example/address/${value}/txs`,
  (value: string) => `const ADDRESS = "${value}";`,
];

// BIP-173 / BIP-350, written here from the spec so the test does not borrow the code under test.
const charset = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const step = (chk: number, value: number) =>
  generators.reduce(
    (next, generator, bit) => (((chk >>> 25) >>> bit) & 1 ? next ^ generator : next),
    ((chk & 0x1ffffff) << 5) ^ value,
  );
function bech32(hrp: string, bytes: number[], version: number | undefined): string {
  const words: number[] = version === undefined ? [] : [version];
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((buffer >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((buffer << (5 - bits)) & 31);
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  const expanded = [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31)];
  const constant = version !== undefined && version > 0 ? 0x2bc830a3 : 1;
  const mod = ([...expanded, ...words, 0, 0, 0, 0, 0, 0].reduce(step, 1) >>> 0) ^ constant;
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((word) => charset[word]).join('')}`;
}

const address = fc.oneof(
  fc
    .tuple(fc.constantFrom('bc', 'tb', 'ltc'), fc.constantFrom(20, 32))
    .chain(([hrp, length]) =>
      fc
        .noBias(fc.array(fc.nat(255), { minLength: length, maxLength: length }))
        .map((bytes) => bech32(hrp, bytes, 0)),
    ),
  fc
    .tuple(
      fc.constantFrom('bc', 'tb'),
      fc.noBias(fc.array(fc.nat(255), { minLength: 32, maxLength: 32 })),
    )
    .map(([hrp, bytes]) => bech32(hrp, bytes, 1)),
  fc
    .tuple(
      fc.constantFrom('cosmos', 'osmo', 'celestia'),
      fc.noBias(fc.array(fc.nat(255), { minLength: 20, maxLength: 20 })),
    )
    .map(([hrp, bytes]) => bech32(hrp, bytes, undefined)),
  fc
    .noBias(fc.array(fc.nat(255), { minLength: 32, maxLength: 32 }))
    .map((bytes) => bech32('npub', bytes, undefined)),
);

describe('attack: public identifiers are not credentials', () => {
  it('leaves checksummed bech32 addresses (bc1…, tb1…, cosmos1…, npub1…) alone', () => {
    fc.assert(
      fc.property(address, fc.nat(positions.length - 1), (value, position) => {
        const text = positions[position]!(value);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it('still redacts a bech32-encoded secret key (nsec1…) in nearly every draw', () => {
    // Random keys, not shrunk ones: a key of zero bytes is typed, and the shape layer rightly
    // leaves it. About 0.4 % of random keys read as a name by chance (measured before this change).
    const draws = 200;
    let missed = 0;
    for (let draw = 0; draw < draws; draw++) {
      const value = bech32('nsec', [...randomBytes(32)], undefined);
      const text = positions[draw % positions.length]!(value);
      if (redactSecrets(text).text.includes(value.slice(5))) missed++;
    }
    // Measured 2,989 of 3,000 (15 seeds of 200): a fixed 0.98 broke 1 run in 1,000; the bound is
    // the binomial's tail at the measured rate.
    expect(1 - missed / draws).toBeGreaterThanOrEqual(lowerShareBound(2_989 / 3_000, draws));
  });

  // Algorithm and format names of crypto and graphics APIs glue acronyms and numbers in capitals
  // (BouncyCastle's `SHA256WITHRSAANDMGF1`, `TLS13AES128GCMSHA256`).
  const acronym = fc.constantFrom(
    'SHA',
    'RSA',
    'AES',
    'GCM',
    'ECDSA',
    'HMAC',
    'WITH',
    'AND',
    'MGF',
    'PSS',
    'OAEP',
    'CBC',
    'CTR',
    'TLS',
    'PBKDF',
    'SECP',
    'CHACHA',
    'POLY',
    'SRGB',
    'UNORM',
    'ASTC',
    'BLOCK',
  );
  const number = fc.constantFrom('1', '2', '3', '13', '128', '192', '256', '384', '512', '1305');
  const name = fc
    .noBias(fc.array(fc.tuple(acronym, number), { minLength: 2, maxLength: 4 }))
    .chain((pairs) =>
      fc
        .tuple(fc.constant(pairs), acronym, fc.boolean())
        .map(
          ([parts, last, trailing]) =>
            parts.map(([letters, digits]) => letters + digits).join('') + (trailing ? last : ''),
        ),
    )
    .filter((value) => value.length >= 16);

  it('leaves algorithm names in capitals and digits alone', () => {
    fc.assert(
      fc.property(name, fc.nat(positions.length - 1), (value, position) => {
        const text = positions[position]!(value);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 400 },
    );
  });
});
