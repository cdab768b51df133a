import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { familyToken, middleOf } from './test-utils/family-tokens.js';
import { characterOf, oneOf, randomValue } from './test-utils/generated-values.js';

// Twilio's SID format: two capitals naming the resource's type, 32 lower-case hex digits. Types
// are drawn from all capital pairs: the property is about the key, not a list of types.
const sid = fc
  .tuple(
    characterOf('ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
    characterOf('ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
    randomValue(['0123456789abcdef'], 32, 32),
  )
  .map((parts) => parts.join(''));

// Keys whose last word is `sid`, as Twilio's JSON, webhooks and env files write them.
const sidKey = oneOf([
  'sid',
  'Sid',
  'message_sid',
  'messaging_service_sid',
  'MessagingServiceSid',
  'CallSid',
  'conversation_sid',
  'TWILIO_MESSAGING_SERVICE_SID',
]);
const secretKey = oneOf(['token', 'auth_token', 'secret', 'api_key', 'password']);
const form = oneOf([
  (key: string, value: string) => JSON.stringify({ [key]: value, status: 'queued' }),
  (key: string, value: string) => `  ${key}: ${value}\n`,
  (key: string, value: string) => `${key}=${value}`,
  (key: string, value: string) => `const ${key.replace(/\W/g, '_')} = "${value}";`,
]);

/** True when the generic shape is all the redactor finds in `value` outside any key. */
const shapeOnly = (value: string) => {
  const findings = redactSecrets(JSON.stringify({ value })).findings;
  return findings.length > 0 && findings.every((finding) => finding.kind === 'prefixed-token');
};

describe('SIDs under a key whose last word is `sid`', () => {
  it('are kept, and the same value under a key naming a secret is redacted (property)', () => {
    fc.assert(
      fc.property(sid, sidKey, secretKey, form, (value, key, secret, place) => {
        // Premise: no issuer's rule claims the drawn type (`AC`, `SK` are Twilio's credentials).
        fc.pre(shapeOnly(value));
        const kept = place(key, value);
        expect(redactSecrets(kept).text).toBe(kept);
        expect(redactSecrets(place(secret, value)).text).not.toContain(value);
      }),
      { numRuns: 300 },
    );
  });

  it('stand beside documented tokens and other shapes under the same keys, which stay redacted (property)', () => {
    // Other generated shapes under `sid` (a session cookie's value, a mixed-case token of the
    // same length) are not SIDs.
    const other = randomValue(
      ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'],
      34,
      48,
    );
    fc.assert(
      fc.property(
        sid,
        familyToken(),
        other,
        sidKey,
        form,
        (value, { token }, random, key, place) => {
          fc.pre(shapeOnly(value));
          fc.pre(!redactSecrets(token).text.includes(middleOf(token)));
          fc.pre(!redactSecrets(random).text.includes(random));
          const text = [place(key, value), place(key, token), place(key, random)].join('\n');
          const redacted = redactSecrets(text).text;
          expect(redacted).toContain(value);
          expect(redacted).not.toContain(middleOf(token));
          expect(redacted).not.toContain(random);
        },
      ),
      { numRuns: 300 },
    );
  });
});
