import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printableText } from './printable-text.js';

const unprintable = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffd]/;

describe('printableText', () => {
  it('returns one clipped line without control characters, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 2000 }),
        fc.integer({ min: 8, max: 500 }),
        (text, max) => {
          const line = printableText(text, max);
          expect(line).not.toMatch(unprintable);
          expect(line).not.toContain('\n');
          expect(line.length).toBeLessThanOrEqual(max);
        },
      ),
    );
  });

  it('leaves ordinary text alone and escapes raw bytes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ -~]{0,200}$/), (text) => {
        expect(printableText(text, 400)).toBe(text);
      }),
    );
    expect(printableText('bad: \x7fELF\x00\x01 "x"')).toBe('bad: \\x7fELF\\x00\\x01 "x"');
    expect(printableText('a\n  b\tc')).toBe('a b c');
    expect(printableText(`${'y'.repeat(20)}\x01`, 22)).toBe(`${'y'.repeat(20)}…`);
  });
});
