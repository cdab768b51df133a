import { describe, expect, it } from 'vitest';
import { redactSecrets, redactSecretsShared } from './redact-secrets.js';

// Callers inside the package read the memo's own results; callers of the public function must still
// get results of their own, which they may change without changing anyone else's.

const withSecret = `deploy with token ghp_${'a1B2c3D4e5'.repeat(4)}ab for the release`;
const withoutSecret = 'a plain sentence long enough to be remembered by the memo';
const short = 'src/a.ts';

describe('redactSecretsShared', () => {
  for (const text of [withSecret, withoutSecret, short]) {
    it(`matches redactSecrets and leaves public results independent (${text.length} chars)`, () => {
      const first = redactSecrets(text);
      const shared = redactSecretsShared(text);
      expect(shared).toEqual(first);
      first.findings.push({ kind: 'changed', start: 0, end: 1 });
      for (const finding of first.findings) finding.start = -1;
      const second = redactSecrets(text);
      expect(second).toEqual(shared);
      expect(second.findings).not.toBe(first.findings);
      expect(redactSecretsShared(text).findings.every((finding) => finding.start >= 0)).toBe(true);
      expect(redactSecretsShared(text).findings.some((f) => f.kind === 'changed')).toBe(false);
    });
  }

  it('finds the planted token', () => {
    expect(redactSecretsShared(withSecret).findings.length).toBeGreaterThan(0);
    expect(redactSecretsShared(withoutSecret).findings).toEqual([]);
  });
});
