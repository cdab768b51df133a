import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeUnprintable } from './printable-text.js';

// Reads a printed name back: `\\` is a backslash, `\xNN` and `\uNNNN` are the code units they name.
// That every printed form reads back to its name is what makes two names never print the same.
function readBack(printed: string): string {
  return printed.replace(/\\(?:\\|x([0-9a-f]{2})|u([0-9a-f]{4}))/g, (sequence, byte, unit) =>
    sequence === '\\\\' ? '\\' : String.fromCharCode(Number.parseInt(byte ?? unit, 16)),
  );
}

// Characters a terminal shows nothing for, or shows as something else's look-alike.
const invisible = [
  '\u00ad',
  '\u061c',
  '\u180e',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2060',
  '\u2061',
  '\u2062',
  '\u2063',
  '\u2064',
  '\u2066',
  '\u2069',
  '\ufeff',
  '\u00a0',
  '\u2007',
  '\u3000',
  '\ufe0f',
  '\u3164',
  '\u{e0001}',
  '\u{e0041}',
  '\u{e007f}',
  '\x1b',
  '\n',
  '\u2028',
];
// What names are made of, escapes' look-alikes included (`\x1b` written out as four characters).
const nameCharacter = fc.oneof(
  fc.constantFrom(...invisible),
  fc.constantFrom('\\', 'x', 'u', '1', 'b', '0', 'e', 'f', '{', '}'),
  fc.constantFrom('a', 'é', '日', '😀', '-', '.', ' ', '/'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const name = fc.array(nameCharacter, { maxLength: 12 }).map((parts) => parts.join(''));
// Names a terminal shows as they are: letters of any script, digits, punctuation but `\`, spaces.
const plainName = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[ -[\]-~]$/),
      fc.constantFrom('é', 'ß', 'ж', 'ع', 'ש', '日', '한', '😀', '👍🏽', '𝒳'),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('escapeUnprintable', () => {
  it('prints each name so that it reads back to that name only', () => {
    fc.assert(
      fc.property(name, (text) => {
        expect(readBack(escapeUnprintable(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(readBack(escapeUnprintable(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('never prints two different names the same', () => {
    fc.assert(
      fc.property(name, name, (first, second) => {
        fc.pre(first !== second);
        expect(escapeUnprintable(first)).not.toBe(escapeUnprintable(second));
      }),
      { numRuns: 2000 },
    );
    // The reviewed pair: a name holding ESC, and one holding the four characters of its escape.
    expect(escapeUnprintable('a\\x1b')).not.toBe(escapeUnprintable('a\x1b'));
    expect(escapeUnprintable('a\u200bb')).not.toBe(escapeUnprintable('ab'));
  });

  it('escapes every invisible character, and leaves plain names unchanged', () => {
    for (const character of invisible) {
      expect(escapeUnprintable(`a${character}b`)).not.toContain(character);
    }
    fc.assert(
      fc.property(plainName, (text) => {
        expect(escapeUnprintable(text)).toBe(text);
      }),
    );
  });

  it('leaves a backslash alone where it cannot start an escape (Windows paths stay readable)', () => {
    const folder = fc.stringMatching(/^[A-Za-tv-wyz0-9 ._-][A-Za-z0-9 ._-]{0,11}$/);
    fc.assert(
      fc.property(fc.array(folder, { minLength: 1, maxLength: 5 }), (folders) => {
        const path = `C:\\${folders.join('\\')}\\report.json`;
        expect(escapeUnprintable(path)).toBe(path);
      }),
    );
    // Control: before `x`, `u`, `\\` or an escaped character it is doubled.
    expect(escapeUnprintable('C:\\x1b\\u0041\\\x1b')).toBe('C:\\\\x1b\\\\u0041\\\\\\x1b');
  });
});
