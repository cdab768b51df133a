import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { characterOf, oneOf, randomValue } from './test-utils/generated-values.js';

// Twilio's documented SID types of resources that open nothing: a message (SMS, MMS), a messaging
// service, a call, a conference, a recording, a phone number, a queue, a chat
// service. A SID is the type's two capitals and 32 lower-case hex digits.
const resourceTypes = ['SM', 'MM', 'MG', 'CA', 'CF', 'RE', 'PN', 'QU', 'IS'];
const capital = characterOf('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
// Any other pair of capitals: a type nobody documented as an id.
const otherType = fc
  .tuple(capital, capital)
  .map((pair) => pair.join(''))
  .filter((type) => !resourceTypes.includes(type));
const body = randomValue(['0123456789abcdef'], 32, 32);

// Where agents read SIDs: CLI tables, REST paths, logs, prose, JSON under an ordinary key.
const places = oneOf([
  (sid: string) => `${sid}  +15550100123  +15550100456  delivered`,
  (sid: string) => `GET /2010-04-01/Messages/${sid}.json 200`,
  (sid: string) => `2024-05-01T10:00:00Z INFO sent ${sid} status=queued`,
  (sid: string) => `Twilio resource ${sid} created.`,
  (sid: string) => JSON.stringify({ status: 'queued', value: sid }),
]);
const secretKey = oneOf(['token', 'auth_token', 'secret', 'api_key', 'password']);

describe('Twilio SIDs of resources that open nothing', () => {
  it('are kept where other capitals glued to the same hex stay redacted (property)', () => {
    fc.assert(
      fc.property(
        oneOf(resourceTypes),
        otherType,
        body,
        places,
        secretKey,
        (type, other, hex, place, key) => {
          // Premise: the drawn hex reads as random to the shape (an unlisted type glued to it is
          // a token alone).
          fc.pre(redactSecrets(`${other}${hex}`).findings.length > 0);
          const sid = `${type}${hex}`;
          expect(redactSecrets(place(sid)).text).toContain(sid);
          // Controls: the same body under an unlisted type, Twilio's credential types, and the SID
          // under a key naming a secret.
          expect(redactSecrets(place(`${other}${hex}`)).text).not.toContain(hex);
          expect(redactSecrets(place(`SK${hex}`)).text).not.toContain(hex);
          expect(redactSecrets(place(`AC${hex}`)).text).not.toContain(hex);
          expect(redactSecrets(`${key}: ${sid}`).text).not.toContain(hex);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a listed type before a longer hex body is still a token (property)', () => {
    const longer = randomValue(['0123456789abcdef'], 33, 64);
    fc.assert(
      fc.property(oneOf(resourceTypes), longer, body, (type, other, hex) => {
        fc.pre(redactSecrets(`XZ${other}`).findings.length > 0);
        // The listed SID beside it is kept: the type alone does not make any body an id.
        const text = `sent ${type}${hex} then ${type}${other}`;
        const redacted = redactSecrets(text).text;
        expect(redacted).toContain(`${type}${hex}`);
        expect(redacted).not.toContain(other);
      }),
      { numRuns: 200 },
    );
  });
});
