import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

// A Discord bot token (base64 user id, 6-character timestamp, HMAC of 27 characters) cut inside
// its HMAC by a list's comma, a semicolon, a space or a line break. Each half alone is short of
// the issuer's layout; together they are the whole secret.
const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const userId = fc
  .noBias(fc.bigInt({ min: 10n ** 17n, max: 10n ** 19n - 1n }))
  .map((id) => Buffer.from(String(id)).toString('base64').replace(/=+$/, ''));
const separator = fc.constantFrom(',', ';', ' ', ', ', '\n', ',\n  ');
const lead = fc.constantFrom('seen ', 'bot: ', '- ', '(', 'DISCORD ');

/** Whether every character of `text` from `start` to `end` lies in a finding. */
function covered(findings: { start: number; end: number }[], start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    if (!findings.some((finding) => finding.start <= at && at < finding.end)) return false;
  }
  return true;
}

describe('Discord tokens cut inside their HMAC', () => {
  it('leave neither half of the HMAC in the clear, at every cut position', () => {
    // Before: the head and the first part a near-miss, the rest too short to judge: every one left.
    const samples = fc.sample(
      fc.tuple(lead, userId, drawn(base64url, 6, 6), drawn(base64url, 27, 27), separator),
      260,
    );
    let checked = 0;
    for (const [index, [before, id, stamp, hmac, cut]] of samples.entries()) {
      // Every position of the HMAC, over the draws.
      const at = 1 + (index % 26);
      const head = `${id}.${stamp}.`;
      const text = `${before}${head}${hmac.slice(0, at)}${cut}${hmac.slice(at)} done`;
      // Premise: the issuer's head (a user id of 17–19 digits starts `M`, `N` or `O`).
      expect(id).toMatch(/^[MNO][\w-]{23,25}$/);
      const firstStart = before.length + head.length;
      const restStart = firstStart + at + cut.length;
      const { findings } = redactSecrets(text);
      expect(covered(findings, firstStart, firstStart + at), text).toBe(true);
      expect(covered(findings, restStart, restStart + 27 - at), text).toBe(true);
      checked++;
    }
    expect(checked).toBe(260);
  });

  it('control: a short HMAC followed by prose stays the near-miss its layout reads as', () => {
    // The head and 8–18 characters, then words: too little to complete an HMAC of 27.
    const samples = fc.sample(
      fc.tuple(userId, drawn(base64url, 6, 6), drawn(base64url, 8, 18)),
      100,
    );
    for (const [id, stamp, part] of samples) {
      const text = `the sample ${id}.${stamp}.${part}, is cut`;
      // Premise: what follows cannot make the HMAC whole.
      expect(part.length + 'is'.length).toBeLessThan(27);
      const kinds = redactSecrets(text).findings.map((finding) => finding.kind);
      expect(kinds, text).not.toContain('discord-token');
    }
  });
});
