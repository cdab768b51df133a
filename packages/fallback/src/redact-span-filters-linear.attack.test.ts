import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

/**
 * Findings are filtered after the rules ran (inside an opaque JSON value, inside a source map or
 * data URI, a public identifier). Each filter looked back from every finding to the last quote
 * and removed findings one `splice` at a time: a source map at the top of a tool output followed
 * by 40,000 vendor-shaped tokens took 4.3 s, 16 times 10,000 of them.
 */
const upper = (length: number) =>
  Array.from(randomBytes(length), (byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[byte % 32]).join('');

const shapes: Record<string, (count: number) => string> = {
  'a source map, then vendor tokens': (count) =>
    `{"mappings":"AAAA"} ${Array.from({ length: count }, () => `AKIA${upper(16)}`).join(' ')}`,
  'an opaque JSON value, then vendor tokens in one quoted run': (count) =>
    `{"signature": "${randomBytes(30).toString('base64url')}", "x": "${Array.from(
      { length: count },
      () => `AKIA${upper(16)}`,
    ).join('_')}"}`,
  'public role ids beside access key ids': (count) =>
    Array.from({ length: count }, (_, index) =>
      index % 2 === 0 ? `AROA${upper(17)}` : `"k${index}": "AKIA${upper(16)}"`,
    ).join('\n'),
};

function cpuOf(build: (count: number) => string, count: number) {
  const text = build(count);
  const started = process.cpuUsage();
  const result = redactSecrets(text);
  const spent = process.cpuUsage(started);
  return { ms: (spent.user + spent.system) / 1000, findings: result.findings.length };
}

describe('attack: filtering many findings stays linear', () => {
  for (const [name, build] of Object.entries(shapes)) {
    it(`${name} (5,000 vs 20,000)`, () => {
      cpuOf(build, 1000);
      const small = cpuOf(build, 5000);
      const large = cpuOf(build, 20_000);
      expect(large.findings).toBeGreaterThanOrEqual(small.findings);
      // Linear is about 4 times; the quadratic filters took 10 to 16 times.
      expect(large.ms, `${small.ms} ms at 5,000, ${large.ms} ms at 20,000`).toBeLessThan(
        Math.max(600, small.ms * 7),
      );
    }, 60_000);
  }
});
