import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alphabets,
  credentialFamilies,
  pick,
  type Random,
  seededRandom,
} from './credential-families.js';
import { redactSecrets } from './index.js';

// Where a credential may stand in an agent transcript. Each position wraps a generated value.
const positions: Array<[string, (token: string, random: Random) => string]> = [
  ['alone', (token) => token],
  ['prose', (token) => `I rotated it, the new one is ${token} for now.`],
  ['path segment', (token) => `curl -X POST /keys/${token}/rotate`],
  ['file name', (token) => `cat ~/ci/${token}.json`],
  ['right after https://', (token) => `git clone https://${token}/org/repo.git`],
  ['query string', (token) => `GET https://api.example.com/v1/items?limit=5&value=${token}&x=1`],
  ['JSON string', (token) => `{"name":"ci","value":"${token}","enabled":true}`],
  ['YAML block scalar', (token) => `config:\n  value: |\n    ${token}\n  other: 1\n`],
  ['XML attribute', (token) => `<entry name="deploy" value="${token}" />`],
  ['curl -H custom header', (token) => `curl -H "Token: ${token}" https://api.example.com`],
  ['curl --header', (token) => `curl --header 'Api-Token: ${token}' https://api.example.com`],
  ['curl -H X-Auth', (token) => `curl -sS -H "X-Auth-Key: ${token}" https://h.example.com/x`],
  ['curl -u', (token) => `curl -u deploy:${token} https://registry.example.com`],
  ['markdown code', (token) => `Set \`${token}\` in the dashboard.`],
  ['env export', (token) => `export SERVICE_VALUE=${token}`],
  ['log line', (token) => `2024-05-01T10:00:00Z INFO using credential=${token} region=eu`],
];

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
            const text = wrap(token, random);
            expect(leaked(text, token), text).toBe(false);
          },
        ),
        { numRuns: 48 },
      );
    });
  }
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
