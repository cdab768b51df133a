import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { vendorRules } from './secret-rules.js';
import { drawn } from './test-utils/drawn.js';

// Every issuer prefix spelled in hex letters alone (`EAAA`, `EAA`, `AC`, …), read from the rules
// rather than listed: a hex digest starts with any one of them by chance.
const hexPrefixes = [
  ...new Set(
    vendorRules.flatMap((rule) => (rule.hints ?? []).filter((hint) => /^[0-9A-F]+$/i.test(hint))),
  ),
];
const vendorKinds = new Set(vendorRules.map((rule) => rule.kind));
const hex = '0123456789abcdef';
const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
// Lines that show a digest, none naming a secret.
const lines: Array<(digest: string) => string> = [
  (d) => `ENV GPG_KEY ${d}`,
  (d) => `set -gx GPG_KEYS ${d}`,
  (d) => `Key fingerprint = ${d}`,
  (d) => `sha256sum: ${d}  dist/app.tar.gz`,
  (d) => `"checksum": "${d}"`,
];

describe('a hex digest that starts with an issuer prefix spelled in hex letters', () => {
  it('is not taken for that issuer token', () => {
    expect(hexPrefixes.length).toBeGreaterThan(0);
    let controls = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...hexPrefixes),
        fc.constantFrom(32, 40, 64, 128),
        drawn(hex, 128, 128),
        drawn(base64url, 128, 128),
        fc.boolean(),
        fc.noBias(fc.nat(lines.length - 1)),
        (prefix, length, tail, body, upperCase, at) => {
          // Premise: the prefix is written in the digest's case, as a digest holds it.
          const raw = (prefix + tail).slice(0, length);
          const digest = upperCase ? raw.toUpperCase() : raw.toLowerCase();
          if (!digest.startsWith(upperCase ? prefix.toUpperCase() : prefix.toLowerCase())) return;
          const found = redactSecrets(lines[at]!(digest)).findings;
          expect(found.filter((f) => vendorKinds.has(f.kind))).toEqual([]);
          // Control: the same prefix with a body drawn from both cases, as the issuer draws it, is
          // still the issuer's token wherever its rule reads that length.
          const token = prefix + body.slice(0, length - prefix.length);
          if (!/[G-Zg-z]/.test(token) || !/[a-z]/.test(token) || !/[A-Z]/.test(token)) return;
          const text = `value ${token} here`;
          const rule = vendorRules.find((r) => {
            r.pattern.lastIndex = 0;
            return r.pattern.test(text);
          });
          if (!rule) return;
          controls++;
          expect(redactSecrets(text).text).not.toContain(token);
        },
      ),
      { numRuns: 2000 },
    );
    expect(controls).toBeGreaterThan(100);
  });
});
