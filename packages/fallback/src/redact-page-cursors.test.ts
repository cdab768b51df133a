import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { familyToken, middleOf } from './test-utils/family-tokens.js';
import { itStaysLinear, randomValue } from './test-utils/generated-values.js';

// How APIs name the cursor for the next page: AWS `NextToken`, Google `nextPageToken`, S3
// `ContinuationToken` and `NextMarker`, GraphQL `cursor`.
const cursorKey = fc
  .tuple(
    fc.constantFrom(
      'next_token',
      'next_page_token',
      'continuation_token',
      'next_continuation_token',
      'pagination_token',
      'cursor_token',
      'next_marker',
    ),
    fc.integer({ min: 0, max: 2 }),
  )
  .map(([words, style]) => {
    const parts = words.split('_');
    if (style === 0) return words;
    if (style === 1) return parts.map((part) => part[0]!.toUpperCase() + part.slice(1)).join('');
    return parts
      .map((part, index) => (index === 0 ? part : part[0]!.toUpperCase() + part.slice(1)))
      .join('');
  });
const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base64Url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const cursorValue = randomValue([base64, base64Url, '0123456789abcdef'], 16, 200);
const layout = fc.constantFrom(
  (key: string, value: string) => `{"Contents": [], "${key}": "${value}"}`,
  (key: string, value: string) => `${key}: ${value}`,
  (key: string, value: string) => `${key}=${value}`,
);

describe('a cursor for the next page of results', () => {
  it('is kept: the next request needs it verbatim (property)', () => {
    fc.assert(
      fc.property(cursorKey, cursorValue, layout, (key, value, place) => {
        // A random value that happens to open like an issuer's token (`AP2X…`: Artifactory) is
        // redacted anywhere, by design.
        fc.pre(redactSecrets(value, { disabledKinds: ['generated-token'] }).findings.length === 0);
        const text = place(key, value);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 2_000 },
    );
  });

  it('still loses a documented credential put under a cursor key (property)', () => {
    fc.assert(
      fc.property(
        cursorKey,
        familyToken((_, family) => family === 'azure-sas'),
        layout,
        (key, { token }, place) => {
          expect(redactSecrets(place(key, token)).text).not.toContain(middleOf(token));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('is not read into keys that name a credential beside a cursor word', () => {
    const value = 'Zq8vN3xKp2Lw9TfR4mYb7HcJ';
    for (const key of [
      'next_password',
      'NEXT_ACCESS_TOKEN',
      'next_api_key',
      'nextSecret',
      'page_access_token',
      'PAGE_ACCESS_TOKEN',
      'pageAuthToken',
      'cursor_api_key',
      'sync_token',
      'page_token',
      'PAGE_TOKEN',
      'pageToken',
    ]) {
      expect(redactSecrets(`"${key}": "${value}"`).text, key).not.toContain(value);
    }
  });
});

describe('judging each piece of a long value by the key before it', () => {
  const piece = (index: number) =>
    `Qx${(index * 7919).toString(36).padStart(6, '0')}Zr8Kp2Lw9TfR4mYb`;
  itStaysLinear({
    'pieces split at / under a cursor key': (count) =>
      `next_token=${Array.from({ length: count }, (_, index) => piece(index)).join('/')}`,
    'pieces split at / under no key': (count) =>
      Array.from({ length: count }, (_, index) => piece(index)).join('/'),
  });
});
