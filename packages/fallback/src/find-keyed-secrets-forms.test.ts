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
// A generated value: letters of both cases and digits, so no value reads as a word or a name.
const value = fc
  .tuple(
    fc.stringMatching(/^[A-Z]{2,6}$/),
    fc.stringMatching(/^[0-9]{2,6}$/),
    fc.stringMatching(/^[a-z]{4,10}$/),
  )
  .map(([upper, digits, lower]) => `${lower}${digits}${upper}`);

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
