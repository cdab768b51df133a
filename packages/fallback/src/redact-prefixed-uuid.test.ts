import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { redactSecrets } from './index.js';
import { oneOf, randomValue } from './test-utils/generated-values.js';

// A UUID is a keyed credential under a token-named key (Heroku, Snyk); issuers also put a short
// word before it (`sdk-<uuid>`, `api-<uuid>`, `sk-lf-<uuid>`, LaunchDarkly, Langfuse). Before, the
// prefix made the value read as a name and it was left, under `token=` and `SECRET_KEY=` alike.
const hex = (length: number) => randomValue([alphabets.hex], length, length);
const uuid = fc
  .tuple(hex(8), hex(4), hex(3), hex(3), hex(12))
  .map(([a, b, c, d, e]) => `${a}-${b}-4${c}-a${d}-${e}`);
const prefix = oneOf(['sdk-', 'api-', 'mob-', 'key_', 'live-', 'env-']);
const place = oneOf([
  (v: string) => `token=${v}`,
  (v: string) => `SECRET_KEY=${v}`,
  (v: string) => `{"apiKey": "${v}"}`,
  (v: string) => `launchdarkly:\n  sdk_key: ${v}\n`,
  (v: string) => `export SERVICE_TOKEN="${v}"`,
]);

describe('a UUID behind a short prefix under a secret-named key', () => {
  it('is redacted (property)', () => {
    fc.assert(
      fc.property(prefix, uuid, place, (p, id, wrap) => {
        const value = `${p}${id}`;
        // Premise: alone, it is left (a UUID names things in logs).
        expect(redactSecrets(value).text).toBe(value);
        expect(redactSecrets(wrap(value)).text).not.toContain(id);
      }),
      { numRuns: 400 },
    );
  });

  it('is kept under id and session names (control)', () => {
    fc.assert(
      fc.property(
        prefix,
        uuid,
        oneOf(['session_id', 'request_id', 'api_key_id', 'sessionId']),
        (p, id, name) => {
          const text = `${name}=${p}${id}`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
