import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialFamilies, familyPrefix, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

// A token glued to a word by a dot (`aws.prod.AKIA…`, `backup.ghp_….json`) was kept whole by every
// issuer rule, for every family: the rules declined any match after a `.` so that member access and
// file names stayed. Now a match after a dot stands when its prefix carries the evidence (four or
// more characters ending in a separator, a long literal or one holding a separator, or a
// capitals-and-digits token in its fixed shape); short
// or word-like prefixes behind a dot (`self.SK…`, `.sk-folding-…`, `t.dapi…`) are code.

const strongPrefix = (prefix: string, token: string) =>
  (prefix.length >= 4 && /[_-]$/.test(prefix)) ||
  (prefix.length >= 4 && /^[A-Z0-9]+$/.test(token)) ||
  prefix.length >= 8 ||
  (prefix.length >= 5 && /[^A-Za-z0-9]/.test(prefix));
const strongFamilies = credentialFamilies.filter((family) => {
  const prefix = familyPrefix(family);
  // A URL family (`https://api.telegram.org/bot…`) is never glued to a word by a dot.
  return (
    family.fixedPrefix &&
    !prefix.includes('://') &&
    strongPrefix(prefix, family.make(seededRandom(11)))
  );
});

const drawn = (characters: string, minLength: number, maxLength: number) =>
  fc
    .noBias(fc.array(fc.integer({ min: 0, max: characters.length - 1 }), { minLength, maxLength }))
    .map((indexes) => indexes.map((index) => characters[index]).join(''));
const word = drawn('abcdefghijklmnopqrstuvwxyz', 2, 9);
const hex = (length: number) => drawn('0123456789abcdef', length, length);

function leaked(text: string, token: string): boolean {
  const output = redactSecrets(text).text;
  for (let start = 0; start + 12 <= token.length; start += 6) {
    if (output.includes(token.slice(start, start + 12))) return true;
  }
  return false;
}

describe('tokens glued to a word by a dot', () => {
  it('premise: the families with a strong prefix are most of the documented ones', () => {
    expect(strongFamilies.length).toBeGreaterThan(60);
  });

  it('are redacted for every family with a strong prefix, as a key path or a file name', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...strongFamilies),
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.array(word, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('', '.json', '.tar.gz', ' = 1', '/rotate'),
        (family, seed, words, after) => {
          const token = family.make(seededRandom(seed));
          // Between a name and an extension a one-case hex body reads as a bundler's content hash
          // (`logo.ico-<md5>.png`): the one place a dot-glued token is left, by design.
          if (
            after.startsWith('.') &&
            /^[0-9a-f]{20,}$/.test(token.slice(familyPrefix(family).length))
          )
            return;
          const text = `cp ${words.join('.')}.${token}${after} /tmp/`;
          expect(leaked(text, token), `${family.family}: ${text}`).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('leave member access, selectors and content-hashed file names alone', () => {
    const code = fc.oneof(
      // Short or word-like "prefixes" after a dot: a property or method of an object.
      fc.tuple(word, hex(32)).map(([name, body]) => `const color = ${name}.SK${body};`),
      fc.tuple(word, hex(32)).map(([name, body]) => `return ${name}.dapi${body}(x)`),
      fc.tuple(word, hex(40)).map(([name, body]) => `artifact: ${name}.v1.${body}.tar`),
      fc
        .array(word, { minLength: 3, maxLength: 6 })
        .map((words) => `.sk-${words.join('-')} { animation-delay: 0.1s; }`),
      // A bundler's asset name: `<name>.<ext>-<md5>.<ext>`.
      fc
        .tuple(word, fc.constantFrom('ico', 'fc', 'dp'), hex(32))
        .map(([name, extension, body]) => `<img src="/media/${name}.${extension}-${body}.png">`),
    );
    fc.assert(
      fc.property(code, (text) => {
        expect(redactSecrets(text).findings, text).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('control: the same tokens behind a space are still redacted', () => {
    const random = seededRandom(Date.now() % 1_000_000);
    for (const family of strongFamilies) {
      const token = family.make(random);
      expect(leaked(`value ${token}`, token), family.family).toBe(false);
    }
  });
});
