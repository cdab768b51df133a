import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from './decode-base64.js';
import { encodesPair } from './encodes-pair.js';

/** What the prefilter asked before the run was decoded in place: slice, unescape, `atob`. */
function sliceAndDecode(text: string, start: number, end: number): boolean {
  if (end - start > 300) return false;
  const run = text.slice(start, end);
  if (!/.[0-9A-Z]/.test(run)) return false;
  return decodeBase64(run.replace(/\\\//g, '/'))?.includes(':') === true;
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base64Character = fc.constantFrom(...alphabet, '\\/');
// Encoded text holding a `:` now and then, so decoded pairs are drawn as often as misses.
const encoded = fc
  .string({ unit: fc.constantFrom('a', 'Z', '0', ':', '@', '~', '\u00ff'), maxLength: 240 })
  .map((plain) => btoa(plain).replace(/=+$/, ''));
const run = fc.oneof(
  fc.array(base64Character, { maxLength: 320 }).map((units) => units.join('')),
  encoded,
  encoded.map((value) => value.replaceAll('/', '\\/')),
);
// Anything else around a run: only the run is read.
const noise = fc.string({
  unit: fc.constantFrom('a', 'B', '7', '\\', '/', '=', ' ', '\n', ':', 'é'),
});

describe('encodesPair', () => {
  it('answers as slicing, unescaping and decoding the run would', () => {
    fc.assert(
      fc.property(noise, run, noise, fc.noBias(fc.nat(8)), (before, value, after, shift) => {
        const text = `${before}${value}${after}`;
        // The prefilter hands over whole runs; a part of one is a run too.
        const start = before.length;
        const end = start + value.length;
        for (const [from, to] of [
          [start, end],
          [start + Math.min(shift, value.length), end],
          [start, Math.max(start, end - shift)],
        ] as const) {
          expect(encodesPair(text, from, to)).toBe(sliceAndDecode(text, from, to));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the pair in an encoded user:password of any length', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 60 }),
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 60 }),
        (user, password) => {
          const value = btoa(`${user}:${password}`).replace(/=+$/, '');
          const text = `Authorization: Basic ${value} end`;
          const start = text.indexOf(value);
          expect(encodesPair(text, start, start + value.length)).toBe(
            sliceAndDecode(text, start, start + value.length),
          );
          if (/.[0-9A-Z]/.test(value) && value.length <= 300) {
            expect(encodesPair(text, start, start + value.length)).toBe(true);
          }
        },
      ),
    );
  });
});
