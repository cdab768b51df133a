import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alphabets,
  credentialFamilies,
  lookAlikes,
  pick,
  credentialPositions as positions,
  type Random,
  seededRandom,
} from './credential-families.js';
import { redactSecrets } from './index.js';

function leaked(text: string, token: string): boolean {
  const output = redactSecrets(text).text;
  // The token, or any 16-character piece of it, left in the clear is a leak.
  if (output.includes(token)) return true;
  for (let start = 0; start + 16 <= token.length; start += 8) {
    const piece = token.slice(start, start + 16);
    if (/[A-Za-z0-9]{16}/.test(piece) && output.includes(piece)) return true;
  }
  return false;
}

describe('every credential family with a documented prefix, in every position', () => {
  for (const credential of credentialFamilies) {
    it(credential.family, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 2 ** 31 }),
          fc.constantFrom(...positions),
          (seed, [, wrap]) => {
            const random = seededRandom(seed);
            const token = credential.make(random);
            const text = wrap(token);
            expect(leaked(text, token), text).toBe(false);
          },
        ),
        { numRuns: 48 },
      );
    });
  }
});

describe('every documented family is found by its own rule, not only by the shape layer', () => {
  // A rule whose hints miss its own prefix never runs (Grafana's `eyJrIjoi` rule once carried only
  // the kind's `glc_`/`glsa_` hints); the generic shapes hid that by catching most values anyway.
  it('with the generic kinds off, each family keeps at least 15 of 18 positions', () => {
    // A position may be one a rule declines by design (a short prefix glued to the word before
    // it); a rule that never runs loses them all.
    const weak: string[] = [];
    const seedBase = Date.now() % 1_000_000;
    for (const credential of credentialFamilies) {
      const leaks: string[] = [];
      for (let draw = 0; draw < positions.length; draw++) {
        const token = credential.make(seededRandom(seedBase + draw * 7919));
        const [, wrap] = positions[draw]!;
        const output = redactSecrets(wrap(token), {
          disabledKinds: ['prefixed-token', 'generated-token'],
        }).text;
        for (let start = 0; start + 16 <= token.length; start += 8) {
          const piece = token.slice(start, start + 16);
          if (/[A-Za-z0-9]{16}/.test(piece) && output.includes(piece)) {
            leaks.push(wrap(token).slice(0, 80));
            break;
          }
        }
      }
      if (leaks.length > 3) weak.push(`${credential.family}: ${leaks.join(' | ')}`);
    }
    expect(weak, `seed base ${seedBase}`).toEqual([]);
  });
});

// Secrets with no prefix are found by their context: the header, flag, key or sentence around them.
const randomSecret = (random: Random) =>
  pick(random, alphabets.alnum, 20 + Math.floor(random.next() * 20));
const contexts: Array<[string, (secret: string) => string]> = [
  ['curl -H any header', (secret) => `curl -H "X-Custom-Auth: ${secret}" https://api.example.com`],
  ['curl -H Token', (secret) => `curl -H 'Token: ${secret}' https://api.example.com`],
  [
    'curl --header Api-Token',
    (secret) => `curl --header "Api-Token: ${secret}" https://x.example.com`,
  ],
  ['curl -u user:password', (secret) => `curl -u admin:${secret} https://x.example.com`],
  ['curl -u token:', (secret) => `curl -u ${secret}: https://api.example.com`],
  ['query access_token', (secret) => `https://api.example.com/me?access_token=${secret}&fields=id`],
  ['query api_key', (secret) => `https://api.example.com/v1?api_key=${secret}`],
  ['JSON password', (secret) => `{"user":"ci","password":"${secret}"}`],
  ['YAML block scalar password', (secret) => `db:\n  password: |\n    ${secret}\n  host: db\n`],
  ['XML attribute password', (secret) => `<connection user="app" password="${secret}"/>`],
  ['prose password', (secret) => `the admin password is ${secret} until Friday`],
  ['prose token', (secret) => `Your API token is: ${secret}`],
  ['NuGet ClearTextPassword', (secret) => `<add key="ClearTextPassword" value="${secret}" />`],
  ['.npmrc _password', (secret) => `//registry.example.com/:_password=${btoa(secret)}`],
  [
    'npm config set _authToken',
    (secret) => `npm config set //registry.npmjs.org/:_authToken ${secret}`,
  ],
  ['Cloudant key by service name', (secret) => `cloudant_api_key = '${secret}'`],
  [
    'Kubernetes secret data',
    (secret) =>
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  token: ${btoa(secret)}\n`,
  ],
  ['GCP private_key_id', () => ''],
];

describe('credentials without a prefix, by their context', () => {
  for (const [name, wrap] of contexts) {
    if (name === 'GCP private_key_id') continue;
    it(name, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (seed) => {
          const random = seededRandom(seed);
          const secret = randomSecret(random);
          const text = wrap(secret);
          const output = redactSecrets(text).text;
          expect(output.includes(secret) || output.includes(btoa(secret)), text).toBe(false);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('GCP service-account private_key_id and a truncated PEM private key', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (seed) => {
        const random = seededRandom(seed);
        const id = pick(random, alphabets.hex, 40);
        const body = pick(random, alphabets.base64, 48);
        const json = `{"type": "service_account", "private_key_id": "${id}", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE${body}`;
        const output = redactSecrets(json).text;
        expect(output).not.toContain(id);
        expect(output).not.toContain(body.slice(0, 24));
        const malformed = `----BEGIN RSA PRIVATE KEY----\nMIIE${body}\n`;
        expect(redactSecrets(malformed).text).not.toContain(body.slice(0, 24));
      }),
      { numRuns: 60 },
    );
  });
});

describe('OpenSSH private keys cut short', () => {
  // The key file's binary layout (PROTOCOL.key): magic, cipher, KDF, KDF options, key count, then
  // the public key (`ssh-ed25519` and 32 random bytes). Readable names fill its first lines.
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  it('is redacted when the paste stops anywhere after the first 32 base64 characters', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.integer({ min: 32, max: 200 }),
        (seed, cut) => {
          const random = seededRandom(seed);
          const publicKey = Buffer.from(
            Array.from({ length: 32 }, () => Math.floor(random.next() * 256)),
          );
          const key = Buffer.concat([
            Buffer.from('openssh-key-v1\0'),
            field(Buffer.from('none')),
            field(Buffer.from('none')),
            field(Buffer.alloc(0)),
            Buffer.from([0, 0, 0, 1]),
            field(Buffer.concat([field(Buffer.from('ssh-ed25519')), field(publicKey)])),
          ]).toString('base64');
          const body = key
            .slice(0, Math.min(cut, key.length))
            .match(/.{1,70}/g)!
            .join('\n');
          const text = `cat ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n`;
          const output = redactSecrets(text).text;
          expect(output, text).not.toContain(body.slice(0, 32));
          expect(output).toContain('cat ~/.ssh/id_ed25519');
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('look-alikes of every family stay', () => {
  it('placeholder bodies, templates, cut bodies and prefixes named in prose are not redacted', () => {
    const flagged: string[] = [];
    let total = 0;
    for (const credential of credentialFamilies) {
      for (const seed of [11, 12, 13]) {
        for (const text of lookAlikes(credential, seededRandom(seed))) {
          total++;
          if (redactSecrets(text).findings.length > 0)
            flagged.push(`${credential.family}: ${text}`);
        }
      }
    }
    // Target from the issue: <= 5 % false positives on scanner negatives.
    expect(flagged.length / total, flagged.join('\n')).toBeLessThanOrEqual(0.05);
  });
});

describe('curl headers of any name', () => {
  const headerWord = fc.constantFrom(
    'Token',
    'Auth',
    'Authentication',
    'Api-Key',
    'Secret',
    'Session',
    'Cookie',
    'Credential',
    'Pass',
  );
  const segment = fc.stringMatching(/^[A-Z][a-z]{1,8}$/);
  it('redacts the value of a credential-named header, and a generated value under any name', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 }),
        segment,
        headerWord,
        fc.constantFrom('-H', '--header', '-sH', '-H'),
        fc.constantFrom('"', "'"),
        (seed, vendorName, word, flag, quote) => {
          const random = seededRandom(seed);
          const secret = randomSecret(random);
          for (const name of [`X-${vendorName}-${word}`, word, `X-${vendorName}`]) {
            const text = `curl ${flag} ${quote}${name}: ${secret}${quote} https://api.example.com/v1`;
            expect(redactSecrets(text).text, text).not.toContain(secret);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('redacts a uniformly random 16–24 character value under an arbitrary header name', () => {
    // Short random tokens repeat characters often enough that a fixed entropy floor misses a few
    // in a hundred; 2,000 draws make such a floor fail every run.
    // Drawn from the run's property seed, so a failure replays with BATON_PROPERTY_SEED.
    const seed = Math.abs(Number(fc.readConfigureGlobal().seed ?? 1)) % 2 ** 31 || 1;
    const random = seededRandom(seed);
    const chars = alphabets.alnum;
    const missed: string[] = [];
    for (let draw = 0; draw < 2_000; draw++) {
      const length = 16 + Math.floor(random.next() * 9);
      let value = '';
      while (value.length < length) value += chars[Math.floor(random.next() * chars.length)];
      if (characterClassCount(value) < 3) continue;
      // Four x's in a row is the placeholder marker (`xxxx`) by design: kept wherever it stands.
      if (/x{4}/i.test(value)) continue;
      const text = `curl -H "X-Tenant: ${value}" https://api.example.com/v1`;
      if (redactSecrets(text).text.includes(value)) missed.push(value.length.toString());
    }
    expect(missed, `seed ${seed}: missed values of lengths ${missed.join(', ')}`).toEqual([]);
  });

  it('leaves ordinary headers alone', () => {
    for (const header of [
      'Content-Type: application/json',
      'Accept: */*',
      'X-Request-Id: 12345',
      'User-Agent: curl/8.5.0',
      'Authorization: Bearer $TOKEN',
      'X-Api-Key: $' + '{API_KEY}', // a shell reference, written in two parts for the linter
      'Cookie: theme=dark',
    ]) {
      const text = `curl -sS -H "${header}" https://api.example.com`;
      expect(redactSecrets(text).findings, text).toEqual([]);
    }
  });
});

function characterClassCount(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/].filter((pattern) => pattern.test(value)).length;
}

// Random values over a small alphabet repeat characters: an entropy floor fails some of them, so
// the curl positions must not depend on one. `fgrcjpIoIIIaIpw3IgII` slipped through that way.
const lowVarietyValue = fc
  .tuple(
    fc.constantFrom(...alphabets.alnum.slice(26, 52)),
    fc.constantFrom(...alphabets.alnum.slice(0, 26)),
    fc.constantFrom(...'0123456789'),
    fc.array(fc.constantFrom(...alphabets.alnum), { minLength: 1, maxLength: 4 }),
    fc.integer({ min: 16, max: 24 }),
    fc.integer({ min: 1, max: 2 ** 31 }),
  )
  .map(([lower, upper, digit, more, length, seed]) => {
    const alphabet = [...new Set([lower, upper, digit, ...more])].join('');
    const random = seededRandom(seed);
    return pick(random, alphabet, length);
  })
  // Generated, not typed: all three kinds of character, none making up most of the value.
  .filter(
    (value) =>
      characterClassCount(value) === 3 &&
      // Two letters and a digit in both cases (`0Aa0A0aaAAaaa0A0`) is a typed pattern to the
      // placeholder test everywhere; four distinct characters is still low variety.
      new Set(value.toLowerCase()).size >= 4 &&
      // A run of four `x` (or `*`, `.`) is the placeholder marker `xxxx` wherever it stands.
      !/(.)\1{3}/.test(value) &&
      // Case folded: `bBbB` is one letter typed in two cases.
      Math.max(...[...value.toLowerCase()].map((c) => value.toLowerCase().split(c).length - 1)) <=
        value.length * 0.4,
  );

describe('curl credential positions hold on low-variety random values', () => {
  it('redacts them under any header name, after -u user: and as a -u token', () => {
    fc.assert(
      fc.property(
        lowVarietyValue,
        fc.stringMatching(/^[A-Z][a-z]{2,8}$/),
        fc.constantFrom('-H', '--header'),
        (value, name, flag) => {
          for (const text of [
            `curl ${flag} "X-${name}: ${value}" https://api.example.com/v1`,
            `curl ${flag} '${name}: ${value}' https://api.example.com/v1`,
            `curl ${flag} "Api-Token: ${value}" https://api.example.com/v1`,
            `curl -u ${value}: https://api.example.com/v1`,
            `curl -u deploy:${value} https://api.example.com/v1`,
          ]) {
            expect(redactSecrets(text).text, text).not.toContain(value);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
