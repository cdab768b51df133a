import { upperShareBound } from '@baton/test-corpus/share-bounds';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

// A signed URL's signature (`sig=`, `signature=`, `X-Amz-Signature=`, `X-Goog-Signature=`) grants
// access to whoever holds the URL: a bearer credential, whichever service signed it. The host and
// path are drawn at test time, so no service's own rule can be what catches it.
const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const signature = fc.oneof(
  // HMAC-SHA256 in base64, `=` written as `%3D` the way query strings carry it.
  drawn(base64, 43, 43).map((value) => `${value}%3D`),
  drawn(base64.slice(0, 62), 43, 43).map((value) => `${value}=`),
  drawn('0123456789abcdef', 64, 64).filter((value) => /[a-f]/.test(value) && /\d/.test(value)),
);
const name = fc.constantFrom(
  'sig',
  'signature',
  'Signature',
  'X-Amz-Signature',
  'X-Goog-Signature',
  'hmac',
);
const host = drawn('abcdefghijklmnopqrstuvwxyz', 3, 10).map((label) => `${label}.example.net`);
const path = drawn('abcdefghijklmnopqrstuvwxyz', 1, 8).map((segment) => `/files/${segment}.bin`);
const position = fc.constantFrom(
  (url: string) => url,
  (url: string) => `Download it from ${url} before it expires.`,
  (url: string) => `curl -o out.bin "${url}"`,
  (url: string) => `{"download_url":"${url}"}`,
  (url: string) => `<entry name="deploy" value="${url.replace(/&/g, '&amp;')}" />`,
  (url: string) => `export SHARE_LINK=${url}`,
  (url: string) => `2024-05-01T10:00:00Z INFO fetched ${url} status=200`,
);

describe('signatures in signed URLs', () => {
  it('are redacted whatever host signed them, in every position (property)', () => {
    fc.assert(
      fc.property(host, path, name, signature, position, (at, file, key, value, wrap) => {
        const url = `https://${at}${file}?expires=1767225600&${key}=${value}&v=2`;
        expect(redactSecrets(wrap(url)).text).not.toContain(value);
      }),
      { numRuns: 300 },
    );
  });

  it('keep placeholders, templates and signatures outside a query string (property)', () => {
    for (const text of [
      'https://h.example.net/f?sig=xxxxxxxxxxxxxxxxxxxxxxxx',
      'https://h.example.net/f?sig={signature}',
      `https://h.example.net/f?signature=\${SIGNATURE}&v=2`,
      'https://h.example.net/f?sig=YOUR_SIGNATURE_HERE',
    ]) {
      expect(redactSecrets(text).findings).toEqual([]);
    }
    // A model's reasoning signature and a package's detached signature are opaque bytes. Uniform
    // base64 of 200-400 characters opens with an issuer's prefix (`AKC…`, 21 `A`s) now and then:
    // 2 of 20,000 draws were redacted, so the share is bounded, not zero (CI seed 587396467).
    const signatures = fc.sample(
      drawn(base64, 200, 400).map((value) => `{"type":"thinking","signature":"${value}"}`),
      300,
    );
    const flagged = signatures.filter((text) => redactSecrets(text).findings.length > 0).length;
    expect(flagged / signatures.length).toBeLessThanOrEqual(
      upperShareBound(2 / 20_000, signatures.length),
    );
  });
});
