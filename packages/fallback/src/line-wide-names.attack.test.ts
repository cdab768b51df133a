import fc from 'fast-check';
import { describe, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';
import { oneOf, pronounceableWord } from './test-utils/generated-values.js';

/**
 * Attack suite (reviewer, wt-attack4): a digest word (`hash`, `md5`, `checksum`) or an
 * anti-forgery word (`nonce`, `csrf`) anywhere earlier on the line made every generated value after
 * it a digest or a CSRF token, so in a one-line JSON object (a minified API response) one such
 * member kept the others: on wt-lead 100 % of drawn 32-character tokens and base64 keys under a
 * plain member after `"hash"` or `"nonce"` stayed in the clear, against 0 % without that member.
 * The word counts where it names the value: the key just before it, or the line when none does.
 */
const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const token = fc.oneof(
  drawn(alphanumeric, 28, 40),
  fc
    .noBias(fc.array(fc.nat(255), { minLength: 32, maxLength: 32 }))
    .map((bytes) => Buffer.from(bytes).toString('base64')),
);
const namingMember = oneOf(['hash', 'md5', 'checksum', 'contentHash', 'nonce', 'csrf', 'digest']);
const shortValue = fc.oneof(
  fc.noBias(fc.nat(1_000_000)).map(String),
  pronounceableWord.map((word) => `"${word}"`),
);

describe('attack: a digest or anti-forgery word on the line names only its own value', () => {
  it('a token under a plain member after such a member is redacted; the named value stays (property)', () => {
    fc.assert(
      fc.property(
        namingMember,
        shortValue,
        pronounceableWord,
        token,
        (named, short, member, value) => {
          const control = `{"id": ${short}, "${member}": "${value}"}`;
          fc.pre(!redactSecrets(control).text.includes(value));
          const text = `{"${named}": ${short}, "${member}": "${value}"}`;
          return !redactSecrets(text).text.includes(value);
        },
      ),
      { numRuns: 300 },
    );
    // Control (kept on the old code too): a digest under the key naming it stays.
    fc.assert(
      fc.property(drawn('0123456789abcdef', 64, 64), pronounceableWord, (digest, member) => {
        const text = `{"${member}": 1, "sha256": "${digest}"}`;
        return redactSecrets(text).text === text;
      }),
      { numRuns: 100 },
    );
  });
});
