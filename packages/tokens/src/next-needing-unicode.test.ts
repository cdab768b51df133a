import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodeUnitBuffer } from './code-unit-buffer.js';
import { nextNeedingUnicode } from './next-needing-unicode.js';

// The definition, one unit at a time: non-ASCII letters, numbers, marks and spaces, and surrogates.
const needs = (code: number) =>
  code >= 128 &&
  ((code >= 0xd800 && code <= 0xdfff) ||
    /[\p{L}\p{N}\p{M}\p{White_Space}]/u.test(String.fromCharCode(code)));

function reference(text: string, from: number, end: number): number {
  for (let i = from; i < end; i++) if (needs(text.charCodeAt(i))) return i;
  return -1;
}

describe('nextNeedingUnicode', () => {
  it('finds the first unit that needs the Unicode pattern from any offset to any end, odd or even (property)', () => {
    // Units are read two at a time: the one found may be either of its pair, the last unit of an
    // odd range, or share its pair with a symbol above 127 that needs nothing; texts past the
    // buffer's first size make it grow.
    const plain = fc.constantFrom(' ', 'a', '.', '\n', '→', '─', '…', '“', '\u00ff', '\uffff');
    const needing = fc.oneof(
      fc.constantFrom('é', 'ß', '字', '\u00a0', '\u3000', '😀', '\ud800', '\udc00', '٣', '\u0301'),
      fc.integer({ min: 0x80, max: 0xffff }).map((code) => String.fromCharCode(code)),
    );
    const buffer = new CodeUnitBuffer();
    fc.assert(
      fc.property(
        fc.noBias(fc.array(fc.oneof(plain, plain, plain, needing), { maxLength: 40 })),
        fc.noBias(fc.integer({ min: 0, max: 3000 })),
        fc.noBias(fc.nat()),
        fc.noBias(fc.nat()),
        (parts, padding, a, b) => {
          const text = ' '.repeat(padding % 7 === 0 ? padding : 0) + parts.join('');
          const from = text.length === 0 ? 0 : a % (text.length + 1);
          const end = from + (b % (text.length - from + 1));
          const units = buffer.of(text);
          expect(nextNeedingUnicode(units, buffer.words, from, end)).toBe(
            reference(text, from, end),
          );
          buffer.release();
        },
      ),
      { numRuns: 4000 },
    );
  });
});
