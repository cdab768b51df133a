import { cpuMilliseconds } from '@baton/test-corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripTerminalCodes } from './strip-terminal-codes.js';

const plain = fc.string({ unit: fc.constantFrom(...'abc XYZ:/.\n\t-[]()019;m'.split('')) });

describe('stripTerminalCodes', () => {
  it('control: text without an escape comes back unchanged, brackets and `m`s included', () => {
    fc.assert(
      fc.property(plain, (text) => {
        expect(stripTerminalCodes(text)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

const ESC = '\u001b';
// Text around the sequences: no escape, no BEL, no C1 control.
const line = fc.string({ unit: fc.constantFrom(...'abc XYZ:/.\t-[]()019;m=>PB\\'.split('')) });
const parameters = fc.string({ unit: fc.constantFrom(...'0123456789:;<=>?'.split('')) });
const intermediates = fc.string({
  unit: fc.constantFrom(...' !"#$%&\'()*+,-./'.split('')),
  maxLength: 2,
});
const byteIn = (from: number, to: number) =>
  fc.integer({ min: from, max: to }).map((n) => String.fromCharCode(n));
// Any ECMA-48 sequence, terminated: CSI (7-bit or C1), control strings (OSC, DCS, SOS, PM, APC)
// ended by BEL or ST, and ESC + intermediates + final (`ESC ( B`, `ESC =`, `ESC 7`).
const sequence = fc.oneof(
  fc
    .tuple(fc.constantFrom(`${ESC}[`, '\u009b'), parameters, intermediates, byteIn(0x40, 0x7e))
    .map((parts) => parts.join('')),
  fc
    .tuple(
      fc.constantFrom(`${ESC}]`, `${ESC}P`, `${ESC}X`, `${ESC}^`, `${ESC}_`, '\u009d', '\u0090'),
      line,
      fc.constantFrom('\u0007', `${ESC}\\`, '\u009c'),
    )
    .map((parts) => parts.join('')),
  fc
    .tuple(intermediates, byteIn(0x30, 0x7e))
    // Alone, `[`, `]`, `P`, `X`, `^` and `_` open a CSI or a control string (above).
    .filter(([middle, final]) => middle !== '' || !'[]PX^_'.includes(final))
    .map(([middle, final]) => ESC + middle + final),
);
const stringOpener = fc.constantFrom(`${ESC}]`, `${ESC}P`, `${ESC}_`, '\u009d', '\u0090');

describe('stripTerminalCodes, every ECMA-48 form', () => {
  it('removes CSI, control strings and short escapes whole, nothing of the text around', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, sequence), { minLength: 1, maxLength: 6 }),
        line,
        (pieces, tail) => {
          const written = pieces.map(([text]) => text).join('') + tail;
          const shown = pieces.map(([text, code]) => text + code).join('') + tail;
          expect(shown).not.toBe(written);
          expect(stripTerminalCodes(shown)).toBe(written);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ends an unterminated control string at its line end: the lines after it stay', () => {
    fc.assert(
      fc.property(
        line,
        stringOpener,
        line,
        fc.constantFrom('\n', '\r\n'),
        fc.array(line, { minLength: 1, maxLength: 4 }),
        (before, opener, body, eol, after) => {
          const rest = after.map((text) => `Error: ${text}`).join('\n');
          // Premise: nothing ends the string on its own line.
          expect(body).not.toMatch(/[\u0007\u001b\u009c\n\r]/);
          expect(stripTerminalCodes(`${before}${opener}${body}${eol}${rest}`)).toBe(
            `${before}${eol}${rest}`,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('leaves no escape or C1 control in any text', () => {
    const anything = fc.string({
      unit: fc.constantFrom(
        ESC,
        '\u009b',
        '\u009c',
        '\u009d',
        '\u0090',
        '\u0007',
        '[',
        ']',
        'P',
        '\\',
        '(',
        '1',
        ';',
        ' ',
        '\n',
        'a',
      ),
    });
    fc.assert(
      fc.property(anything, (text) => {
        expect(stripTerminalCodes(text)).not.toMatch(/[\u001b\u0090\u0098\u009b-\u009f]/);
      }),
      { numRuns: 300 },
    );
  });

  it('control: text with brackets, backslashes and `P`s but no escape comes back as it is', () => {
    fc.assert(
      fc.property(line, (text) => {
        expect(stripTerminalCodes(text)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('stays linear on runs of unterminated openers (100k vs 400k characters)', () => {
    fc.assert(
      fc.property(
        fc.noBias(
          fc.constantFrom(
            `${ESC}[`,
            `${ESC}]`,
            `${ESC}P`,
            `${ESC} `,
            `${ESC}[1;`,
            `${ESC}]0;a`,
            '\u009b1',
          ),
        ),
        (unit) => {
          const time = (size: number) => {
            const text = unit.repeat(size / unit.length);
            return cpuMilliseconds(() => stripTerminalCodes(text));
          };
          const small = time(100_000);
          const large = time(400_000);
          expect(large, `${JSON.stringify(unit)}: ${small} ms, ${large} ms`).toBeLessThan(
            Math.max(200, small * 8),
          );
        },
      ),
      { numRuns: 7 },
    );
  });
});
