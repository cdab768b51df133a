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
 * Two places a password stands that keyed rules missed: under the bare key `pass` (nodemailer's
 * `auth: { user, pass }`, FTP and SMTP configs), and in prose right after the word, without `is`
 * or a colon ("use the password X to log in"). Values are generated at run time.
 */

const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const lower = 'abcdefghijklmnopqrstuvwxyz';
const digits = '0123456789';
/**
 * Random values as generators make them: letters and digits, base64url, hex. Both places are weak
 * evidence, judged as under a weak key, where 12 random letters and digits or 24 hex characters are
 * left about once in a hundred (a name's or a short digest's length): so 16+ and 32+ here.
 */
const generatedValue = fc
  .oneof(
    randomValue([upper + lower + digits], 16, 40),
    randomValue([`${upper}${lower}${digits}-_`], 16, 43),
    randomValue(['0123456789abcdef'], 32, 64),
  )
  .filter((value) => /\d/.test(value) && /[a-zA-Z]/.test(value));

/** `Lomitar4180&O`: a word, digits, a symbol and a letter, as people choose passwords. */
const typedWithSymbol = fc
  .tuple(
    pronounceableWord,
    randomValue([digits], 2, 4),
    characterOf('!@#$%^&*+=?~'),
    characterOf(upper + lower),
  )
  .map(([word, number, symbol, letter]) => `${word}${number}${symbol}${letter}`);

const keyedForms: Array<(value: string) => string> = [
  (value) => JSON.stringify({ host: 'smtp.example.com', auth: { user: 'mailer', pass: value } }),
  (value) => `const transport = createTransport({ auth: { user: 'mailer', pass: '${value}' } });`,
  (value) => `ftp:\n  host: files.internal\n  user: deploy\n  pass: ${value}\n`,
  (value) => `{"credentials":{"user":"app","pass":"${value}"}}`,
  (value) => `PASS=${value}`,
];

const proseForms: Array<(value: string) => string> = [
  (value) => `Use the password ${value} to log in to the staging box.`,
  (value) => `I logged in with password ${value} and it worked.`,
  (value) => `Try the token ${value} instead; the old one expired.`,
  (value) => `Connect as admin with the password '${value}'.`,
  (value) => `Its password ${value} is stored in the vault too.`,
];

describe('attack: the bare key `pass` and a password named in prose', () => {
  it('redacts a generated value under the bare key `pass`', () => {
    fc.assert(
      fc.property(generatedValue, oneOf(keyedForms), (value, form) => {
        const text = form(value);
        expect(text).toContain(value); // premise: the value stands in the text
        expect(redactSecrets(text).text).not.toContain(value);
      }),
      { numRuns: 300 },
    );
  });

  it('redacts a generated value right after the word password or token in prose', () => {
    fc.assert(
      fc.property(fc.oneof(generatedValue, typedWithSymbol), oneOf(proseForms), (value, form) => {
        const text = form(value);
        expect(text).toContain(value);
        expect(redactSecrets(text).text).not.toContain(value);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves test reports, flags and words after `pass` and `password` alone (control)', () => {
    const word = pronounceableWord;
    fc.assert(
      fc.property(
        word,
        word,
        fc.noBias(fc.integer({ min: 0, max: 999 })),
        characterOf(digits),
        (first, second, count, digit) => {
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
          ];
          for (const text of texts) expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 200 },
    );
  });
});
