import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { keyDeclaresNotSecret } from './secret-rules.js';

/**
 * Attacks on the exemptions that leave a generated-looking value in the clear (SSH public keys,
 * business record numbers, values under a key naming a thing's id, Solana addresses named as
 * such): a secret written in the same shape, in the same place, must still be redacted. Values
 * are drawn at test time; the SSH wire format is written here from RFC 4253 and the agent draft.
 */

const bytes = (minLength: number, maxLength = minLength) =>
  fc.noBias(fc.array(fc.nat(255), { minLength, maxLength }));

/** SSH wire format: each field a 32-bit big-endian length and its bytes. */
function sshFields(fields: ReadonlyArray<readonly number[] | string>): string {
  const out: number[] = [];
  for (const field of fields) {
    const data = typeof field === 'string' ? [...Buffer.from(field)] : field;
    out.push(
      (data.length >>> 24) & 255,
      (data.length >>> 16) & 255,
      (data.length >>> 8) & 255,
      data.length & 255,
      ...data,
    );
  }
  return Buffer.from(out).toString('base64');
}

const sshContexts = [
  (value: string) => value,
  (value: string) => `key: ${value}`,
  (value: string) => `ssh-ed25519 ${value} me@laptop`,
  (value: string) => JSON.stringify({ identity: value }),
  (value: string) => `echo ${value} | base64 -d | ssh-add -`,
];

/** True when none of the secret bytes (base64 of the whole secret field) stands in `output`. */
const hides = (output: string, encoded: string) => !output.includes(encoded.slice(40));

describe('an SSH private key in the agent wire format is not a public key', () => {
  it('an Ed25519 key (name, public point, then the 64-byte private key and a comment) is redacted', () => {
    fc.assert(
      fc.property(bytes(32), bytes(64), fc.constantFrom(...sshContexts), (point, secret, wrap) => {
        const encoded = sshFields(['ssh-ed25519', point, secret, 'me@laptop']);
        return hides(redactSecrets(wrap(encoded)).text, encoded);
      }),
      { numRuns: 300 },
    );
  });

  it('an RSA or ECDSA key with its private fields after the public ones is redacted', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('ssh-rsa', 'ecdsa-sha2-nistp256', 'ssh-dss'),
        fc.array(bytes(16, 96), { minLength: 5, maxLength: 7 }),
        fc.constantFrom(...sshContexts),
        (name, fields, wrap) => {
          const encoded = sshFields([name, ...fields]);
          return hides(redactSecrets(wrap(encoded)).text, encoded);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a certificate key in the agent format (the whole certificate where a nonce stands) is redacted', () => {
    fc.assert(
      fc.property(
        bytes(120, 400),
        bytes(64),
        fc.constantFrom(...sshContexts),
        (certificate, secret, wrap) => {
          const encoded = sshFields([
            'ssh-ed25519-cert-v01@openssh.com',
            certificate,
            bytes32(certificate),
            secret,
          ]);
          return hides(redactSecrets(wrap(encoded)).text, encoded);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('public keys stay in the clear, whole or cut short', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          bytes(32).map((point) => sshFields(['ssh-ed25519', point])),
          fc
            .tuple(bytes(256), bytes(3))
            .map(([modulus, exponent]) => sshFields(['ssh-rsa', exponent, [0, ...modulus]])),
          bytes(65).map((point) => sshFields(['ecdsa-sha2-nistp256', 'nistp256', point])),
          fc
            .tuple(bytes(32), bytes(64, 200))
            .map(([nonce, rest]) =>
              sshFields(['ssh-ed25519-cert-v01@openssh.com', nonce, ...[rest]]),
            ),
        ),
        fc.noBias(fc.integer({ min: 0, max: 30 })),
        (key, cut) => {
          const shown = cut === 0 ? key : key.slice(0, Math.max(48, key.length - cut * 4));
          const line = `ssh-ed25519 ${shown} me@laptop`;
          return redactSecrets(line).text === line;
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** The first 32 bytes of `data`, padded: a stand-in public point drawn from the same bytes. */
function bytes32(data: readonly number[]): number[] {
  return [...data.slice(0, 32), ...new Array(Math.max(0, 32 - data.length)).fill(7)];
}

const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const drawn = (alphabet: string, minLength: number, maxLength: number) =>
  fc.noBias(
    fc
      .array(fc.nat(alphabet.length - 1), { minLength, maxLength })
      .map((indexes) => indexes.map((index) => alphabet[index]).join('')),
  );
// A generated mixed-case body: at least one lower-case and one upper-case letter by construction.
const mixedBody = fc
  .tuple(drawn(alphanumeric, 30, 48), fc.nat(25), fc.nat(25))
  .map(
    ([body, lower, upper]) =>
      `${String.fromCharCode(97 + lower)}${body}${String.fromCharCode(65 + upper)}`,
  );
const recordPrefix = fc.constantFrom(
  'ref',
  'inv',
  'case',
  'po',
  'ord',
  'tkt',
  'rcpt',
  'rma',
  'quote',
);
const recordContexts = [
  (value: string) => value,
  (value: string) => `use ${value} for the webhook`,
  (value: string) => `Authorization: Bearer ${value}`,
  (value: string) => JSON.stringify({ value }),
];

describe('a business record prefix does not make a generated secret an id', () => {
  it('identifiers of words after a record word (`case_HandleUserLogin…`) stay in the clear', () => {
    const words = 'handle user account settings panel service loader email thread status event';
    const word = fc.constantFrom(...words.split(' '));
    fc.assert(
      fc.property(recordPrefix, fc.array(word, { minLength: 4, maxLength: 7 }), (prefix, words) => {
        const name = `${prefix}_${words.map((part) => part[0]!.toUpperCase() + part.slice(1)).join('')}`;
        const line = `const handler = ${name};`;
        return redactSecrets(line).text === line;
      }),
      { numRuns: 200 },
    );
  });

  it('a record prefix before a long generated mixed-case body is redacted', () => {
    let redacted = 0;
    const draws = 400;
    fc.assert(
      fc.property(
        recordPrefix,
        fc.constantFrom('_', '-'),
        mixedBody,
        fc.constantFrom(...recordContexts),
        (prefix, separator, body, wrap) => {
          if (!redactSecrets(wrap(`${prefix}${separator}${body}`)).text.includes(body)) redacted++;
        },
      ),
      { numRuns: draws },
    );
    // The structural detector passes over about one random body in three hundred whatever its
    // prefix; a record prefix that made the body an id would leave nearly all of them.
    expect(redacted / draws).toBeGreaterThanOrEqual(0.97);
  });

  it('record numbers (digits and capitals, database ids) stay in the clear', () => {
    fc.assert(
      fc.property(
        recordPrefix,
        fc.oneof(
          drawn('0123456789', 6, 16),
          drawn('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 26, 26),
          drawn('0123456789abcdef', 24, 24),
        ),
        (prefix, body) => {
          const line = `Your ${prefix} number is ${prefix}_${body}.`;
          return redactSecrets(line).text === line;
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * True when `value` is redacted after `key` wherever it is redacted after a key that names nothing
 * (`note: `): the structural detector passes over about one random value in a hundred anywhere,
 * so only what the key itself changes is asked.
 */
function keyHidesNoLess(key: string, value: string): boolean {
  const hidden = (prefix: string) => !redactSecrets(`${prefix}${value}`).text.includes(value);
  return hidden(key) || !hidden('note: ');
}

describe('a key naming the id of a credential does not exempt its value', () => {
  it('refresh, one-time, bearer, cookie and HMAC ids are redacted', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('refresh', 'otp', 'totp', 'bearer', 'cookie', 'hmac', 'oauth', 'jwt'),
        fc.constantFrom(
          (word: string) => `${word}_id: `,
          (word: string) => `"${word}Id": "`,
          (word: string) => `${word.toUpperCase()}_ID=`,
          (word: string) => `user_${word}_id = '`,
        ),
        mixedBody,
        (word, key, value) => keyHidesNoLess(key(word), value),
      ),
      { numRuns: 300 },
    );
  });
});

describe('an address word must start a word of the key', () => {
  const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  // 43 Base58 digits led by a letter: at least 9 * 58^42 (above 2^249), below 58^43 (2^252), so
  // exactly 32 bytes, as a Solana public key or a private seed.
  const key32 = fc
    .tuple(drawn(base58Alphabet.slice(9), 1, 1), drawn(base58Alphabet, 42, 42))
    .map(([head, rest]) => head + rest);

  it('a 32-byte Base58 value after a key merely ending in an address word is redacted', () => {
    fc.assert(
      fc.property(
        drawn('abcdefghijklmnopqrstuvwxyz', 2, 6),
        fc.constantFrom('sol', 'mint', 'owner', 'vote', 'payer', 'sender', 'account'),
        key32,
        (head, word, value) => {
          // A drawn head may spell a word that marks the value public or a digest by design
          // (`csrfaa…`, `hashsol`).
          fc.pre(!keyDeclaresNotSecret(`${head}${word}: `));
          // The word may complete one across the join (`ipf` + `sol` spells `ipfs`).
          fc.pre(
            !/sha-?\d|md5|hash|digest|integrity|checksum|fingerprint|ipfs|h1/.test(head + word),
          );
          return [`${head}${word}: `, `${(head + word).toUpperCase()}=`].every((key) =>
            keyHidesNoLess(key, value),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('address words glued or in camel case (`walletAddress`, `OWNERADDRESS`) still name one', () => {
    const word = fc.constantFrom('wallet', 'owner', 'mint', 'sender', 'token');
    fc.assert(
      fc.property(word, key32, fc.nat(2), (head, value, form) => {
        const key = [`${head}Address`, `${head}address`.toUpperCase(), `${head}address`][form]!;
        const line = `${key}: ${value}`;
        return redactSecrets(line).text === line;
      }),
      { numRuns: 200 },
    );
  });
});

describe('a token that starts like a GitHub node id is not one', () => {
  it('a secret-named value `XX_kwDO…` with a random body is redacted', () => {
    const urlSafe = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const keys = ['token: ', 'GITHUB_SECRET=', '"api_key": "', 'password = '];
    let redacted = 0;
    const draws = 300;
    fc.assert(
      fc.property(
        fc.constantFrom('I', 'PR', 'U', 'PVT', 'SK'),
        fc.constantFrom('kwDO', 'kgDO'),
        drawn(urlSafe, 24, 60),
        fc.nat(keys.length - 1),
        (type, head, body, key) => {
          const value = `${type}_${head}${body}`;
          if (!redactSecrets(`${keys[key]}${value}`).text.includes(value)) redacted++;
        },
      ),
      { numRuns: draws },
    );
    // A random body parses as a whole MessagePack array about once in a few hundred draws.
    expect(redacted / draws).toBeGreaterThanOrEqual(0.97);
  });
});
