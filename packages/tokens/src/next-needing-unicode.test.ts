import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodeUnitBuffer } from './code-unit-buffer.js';
import { createPieceCounter } from './create-piece-counter.js';
import { loadBytePairEncoder } from './load-byte-pair-encoder.js';
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

  it('keeps counting linear in the text on units built to stop the scan often', () => {
    // Symbols above 127 in every pair of units (each one classified), characters that need the
    // Unicode pattern on every line (each one a cut), and both interleaved.
    const units = ['→', 'a→', '→ ', 'é\n', 'x\u3000', '─é', '→\nab字', '\ud800→'];
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const encoder = loadBytePairEncoder(encoding);
      for (const unit of units) {
        // The least of three runs, each on a fresh counter: a collection or another process in
        // one run is not the scan.
        const cpu = (length: number) => {
          const text = unit.repeat(Math.ceil(length / unit.length));
          const runs = [0, 1, 2].map(() =>
            cpuMilliseconds(createPieceCounter(encoder, encoding), text),
          );
          return Math.min(...runs);
        };
        cpu(20_000);
        const small = Math.max(cpu(50_000), 3);
        const large = cpu(200_000);
        // Four times the text; a quadratic scan would take about sixteen times as long.
        expect(large / small, `${encoding} ${JSON.stringify(unit)}`).toBeLessThan(9);
      }
    }
  }, 120_000);
});

/** CPU milliseconds (user + system) one count of `text` takes. */
function cpuMilliseconds(counter: { count(text: string): number }, text: string): number {
  const started = process.cpuUsage();
  counter.count(text);
  const spent = process.cpuUsage(started);
  return (spent.user + spent.system) / 1000;
}
