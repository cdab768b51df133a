import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialPositions } from './credential-families.js';
import { isObjectId } from './generated-token-shape.js';
import { redactSecrets } from './index.js';

// Upper-case base32 (RFC 4648: A–Z and 2–7) is how TOTP seeds and some issuers' keys are written:
// one case, few digits, so the mixed-case and letter–digit tests of other bodies miss it. Drawn
// without bias: biased draws repeat one character, which no generator emits.
const drawn = (characters: string, minLength: number, maxLength: number) =>
  fc
    .noBias(fc.array(fc.integer({ min: 0, max: characters.length - 1 }), { minLength, maxLength }))
    .map((indexes) => indexes.map((index) => characters[index]).join(''));
const base32 = drawn('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16, 64).filter(
  // A typed run (`ABCDEF`, `234567`) reads as a placeholder by design.
  (body) => !/ABCDEF|BCDEFG|234567|(.)\1{3}/.test(body),
);

const positions: Array<(value: string) => string> = [
  ...credentialPositions.map(([, wrap]) => wrap),
  (value) => `{"db":{"value":"${value}"}}`,
];

describe('upper-case base32 bodies', () => {
  it('after a vendor-style prefix are redacted in every position (>= 99 % of draws)', () => {
    // Without a key naming a secret the body must not read as a name in capitals, which random
    // base32 does about once in a thousand draws: the rate is asserted, not every draw.
    let draws = 0;
    const missed: string[] = [];
    fc.assert(
      fc.property(
        drawn('abcdefghijklmnopqrstuvwxyz', 2, 6),
        fc.constantFrom('_', '-'),
        base32,
        fc.nat({ max: positions.length - 1 }),
        (prefix, separator, body, position) => {
          const token = `${prefix}${separator}${body}`;
          if (isObjectId(token)) return;
          draws++;
          if (redactSecrets(positions[position]!(token)).text.includes(body)) missed.push(token);
        },
      ),
      { numRuns: 3000 },
    );
    expect(missed.length / draws, missed.slice(0, 5).join(', ')).toBeLessThanOrEqual(0.01);
  });

  it('after a secret-named key are redacted (property)', () => {
    const keyed = fc.constantFrom(
      (value: string) => `token=${value}`,
      (value: string) => `api_key: ${value}`,
      (value: string) => `totp_secret: ${value}`,
      (value: string) => `MFA_KEY=${value}`,
      (value: string) => `{"auth":{"otp_key":"${value}"}}`,
      (value: string) => `otpauth://totp/Example:alice?secret=${value}&issuer=Example`,
    );
    fc.assert(
      fc.property(keyed, base32, (wrap, body) => {
        expect(redactSecrets(wrap(body)).text).not.toContain(body);
      }),
      { numRuns: 2000, endOnFailure: true },
    );
  });

  it('leave constants and names in capitals alone', () => {
    const names = fc.constantFrom(
      'ERR_CONNECTIONREFUSED',
      'LOG_LEVEL=DEBUGVERBOSEOUTPUT',
      'status: PERMISSIONDENIEDERROR',
      'api_key: YOUR_API_KEY_HERE',
      'token=AAAAAAAAAAAAAAAAAAAA',
      'CIPHER=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
      'code: E_INTERNALSERVERERROR',
      'err_UNAUTHORIZEDACCESSDENIED',
    );
    fc.assert(
      fc.property(names, (text) => {
        expect(redactSecrets(text).findings).toEqual([]);
      }),
    );
  });

  it('costs linear time on a long run of near-miss shapes', () => {
    const text = Array.from({ length: 15_000 }, (_, index) =>
      index % 2 === 0 ? 'ab_JBSWY3DPEHPK3PX ' : 'token=JBSWY3DP ',
    ).join('');
    expect(text.length).toBeGreaterThan(200_000);
    expect(redactSecrets(text).text.length).toBeGreaterThan(0);
  });
});
