import fc from 'fast-check';
import { describe, it } from 'vitest';
import { redactSecrets } from './index.js';

/**
 * Attack suite (reviewer, wt-attack4): a JOSE header alone is kept (it says how a token is
 * signed), but a header may embed a key (`jwk`, the ECDH `epk`), and a private JWK's `d`, primes or
 * `oct` bytes are the signing key itself. On wt-lead 99-100 % of such headers with a drawn private
 * key stayed in the clear. A header whose keys are public halves stays kept.
 */
const bytes = (length: number) =>
  fc
    .noBias(fc.array(fc.nat(255), { minLength: length, maxLength: length }))
    .map((values) => Buffer.from(values).toString('base64url'));
const privateKeys = [
  (x: string, y: string, d: string) => ({ kty: 'EC', crv: 'P-256', x, y, d }),
  (x: string, _y: string, d: string) => ({ kty: 'OKP', crv: 'Ed25519', x, d }),
  (_x: string, _y: string, d: string) => ({ kty: 'oct', k: d }),
];
const places = [
  (header: string) => header,
  (header: string) => `protected: ${header}`,
  (header: string) => `{"protected": "${header}", "payload": ""}`,
];
const encode = (header: unknown) => Buffer.from(JSON.stringify(header)).toString('base64url');

describe('attack: a JOSE header holding a private key is no header to keep', () => {
  it('a header whose jwk or epk holds private members is redacted; a public one stays (property)', () => {
    fc.assert(
      fc.property(
        bytes(32),
        bytes(32),
        bytes(32),
        fc.noBias(fc.nat(privateKeys.length - 1)),
        fc.constantFrom('jwk', 'epk'),
        fc.noBias(fc.nat(places.length - 1)),
        (x, y, d, key, member, place) => {
          const header = { alg: 'ES256', [member]: privateKeys[key]!(x, y, d) };
          // Control: the rules find the private member in the header's JSON written out (a drawn
          // value the value judge keeps, one in thousands, is kept encoded too).
          fc.pre(!redactSecrets(JSON.stringify(header)).text.includes(d));
          const secret = encode(header);
          const publicKey = privateKeys[key]!(x, y, d) as Record<string, string>;
          delete publicKey.d;
          delete publicKey.k;
          const kept = places[place]!(encode({ alg: 'ES256', [member]: publicKey }));
          return (
            !redactSecrets(places[place]!(secret)).text.includes(secret) &&
            (key === 2 || redactSecrets(kept).text === kept)
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
