import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import {
  characterOf,
  oneOf,
  pronounceableWord,
  randomValue,
} from './test-utils/generated-values.js';

/**
 * A password named in prose right after the word, without `is` or a colon ("use the password X to
 * log in"). Values are generated at run time. The bare key `pass` stays unread: as a weak key it
 * redacted Go test reports (`--- PASS: TestRetry3Times`), kept below as a control.
 */

const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const lower = 'abcdefghijklmnopqrstuvwxyz';
const digits = '0123456789';
/**
 * Random values as generators make them: letters and digits, base64url, 16+ characters with both
 * cases and a digit (the rule's evidence; shorter or one-case values read as names and versions).
 */
const generatedValue = fc
  .oneof(
    randomValue([upper + lower + digits], 16, 40),
    randomValue([`${upper}${lower}${digits}-_`], 16, 43),
  )
  .filter((value) => /\d/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value));

/** `Lomitar4180&O`: a word, digits, a symbol and a letter, as people choose passwords. */
const typedWithSymbol = fc
  .tuple(
    pronounceableWord,
    randomValue([digits], 2, 4),
    characterOf('!@#$%^&*+=?~'),
    characterOf(upper + lower),
  )
  .map(([word, number, symbol, letter]) => `${word}${number}${symbol}${letter}`);

const proseForms: Array<(value: string) => string> = [
  (value) => `Use the password ${value} to log in to the staging box.`,
  (value) => `I logged in with password ${value} and it worked.`,
  (value) => `Try the token ${value} instead; the old one expired.`,
  (value) => `Connect as admin with the password '${value}'.`,
  (value) => `Its password ${value} is stored in the vault too.`,
];

describe('attack: a password named in prose without a verb', () => {
  it('redacts a password with a symbol named right after the word', () => {
    fc.assert(
      fc.property(typedWithSymbol, oneOf(proseForms), (value, form) => {
        const text = form(value);
        expect(text).toContain(value);
        expect(redactSecrets(text).text).not.toContain(value);
      }),
      { numRuns: 300 },
    );
  });

  it('redacts all but a rare random value that reads as a camel-case name (under 2 % of 600)', () => {
    // A random body falls into a name's humps now and then (`AeygGuflgRHEwyt2`): the price of
    // leaving `getUserById2Async` alone when no verb says a value follows.
    const drawn = fc.sample(fc.tuple(generatedValue, oneOf(proseForms)), 600);
    const left = drawn.filter(([value, form]) => redactSecrets(form(value)).text.includes(value));
    expect(left.length).toBeLessThanOrEqual(12);
  });

  it('leaves test reports, flags and words after `pass` and `password` alone (control)', () => {
    const word = pronounceableWord;
    fc.assert(
      fc.property(
        word,
        word,
        fc.noBias(fc.integer({ min: 0, max: 999 })),
        characterOf(digits),
        fc.uuid(),
        (first, second, count, digit, uuid) => {
          const texts = [
            `PASS: test_${first}_${second}`,
            `PASS src/${first}/${second}.test.ts (${count} ms)`,
            JSON.stringify({ pass: true, fail: false, total: count }),
            JSON.stringify({ pass: count, fail: Number(digit) }),
            `pass: ${count}\nfail: ${digit}`,
            `pass: ${first}`,
            `Use the password ${first} field to log in.`,
            `Reset the password ${second} flow for ${first} users.`,
            `the password hashing function ${first}${second} is slow`,
            `set the token ${first}_${second} in your environment`,
            `password PGPASSWORD`,
            `the token budget ${count} is too small`,
            `the password reset${digit} flow for ${first}`,
            `the token gpt${digit}o-${second} limit`,
            `pass the token ${first}.${second}(${count}) on`,
            `the secret ${first}@${second}.com address`,
            `## Token ${first[0]!.toUpperCase()}${first.slice(1)}\\n${second} session ${count}`,
            `1. JWT Bearer token (env.${first.toUpperCase()}_${second.toUpperCase()}_TOKEN)`,
            `the token ${first}${count}, ${second}${digit} and more`,
            `--- PASS: Test${first[0]!.toUpperCase()}${first.slice(1)}${count}Times (0.00s)`,
            JSON.stringify({ pass: `${first}-${count}` }),
            `the token gpt-${digit}o-2024-08-0${digit} here`,
            `the secret iso-8859-${digit} encoding`,
            `the password sha256-${first}${count} digest`,
            `the token ${uuid} expired`,
            `the token ${first[0]!.toUpperCase()}${first.slice(1)}Error${count}x was thrown`,
            `the token ${first}${count}${second}${digit} again`,
            `the token get${first[0]!.toUpperCase()}${first.slice(1)}By${second[0]!.toUpperCase()}${second.slice(1)}${digit}Async was awaited`,
          ];
          for (const text of texts) expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 200 },
    );
  });
});
