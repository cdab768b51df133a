import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';
import { familyToken, middleOf } from './test-utils/family-tokens.js';
import { itStaysLinear, randomValue } from './test-utils/generated-values.js';
import { toolOutputClasses } from './test-utils/tool-output.js';

const seed = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));
const classNamed = (name: string) => toolOutputClasses.find((each) => each.name === name)!.make;

// Public or opaque values tools print, each in the output that prints it (see
// `test-utils/tool-output.ts`): KMS multi-region key ids, Kubernetes generated names, digests under
// keys that name them (a wheel's `RECORD`, Helm's `checksum/secret`), Subresource Integrity and Nix
// hashes, sealed secrets, JOSE headers alone, base64 of JSON that holds only content, and the
// values of an OAuth authorization URL.
const keptClasses = [
  'aws kms describe-key',
  'aws lambda get-function',
  'kubectl get pod -o yaml',
  'kubectl describe pod',
  'Nix store paths',
  'sealed-secrets / SOPS ciphertext',
  'JWT header alone',
  'OAuth authorize URL (state, code_challenge)',
  'base64 test fixtures / data URIs',
  'wheel RECORD / npm pack / conda / bazel',
  'helm / argo output',
];

// Rules that judge a value by its shape or by the key before it; an issuer's rule that knows its
// own format may still match a random value by chance (a PKCE challenge starting `AP…`, an
// Artifactory key's prefix: 3 in 20,000 authorization URLs), and then wins.
const shapeOrKeyKinds = [
  'generated-token',
  'prefixed-token',
  'high-entropy-string',
  'secret',
  'password',
];

describe('ordinary tool output that holds ids, digests and ciphertext', () => {
  for (const name of keptClasses) {
    it(`is kept: ${name} (property)`, () => {
      const make = classNamed(name);
      fc.assert(
        fc.property(seed, (at) => {
          const text = make(seededRandom(at));
          const kinds = redactSecrets(text).findings.map((finding) => finding.kind);
          expect(kinds.filter((kind) => shapeOrKeyKinds.includes(kind))).toEqual([]);
        }),
        { numRuns: 300 },
      );
    });
  }
});

// The places the kept values stand in, with the value swapped for another.
const positions: Array<[string, (value: string) => string]> = [
  ['KMS key id', (value) => `{"KeyMetadata": {"KeyId": "${value}", "Enabled": true}}`],
  ['pod name', (value) => `metadata:\n  name: ${value}\n  uid: 1c9d`],
  ['digest key', (value) => `{"CodeSha256": "${value}", "Version": "$LATEST"}`],
  ['digest key, hex', (value) => `checksum = "${value}"`],
  ['sealed secret', (value) => `  encryptedData:\n    password: ${value}\n`],
  ['JOSE header', (value) => `"protected": "${value}",`],
  ['OAuth state', (value) => `https://a.example.com/auth?client_id=web&state=${value}&x=1`],
  ['PKCE challenge', (value) => `https://a.example.com/auth?code_challenge=${value}&x=1`],
  ['Helm checksum', (value) => `  annotations:\n    checksum/secret: ${value}\n`],
  ['wheel record', (value) => `pkg/__init__.py,sha256=${value},1234`],
  ['encoded fixture', (value) => `expect(decode("${value}")).toEqual(expected);`],
];

describe('credentials in the same places', () => {
  it('a documented family stays redacted in every place a kept value stands (property)', () => {
    fc.assert(
      fc.property(
        // An Azure SAS is a whole query string: its own `&` parts end it in a URL's query.
        familyToken((_, family) => family === 'azure-sas'),
        fc.constantFrom(...positions),
        ({ token }, [, place]) => {
          // A drawn body that happens to spell a placeholder word (`…O4DUMMYWF…`) is kept alone
          // too, by the look-alike guard: this property is about the places, not that guard.
          fc.pre(!redactSecrets(token).text.includes(middleOf(token)));
          expect(redactSecrets(place(token)).text).not.toContain(middleOf(token));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  // Keys that name a secret, in the form of each kept value's key.
  const secretKeys = fc.constantFrom(
    'password',
    'secret',
    'api_key',
    'access_token',
    'client_secret',
    'auth_token',
    'secret_sha256',
    'password_hash',
    'privateKeyHash',
  );
  // Hex from 32 characters, a digest's length at least: a shorter one mostly of digits (10 in
  // 150,000 of 24-88) reads as a number to the keyed rules, before this change as after.
  const value = fc.oneof(
    randomValue(
      [
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
      ],
      24,
      88,
    ),
    randomValue(['0123456789abcdef'], 32, 88),
  );
  const layouts = fc.constantFrom(
    (key: string, value: string) => `{"${key}": "${value}"}`,
    (key: string, value: string) => `  ${key}: ${value}\n`,
    (key: string, value: string) => `https://a.example.com/cb?${key}=${value}&x=1`,
  );

  it('a random value under a key naming a secret stays redacted (property)', () => {
    fc.assert(
      // A value starting with `/` reads as the path of a file holding the secret, one starting with
      // `--` as a flag (both kept before this change as after).
      fc.property(
        secretKeys,
        value.filter((secret) => !secret.startsWith('/') && !secret.startsWith('-')),
        layouts,
        (key, secret, place) => {
          expect(redactSecrets(place(key, secret)).text).not.toContain(secret);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('a digest-length value under a key naming a secret and a digest stays redacted', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('secret_sha256', 'password_hash', 'apiKeyDigest', 'token_md5'),
        randomValue(['0123456789abcdef'], 64, 64),
        (key, secret) => {
          expect(redactSecrets(`{"${key}": "${secret}"}`).text).not.toContain(secret);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a whole JWT after a JOSE header stays redacted', () => {
    const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
    fc.assert(
      fc.property(
        randomValue(['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'], 43, 43),
        (signature) => {
          const payload = Buffer.from(`{"sub":"${signature.slice(0, 8)}","iat":1700000000}`);
          const token = `${header}.${payload.toString('base64url')}.${signature}`;
          expect(redactSecrets(`"protected": "${token}",`).text).not.toContain(signature);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('deployment ids', () => {
  const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  it('Vercel `dpl_` ids and Fly `deployment-<ULID>` tags are kept (property)', () => {
    fc.assert(
      fc.property(
        randomValue(['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'], 28, 28),
        randomValue([crockford], 24, 24),
        (vercel, ulid) => {
          const text = `Production: https://web.vercel.app\n  id: dpl_${vercel}\nImage: registry.fly.io/web:deployment-01${ulid}`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('base64 of JSON', () => {
  const encoded = (data: unknown) => Buffer.from(JSON.stringify(data)).toString('base64');
  const places = fc.constantFrom(
    (value: string) => `expect(decode("${value}")).toEqual(expected);`,
    (value: string) => `  "payload": "${value}",`,
  );

  it('holding a documented credential stays redacted (property)', () => {
    fc.assert(
      fc.property(familyToken(), places, ({ token }, place) => {
        const blob = encoded({ name: 'ci', value: token, enabled: true });
        expect(redactSecrets(place(blob)).text).not.toContain(blob);
      }),
      { numRuns: 1_000 },
    );
  });

  it('holding a member named like a secret stays redacted (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('password', 'api_key', 'client_secret', 'access_token', 'db_password'),
        fc.constantFrom('hunter2', 'letmein', 'Tr0ub4dor', 'admin'),
        places,
        (member, value, place) => {
          const blob = encoded({ user: 'dana', [member]: value });
          expect(redactSecrets(place(blob)).text).not.toContain(blob);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('under a key naming a secret stays redacted', () => {
    const blob = encoded({ user: 'dana', role: 'admin', exp: 1700000000 });
    for (const key of ['session_token', 'auth_token', 'password', 'secret']) {
      expect(redactSecrets(`{"${key}": "${blob}"}`).text, key).not.toContain(blob);
    }
  });
});

describe('judging the pieces of one long base64 run', () => {
  const piece = (index: number) =>
    `Qx${(index * 7919).toString(36).padStart(6, '0')}Zr8Kp2Lw9TfR4mYb`;
  itStaysLinear({
    'pieces split at / after an integrity prefix': (count) =>
      `sha256-${Array.from({ length: count }, (_, index) => piece(index)).join('/')}`,
    'pieces split at / starting like a sealed secret': (count) =>
      `password: Ag${Array.from({ length: count }, (_, index) => piece(index)).join('/')}`,
  });
});
