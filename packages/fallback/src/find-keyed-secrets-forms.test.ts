import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findKeyedSecrets } from './secret-rules.js';

// Each pair pattern runs only on lines holding a literal it needs (`-`, `</`, `(`, `=`, `quals`,
// `compareTo(`): every form must still be found, whatever the key's case and the value.
const forms: Array<[string, (key: string, value: string) => string]> = [
  ['assignment', (key, value) => `${key} = "${value}"`],
  ['long flag', (key, value) => `deploy --${key} ${value}`],
  ['XML add element', (key, value) => `<add key="${key}" value="${value}"/>`],
  ['XML element', (key, value) => `<${key}>${value}</${key}>`],
  ['call pair', (key, value) => `setProperty("${key}", "${value}")`],
  ['reverse comparison', (key, value) => `if ("${value}" == ${key}) {`],
  ['equals', (key, value) => `if (${key}.equals("${value}")) {`],
  ['equalsIgnoreCase', (key, value) => `if (${key}.equalsIgnoreCase("${value}")) {`],
  ['contentEquals', (key, value) => `if (${key}.contentEquals("${value}")) {`],
  ['compareTo', (key, value) => `if (${key}.compareTo("${value}") == 0) {`],
];
const key = fc.constantFrom('password', 'dbPassword', 'apiSecret', 'adminPassword');
// A generated value: distinct letters (no letter twice in either case) of both cases in runs of at
// most three, each run closed by a distinct digit, so no value reads as a word, a placeholder
// (`your…`, `xxxx`) or typed filler (`aaaa00AA`).
const value = fc
  .tuple(
    fc.shuffledSubarray([...'abcdefghijklmnopqrstuvwxyz'], { minLength: 6, maxLength: 10 }),
    fc.shuffledSubarray([...'0123456789'], { minLength: 10, maxLength: 10 }),
    fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
    fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 10, maxLength: 10 }),
  )
  .map(([letters, digits, upper, runs]) => {
    // The first two letters take one case each, so both cases are always present.
    const cased = letters.map((letter, index) =>
      index === 1 || (index > 1 && upper[index]) ? letter.toUpperCase() : letter,
    );
    let written = '';
    let taken = 0;
    for (let group = 0; taken < cased.length; group++) {
      const run = cased.slice(taken, taken + (runs[group] ?? 1));
      taken += run.length;
      written += run.join('') + (digits[group] ?? '');
    }
    return written;
  });

describe('findKeyedSecrets forms', () => {
  for (const [name, write] of forms) {
    it(`finds the value of ${name}`, () => {
      fc.assert(
        fc.property(key, fc.noBias(value), (secretKey, secret) => {
          const line = write(secretKey, secret);
          const at = line.indexOf(secret);
          expect(
            findKeyedSecrets(line).some(
              (span) => span.start <= at && span.end >= at + secret.length,
            ),
            line,
          ).toBe(true);
        }),
        { numRuns: 60 },
      );
    });
  }
});
