import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialPositions } from './credential-families.js';
import { redactSecrets } from './index.js';
import { englishWords } from './test-utils/code-identifiers.js';
import { drawn } from './test-utils/drawn.js';
import { partedPiece, partedPrefix, partedSeparator } from './test-utils/parted-body-pieces.js';

// Base64url bodies part at `-` and `_` about once in thirty characters, and one piece in fifteen
// is four lower-case letters or more by chance (`-qoxqq`, `_zgvt`). Such a piece once read as a
// word between separators (`qwen3-coder-480b`), so the whole value as a name: with no issuer rule
// for the prefix, the token was left in every position without a credential key around it.
// Values are drawn at test time (the suite's seed); rates over many draws, since a uniform draw
// now and then spells a name or a typed run that no shape test can tell from one.
const prefix = partedPrefix;
const separator = partedSeparator;
const piece = partedPiece;
// Letters with no vowel spell no word, and none of the protocol names written as words (`grpc`,
// `html`, `smtp` need `h`, `m`, `p`, `r`, `s` or `t`).
const unpronounceable = drawn('bcdfgjkqvwxz', 4, 6);
const word = fc.constantFrom(...englishWords.filter((entry) => entry.length >= 4));
// The reading the fix narrowed: any run of 4+ lower-case letters between separators was a word.
const letterPart = /(?:^|[_\-.~])(?:[a-z]{4,}|[A-Z][a-z]{3,})(?:[_\-.~]|$)/;

/** A prefix, then generated pieces with `part` between separators, in the middle or at the end. */
const parted = (part: fc.Arbitrary<string>) =>
  fc
    .tuple(prefix, separator, piece(12, 20), separator, part, separator, piece(8, 16), fc.boolean())
    .map(([head, first, body, second, letters, third, tail, atEnd]) => {
      const rest = atEnd
        ? `${body}${tail}${second}${letters}`
        : `${body}${second}${letters}${third}${tail}`;
      return { value: `${head}${first}${rest}`, body: rest };
    });

describe('generated bodies parted by letters that spell no word', () => {
  it('are redacted in every position (>= 99 %)', () => {
    // Before: 67 % left (every position without a credential key or header); now 0.27 %
    // (measured over 40,000 draws; the bound is that rate plus four standard deviations over the
    // 4,000 drawn here).
    const values = fc.sample(parted(unpronounceable), 4000);
    let leaked = 0;
    values.forEach(({ value, body }, index) => {
      // Premise: the old reading takes the body for a name.
      expect(letterPart.test(body), body).toBe(true);
      const [, wrap] = credentialPositions[index % credentialPositions.length]!;
      if (redactSecrets(wrap(value)).text.includes(value)) leaked++;
    });
    expect(leaked / values.length).toBeLessThan(0.0065);
  });

  it('control: the same pieces around an English word stay a name where nothing names a credential', () => {
    // `qwen3-coder-480b`: a word between separators still makes it a name, compounds
    // (`background`) included.
    const plain: Array<(value: string) => string> = [
      (value) => value,
      (value) => `Set \`${value}\` in the dashboard.`,
      (value) => `ls build/${value}/out`,
    ];
    const values = fc.sample(parted(word), 2000);
    const redacted = values.filter(({ value }, index) => {
      expect(letterPart.test(value)).toBe(true);
      return (
        redactSecrets(plain[index % plain.length]!(value)).text !==
        plain[index % plain.length]!(value)
      );
    });
    expect(redacted.map(({ value }) => value)).toEqual([]);
  });
});
