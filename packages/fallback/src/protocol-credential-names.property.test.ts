import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { keyIsSecret } from './secret-rules.js';
import { drawn } from './test-utils/drawn.js';

/**
 * OAuth, OIDC, SAML, wallet and crypto names for values that unlock as a token does, though the
 * name holds no `token`, `secret` or `key` (`code_verifier`, `client_assertion`, `SAMLResponse`).
 * Before: a value the name alone marks leaked under every one of them, in every position.
 */
const terms = [
  ['code', 'verifier'],
  ['oauth', 'verifier'],
  ['client', 'assertion'],
  ['saml', 'assertion'],
  ['saml', 'response'],
  ['seed', 'phrase'],
  ['wallet', 'seed'],
  ['mnemonic'],
  ['device', 'code'],
  ['authorization', 'code'],
  ['recovery', 'codes'],
  ['backup', 'code'],
  ['kek'],
  ['dek'],
  ['pepper'],
];
// The public halves and look-alikes: a hash of the verifier, a CSRF state, what a user types,
// process and random-number settings.
const publicNames = [
  ['code', 'challenge'],
  ['state'],
  ['nonce'],
  ['user', 'code'],
  ['exit', 'code'],
  ['random', 'seed'],
  ['code'],
];
const qualifiers = fc.constantFrom([], ['oauth'], ['pkce'], ['google'], ['app'], ['my']);
const spell = (words: string[], style: number) => {
  if (style === 0) return words.join('_');
  if (style === 1) return words.join('_').toUpperCase();
  if (style === 2) return words.join('-');
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
};
const positions: Array<(key: string, value: string) => string> = [
  (k, v) => JSON.stringify({ [k]: v, expires_in: 600 }),
  (k, v) => `${k}: ${v}`,
  (k, v) => `${k}=${v}`,
  (k, v) => `https://idp.example.com/token?grant_type=x&${k}=${v}&client_id=web`,
  (k, v) => `login-tool --${k} ${v}`,
];
const name = (words: readonly string[][], qualifier = qualifiers) =>
  fc
    .tuple(
      fc.constantFrom(...words),
      qualifier,
      fc.noBias(fc.nat(3)),
      fc.noBias(fc.nat(positions.length - 1)),
    )
    .map(([term, qualifier, style, at]) => ({
      key: spell([...qualifier, ...term], at === 4 ? 2 : style),
      wrap: positions[at]!,
    }));
const alphabet = fc.constantFrom(
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  '0123456789abcdef',
);
const value = alphabet.chain((letters) => drawn(letters, 16, 64));

describe('protocol names of credentials', () => {
  it('mark a value as a token name does, in JSON, YAML, env, query and flag positions', () => {
    let judged = 0;
    fc.assert(
      fc.property(name(terms), value, ({ key, wrap }, secret) => {
        // Premise: the name alone decides: a token's name takes the value, a neutral one keeps it.
        if (redactSecrets(wrap('api-token', secret)).text.includes(secret)) return;
        if (!redactSecrets(wrap('data', secret)).text.includes(secret)) return;
        judged++;
        expect(redactSecrets(wrap(key, secret)).text).not.toContain(secret);
      }),
      { numRuns: 600 },
    );
    expect(judged).toBeGreaterThan(150);
  });

  it('leave the public halves and look-alike names alone', () => {
    // (`oauth_code` is left out: OAuth's `code` is the authorization code, a credential.)
    // Control: neither is read as a secret's name, and a value the generic layers keep under a
    // plain name (`value`) stays under them.
    let judged = 0;
    fc.assert(
      fc.property(
        name(publicNames, fc.constantFrom([], ['app'], ['my'], ['pkce'])),
        value,
        ({ key, wrap }, secret) => {
          expect(keyIsSecret(key)).toBeUndefined();
          if (redactSecrets(wrap('value', secret)).text.includes(secret) === false) return;
          judged++;
          const text = wrap(key, secret);
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 400 },
    );
    expect(judged).toBeGreaterThan(100);
  });
});
