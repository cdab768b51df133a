import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialPositions } from './credential-families.js';
import { isCloudResourceId, isObjectId } from './generated-token-shape.js';
import { redactSecrets } from './index.js';

// A vendor-style prefix and a hex body of 16–31 characters (64–124 bits): shorter than the 32 once
// required, and joined by `_`, `-`, `.` or `~`. Drawn without bias: biased draws repeat one
// character, and a typed run (`0123456789abcdef`) reads as a placeholder by design.
const drawn = (characters: string, minLength: number, maxLength: number) =>
  fc
    .noBias(fc.array(fc.integer({ min: 0, max: characters.length - 1 }), { minLength, maxLength }))
    .map((indexes) => indexes.map((index) => characters[index]).join(''));
const lowerHex = '0123456789abcdef';
const randomHex = (minLength: number, maxLength: number, upper: boolean) =>
  drawn(lowerHex, minLength, maxLength)
    .map((hex) => (upper ? hex.toUpperCase() : hex))
    .filter(
      (hex) => /[a-f]/i.test(hex) && /\d/.test(hex) && !/(?:0123|1234|2345|3456|abcd)/i.test(hex),
    );

// Issuers abbreviate (`sk`, `ghp`, `xoxb`) or write capitals; a lower-case prefix that could be a
// word names a thing (`worker-<hex>`, tested below), so lower-case prefixes here are two letters or
// consonants only.
const issuerPrefix = fc.oneof(
  drawn('abcdefghijklmnopqrstuvwxyz', 2, 6).map((prefix) => prefix.toUpperCase()),
  drawn('abcdefghijklmnopqrstuvwxyz', 2, 2),
  drawn('bcdfghjklmnpqrstvwxz', 3, 6),
);

const token = fc
  .tuple(
    issuerPrefix,
    fc.constantFrom('_', '-', '.', '~'),
    fc.integer({ min: 16, max: 31 }),
    fc.integer({ min: 1, max: 1_000_000 }),
  )
  .chain(([prefix, separator, length]) =>
    randomHex(length, length, prefix === prefix.toUpperCase()).map(
      (hex) => `${prefix}${separator}${hex}`,
    ),
  )
  // A prefix naming an API object id (`ch_`, `in_`, `sha256-`) or a cloud resource (`sg-` and 17
  // hex) marks an id by design.
  .filter((value) => !isObjectId(value) && !isCloudResourceId(value));

const positions: Array<(value: string) => string> = [
  ...credentialPositions.map(([, wrap]) => wrap),
  (value) => `token=${value}`,
  (value) => `api_key: ${value}`,
  (value) => `{"db":{"value":"${value}"}}`,
  (value) => `https://example.com/v1/keys/${value}?x=1`,
];

describe('a vendor-style prefix and a short hex body', () => {
  it('is redacted in every position, whatever the separator and case (property)', () => {
    fc.assert(
      fc.property(token, fc.nat({ max: positions.length - 1 }), (value, position) => {
        const body = value.slice(value.search(/[_\-.~][0-9a-f]+$/i) + 1);
        expect(redactSecrets(positions[position]!(value)).text).not.toContain(body);
      }),
      { numRuns: 2000, endOnFailure: true },
    );
  });

  it('after `~/`: a hex file name under a directory naming keys is redacted (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('keys', 'tokens', 'secrets', 'credentials', '.keys', 'api-keys'),
        randomHex(16, 64, false),
        fc.constantFrom('cat ~/', 'ls -l ~/', 'path: ~/', '{"file":"~/'),
        (directory, hex, lead) => {
          expect(redactSecrets(`${lead}${directory}/${hex} done`).text).not.toContain(hex);
        },
      ),
      { numRuns: 500, endOnFailure: true },
    );
  });

  it('is not taken for encoded text when its hex happens to decode to printable bytes (property)', () => {
    // Groups of four hex characters that base64-decode to three printable bytes: a body built of
    // them is what random hex is now and then (about once in 1,000 draws of 20), and it is hex.
    const hexAlphabet = [...lowerHex];
    const printableGroups: string[] = [];
    for (const a of hexAlphabet)
      for (const b of hexAlphabet)
        for (const c of hexAlphabet)
          for (const d of hexAlphabet) {
            const bytes = Buffer.from(`${a}${b}${c}${d}`, 'base64');
            if (bytes.length === 3 && bytes.every((byte) => byte >= 32 && byte < 127)) {
              printableGroups.push(`${a}${b}${c}${d}`);
            }
          }
    const body = fc
      .noBias(fc.array(fc.constantFrom(...printableGroups), { minLength: 4, maxLength: 7 }))
      .map((groups) => groups.join(''))
      .filter(
        (hex) => /[a-f]/.test(hex) && /\d/.test(hex) && !/(?:0123|1234|2345|3456|abcd)/.test(hex),
      );
    fc.assert(
      fc.property(
        drawn('bcdfghjklmnpqrstvwxz', 2, 2),
        fc.constantFrom('_', '-', '~'),
        body,
        (prefix, separator, hex) => {
          const value = `${prefix}${separator}${hex}`;
          fc.pre(!isObjectId(value) && !isCloudResourceId(value));
          expect(redactSecrets(`token=${value}`).text).not.toContain(hex);
          expect(redactSecrets(`see ${value} here`).text).not.toContain(hex);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves hashes that name content alone (property)', () => {
    const word = fc.constantFrom('serde', 'serde_json', 'tokio', 'libc', 'proc-macro2', 'syn');
    const shapes = fc.oneof(
      // A git hash in prose, a colour code, a typed digest.
      randomHex(7, 40, false).map((hex) => `fixed in commit ${hex} last week`),
      randomHex(6, 6, false).map((hex) => `color: #${hex};`),
      randomHex(64, 64, false).map((hex) => `image@sha256:${hex}`),
      // A build tool's fingerprinted asset and Cargo's per-crate metadata hash.
      fc
        .tuple(fc.constantFrom('main', 'chunk', 'vendor', 'index'), randomHex(8, 20, false))
        .chain(([name, hex]) =>
          fc.constantFrom(`dist/${name}.${hex}.js`, `dist/${name}-${hex}.css`),
        ),
      fc
        .tuple(word, randomHex(16, 16, false), fc.constantFrom('deps', 'build', '.fingerprint'))
        .map(([crate, hex, directory]) => `target/debug/${directory}/${crate}-${hex}/out`),
      // Cloud resource ids anyone with console access reads (`i-`, `vol-`, `sg-`, 17 hex).
      fc
        .tuple(
          fc.constantFrom('i', 'vol', 'sg', 'subnet', 'vpc', 'ami', 'eni', 'snap'),
          randomHex(17, 17, false),
        )
        .map(([kind, hex]) => `instance ${kind}-${hex} is running`),
    );
    fc.assert(
      fc.property(shapes, (text) => {
        expect(redactSecrets(text).findings).toEqual([]);
      }),
      { numRuns: 1000, endOnFailure: true },
    );
  });

  it('costs linear time on a long run of near-miss shapes', () => {
    // Prefixes, separators and hex that never reach a token's length, parted by spaces and `~/`.
    const text = Array.from({ length: 15_000 }, (_, index) =>
      index % 3 === 0 ? `ab_3f9a1c2b7d4e8f6 ` : index % 3 === 1 ? `~/keys/x.3f9a~` : `a.b~c_d-e `,
    ).join('');
    expect(text.length).toBeGreaterThan(200_000);
    expect(redactSecrets(text).text.length).toBeGreaterThan(0);
  });
});
