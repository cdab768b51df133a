import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

/**
 * Attack suite (reviewer, wt-attack3): what follows a code-style secret name after a space in
 * ordinary tool output and code is a path, a type, a date, a commit or a resource name. Each line
 * is kept whole by the parent build (4497495^1) and changed by the prose rule (40 seeds x 25
 * runs: 0 % -> 53-100 % per shape).
 */
const pick = <T>(items: readonly T[]) =>
  fc.noBias(fc.integer({ min: 0, max: items.length - 1 })).map((at) => items[at]!);
const word = pick(['orders', 'payments', 'billing', 'stripe', 'backend', 'mobile', 'webhook']);
const codeName = pick(['apiToken', 'secret_key', 'DB_PASSWORD', 'clientSecret', 'access_token']);
const hex = '0123456789abcdef';
const isoDate = fc
  .noBias(fc.integer({ min: 1_420_070_400, max: 1_893_456_000 }))
  .map((seconds) => new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z'));

const lines: Record<string, fc.Arbitrary<string>> = {
  // `rg -l apiToken src/orders/config.ts`: a search then the file it names.
  'a relative path after the name': fc
    .tuple(
      codeName,
      pick(['src', 'app', 'packages/api/src']),
      word,
      pick(['config.ts', 'settings.py']),
    )
    .map(([name, dir, sub, file]) => `rg -l ${name} ${dir}/${sub}/${file}`),
  // `gh secret list`: the name, a tab, when it was updated.
  'gh secret list (NAME<TAB>date)': fc
    .tuple(pick(['NPM_TOKEN', 'DEPLOY_KEY', 'PYPI_API_TOKEN', 'DOCKERHUB_TOKEN']), isoDate)
    .map(([name, date]) => `${name}\t${date}`),
  // A Go parameter or field typed by a pointer to a package's type.
  'a Go pointer type after the parameter': fc
    .tuple(
      pick(['privateKey', 'signingKey', 'clientSecret', 'accessToken']),
      pick(['*rsa.PrivateKey', '*ecdsa.PrivateKey', '*oauth2.Token', '*kms.KeyManagementClient']),
    )
    .map(([name, type]) => `func sign(${name} ${type}, msg []byte) error {`),
  // A commit message or log naming a commit after the name.
  'a commit hash after the name': fc
    .tuple(codeName, drawn(hex, 40, 40))
    .map(([name, sha]) => `revert ${name} ${sha}`),
  'an abbreviated hash after the name': fc
    .tuple(codeName, drawn(hex, 12, 12))
    .map(([name, sha]) => `rotate ${name} ${sha} in production`),
  // `kubectl get secret <name>`: a resource name, kustomize's hash suffix included.
  'kubectl get secret <generated name>': fc
    .tuple(word, word, drawn('bcdfghkmt2456789', 10, 10))
    .map(([a, b, suffix]) => `kubectl get secret ${a}-${b}-${suffix} -o yaml`),
  // `vault kv get -field=password <path>`: the path the password is read from.
  'vault kv get -field=<name> <path>': fc
    .tuple(pick(['password', 'api_token', 'private_key']), word, word)
    .map(([field, a, b]) => `vault kv get -field=${field} secret/${a}/${b}-prod`),
  // An identifier holding a digit word (`oauth2Client`, `base64EncodedValue`, `sha256Digest`):
  // `readsAsName` admits letters only.
  'an identifier with a digit word after the name': fc
    .tuple(
      codeName,
      pick(['oauth2', 'base64', 'sha256', 's3', 'http2', 'utf8', 'ed25519', 'x509', 'aes256']),
      pick(['Client', 'Factory', 'Encoded', 'Builder', 'Session', 'Decoder', 'Provider']),
      pick(['Value', 'Manager', 'Reader', 'Handler', 'Config', 'Request']),
    )
    .map(([name, digits, a, b]) => `pass ${name} ${digits}${a}${b} here`),
  // logfmt: the next field after the name (`... accessToken expires_in=3600`).
  'a logfmt pair after the name': fc
    .tuple(
      codeName,
      pick(['expires_in', 'token_type', 'grant_type', 'status_code', 'retry_after']),
      fc.noBias(fc.integer({ min: 0, max: 99_999 })),
    )
    .map(([name, key, value]) => `level=debug msg=refreshed ${name} ${key}=${value}`),
  // `kubectl get secrets`: a Secret's name, then its type column.
  'a kubectl get secrets row (name, type)': fc
    .tuple(
      word,
      pick(['token', 'secret', 'password', 'private-key', 'api-key', 'auth-token']),
      pick([
        'kubernetes.io/basic-auth',
        'kubernetes.io/tls',
        'kubernetes.io/ssh-auth',
        'kubernetes.io/service-account-token',
        'bootstrap.kubernetes.io/token',
      ]),
      fc.noBias(fc.integer({ min: 1, max: 400 })),
    )
    .map(([a, b, type, age]) => `${`${a}-${b}`.padEnd(22)}${type.padEnd(38)}1      ${age}d`),
  // A scoped npm package after the word.
  'a scoped package after password': fc
    .tuple(word, word)
    .map(([scope, name]) => `npm install password @${scope}/${name}-client`),
};

describe('attack: code, paths, dates and names after a secret name in prose are kept', () => {
  for (const [shape, line] of Object.entries(lines)) {
    it(shape, () => {
      fc.assert(
        fc.property(line, (text) => {
          expect(redactSecrets(text).text).toBe(text);
        }),
        { numRuns: 200, endOnFailure: true },
      );
    });
  }
});
