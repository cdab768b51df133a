import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripTerminalCodes } from './strip-terminal-codes.js';

const plain = fc.string({ unit: fc.constantFrom(...'abc XYZ:/.\n\t-[]()019;m'.split('')) });
const code = fc.oneof(
  fc
    .array(fc.integer({ min: 0, max: 107 }), { minLength: 0, maxLength: 3 })
    .map((n) => `\u001b[${n.join(';')}m`),
  fc.constantFrom(
    '\u001b[2K',
    '\u001b[1A',
    '\u001b[?25l',
    '\u001b]8;;file:///x/y.ts\u0007',
    '\u001b]0;title\u001b\\',
  ),
);

describe('stripTerminalCodes', () => {
  it('gives back the text as written around any colour and control sequences', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(plain, code), { minLength: 1, maxLength: 8 }),
        plain,
        (pieces, tail) => {
          const written = pieces.map(([text]) => text).join('') + tail;
          const shown = pieces.map(([text, sequence]) => text + sequence).join('') + tail;
          // Premise: there is a sequence to remove.
          expect(shown).not.toBe(written);
          expect(stripTerminalCodes(shown)).toBe(written);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('control: text without an escape comes back unchanged, brackets and `m`s included', () => {
    fc.assert(
      fc.property(plain, (text) => {
        expect(stripTerminalCodes(text)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});
