import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

const seeds = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));
const keys = fc.constantFrom(
  'DB_PASSWORD',
  'password',
  'API_TOKEN',
  'client_secret',
  'secret_key',
  'AUTH_TOKEN',
);
// How the key and value cells are written, and what stands around them in the row.
const rows: Array<(key: string, value: string) => string> = [
  (key, value) => `| ${key} | ${value} |`,
  (key, value) => `| \`${key}\` | \`${value}\` |`,
  (key, value) => `| prod | ${key} | ${value} | rotated monthly |`,
  (key, value) => `|${key}|"${value}"|`,
  (key, value) => `| **${key}** | ${value} | yes |`,
];
const row = fc.noBias(fc.integer({ min: 0, max: rows.length - 1 })).map((at) => rows[at]!);
const alphabet = fc.constantFrom(alphabets.alnum, alphabets.base64url, alphabets.hex);

describe('markdown table rows', () => {
  it('a value in the cell after a secret-naming key is redacted whenever `KEY: value` is', () => {
    // A table is how settings and `.env` files are shown in docs and chat; the row is the pair.
    // (Before: a third of random values leaked, and every value in a row with a cell before the key.)
    let judged = 0;
    fc.assert(
      fc.property(
        seeds,
        alphabet,
        fc.noBias(fc.integer({ min: 8, max: 48 })),
        keys,
        row,
        (seed, letters, length, key, wrap) => {
          const value = pick(seededRandom(seed), letters, length);
          // The keyed judge (`KEY: value`) is the table's; a shell line's `KEY=value` is judged by
          // the command-line rule, which also takes short snake-shaped values (`BR_65W0S`).
          if (redactSecrets(`${key}: ${value}`).text.includes(value)) return;
          judged++;
          const text = wrap(key, value);
          const out = redactSecrets(text).text;
          expect(out).not.toContain(value);
          // Only the value goes: the table and its key stay.
          expect(out).toContain(key);
          expect(out.split('|').length).toBe(text.split('|').length);
        },
      ),
      { numRuns: 500 },
    );
    expect(judged).toBeGreaterThan(350);
  });

  it('descriptions, types and flags in the next cell stay', () => {
    const cells = ['the API token used for auth', 'required', 'string', '`String`', 'yes', 'none'];
    for (const key of ['token', 'password', 'api_key', 'SECRET_KEY', 'Key']) {
      for (const cell of cells) {
        const text = `| ${key} | ${cell} | no |`;
        expect(redactSecrets(text).text, text).toBe(text);
      }
    }
  });

  it('a long row of cells costs linear time', () => {
    // Each call reads a text not seen before: a repeat would be a memo lookup, not a redaction.
    let calls = 0;
    const time = (cells: number) => {
      const text = `call ${calls++}\n${'| password | x |'.repeat(cells)}`;
      const start = process.cpuUsage();
      redactSecrets(text);
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    time(2_000);
    const small = Math.min(time(25_000), time(25_000));
    const large = Math.min(time(100_000), time(100_000));
    expect(large / small).toBeLessThan(8);
  });
});
