import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

// "the admin password is X": the phrase is the evidence, the value need only look like a password
// rather than the next word of the sentence.
const subject = fc.constantFrom(
  'the admin password is',
  'The password was',
  'your API token is:',
  'the root password has been set to',
  'db password is now',
  'The secret is',
  'the passphrase is',
);
const after = fc.constantFrom(' until Friday', '.', ', rotate it soon', '', ' (staging)');

const letters = alphabets.alnum.slice(0, 52);
const symbols = '!@#$%^&*?+=_-';

/**
 * Not a typed pattern: no letter or digit (case folded) makes up most of them, and there are more
 * than two (`cFvvvmVVY`, `^p-&pP$x` are placeholders to every rule).
 */
const varied = (value: string) => {
  const core = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  const most = Math.max(...[...core].map((c) => core.split(c).length - 1));
  return new Set(core).size >= 3 && most <= core.length * 0.4;
};

/** Letters in both cases with two capitals together after a lower-case letter: no camel-case name. */
const mixedCaseLetters = fc
  .tuple(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 6, max: 14 }))
  .map(([seed, length]) => {
    const random = seededRandom(seed);
    const body = pick(random, letters, length);
    const at = Math.floor(random.next() * body.length);
    return `${body.slice(0, at)}${pick(random, 'abcdefghijklmnopqrstuvwxyz', 1)}${pick(random, letters.slice(0, 26), 2)}${body.slice(at)}`;
  })
  .filter(varied);
/** Letters and digits, any mix (`fgrcjpIoIIIaIpw3IgII`, `k4Tq9wLm`). */
const withDigits = fc
  .tuple(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 8, max: 24 }))
  .map(([seed, length]) => pick(seededRandom(seed), alphabets.alnum, length))
  .filter((value) => /\d/.test(value) && /[A-Za-z]/.test(value) && varied(value));
/** A word with a number and a symbol, how people pick them (`Summer2024!`, `tiger#88`). */
const humanPassword = fc
  .tuple(
    fc.integer({ min: 1, max: 2 ** 31 }),
    fc.integer({ min: 5, max: 9 }),
    fc.boolean(),
    fc.integer({ min: 10, max: 9999 }),
    fc.constantFrom(...symbols),
  )
  .map(([seed, length, capital, number, symbol]) => {
    const word = pick(seededRandom(seed), 'abcdefghijklmnopqrstuvwxyz', length);
    return `${capital ? word[0]!.toUpperCase() + word.slice(1) : word}${number}${symbol}`;
  })
  // A value mostly one letter (`aaaaa10!`) or led by a placeholder marker (`xxxx`, `your`) is a
  // placeholder, not a choice.
  .filter((value) => new Set(value.toLowerCase()).size >= 5 && !/^(?:x{4}|your)/i.test(value));
/** Symbols among letters (`hX#qp!wz`). */
const withSymbols = fc
  .tuple(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 8, max: 20 }))
  .map(([seed, length]) => pick(seededRandom(seed), letters + symbols, length))
  // `_-=+@` also join words (`KH=V_PMZ`, `a-b`); a password among them carries another symbol.
  // `$Name` and `%Name%` are shell variables, not values; `Gg***XXH` is a value shown masked.
  .filter(
    (value) =>
      /[A-Za-z]/.test(value) &&
      // A closing `!` or `?` is the sentence's (`the password is HIEKRNDENW!`).
      /[!#$%^&*?](?!$)|[#$%^&*]$/.test(value) &&
      !/^\$\w|^%\w+%$|([*.#_])\1\1/.test(value) &&
      varied(value),
  );

describe('a password stated in prose', () => {
  for (const [name, value] of [
    ['mixed-case letters only', mixedCaseLetters],
    ['letters and digits', withDigits],
    ['a word, a number and a symbol', humanPassword],
    ['letters and symbols', withSymbols],
  ] as const) {
    it(`is redacted: ${name}`, () => {
      fc.assert(
        fc.property(subject, value, after, (lead, secret, tail) => {
          const text = `${lead} ${secret}${tail}`;
          const output = redactSecrets(text).text;
          expect(output, text).not.toContain(secret);
          expect(output).toContain(lead);
        }),
        { numRuns: 200 },
      );
    });
  }
});

// Ordinary words the sentences go on with, and names built from them.
const words = [
  'stored',
  'hashed',
  'user',
  'service',
  'account',
  'access',
  'refresh',
  'session',
  'database',
  'config',
  'value',
  'secret',
  'rotated',
  'client',
  'server',
  'manager',
  'default',
  'current',
  'expired',
  'pending',
  'encrypted',
  'masked',
  'hidden',
  'required',
  'incorrect',
  'invalid',
  'configured',
  'missing',
  'length',
  'strongest',
];
const word = fc.constantFrom(...words);
const capitalised = word.map((w) => w[0]!.toUpperCase() + w.slice(1));
const ordinaryValue = fc.oneof(
  word,
  fc.tuple(word, capitalised).map(([a, b]) => `${a}${b}`),
  fc.tuple(capitalised, capitalised).map(([a, b]) => `${a}${b}`),
  fc.tuple(word, word, fc.constantFrom('-', '_', '.')).map(([a, b, s]) => `${a}${s}${b}`),
  fc.tuple(word, word).map(([a, b]) => `${a}_${b}`.toUpperCase()),
  fc.tuple(word, fc.constantFrom('env', 'config', 'vault')).map(([a, b]) => `process.${b}.${a}`),
  fc.tuple(word, capitalised).map(([a, b]) => `get${b}(${a})`),
  word.map((w) => `\${${w.toUpperCase()}}`),
  word.map((w) => `<${w}>`),
  fc.constantFrom('********', 'changeme', 'base64-encoded', 'sha256-hashed', 'JavaScript-based'),
  word.map((w) => `https://vault.example.com/v1/${w}`),
  word.map((w) => `~/.config/${w}.json`),
);

describe('an ordinary sentence about a password', () => {
  it('is left alone', () => {
    fc.assert(
      fc.property(subject, ordinaryValue, after, (lead, value, tail) => {
        const text = `${lead} ${value}${tail}`;
        expect(redactSecrets(text).findings, text).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('is left alone when the sentence goes on in words', () => {
    fc.assert(
      fc.property(subject, fc.array(word, { minLength: 1, maxLength: 5 }), (lead, rest) => {
        const text = `${lead} ${rest.join(' ')} in Vault.`;
        expect(redactSecrets(text).findings, text).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
