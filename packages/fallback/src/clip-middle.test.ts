import { defaultTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipMiddle, clipText, elisionMarker, hasElisionMarker } from './index.js';

const markerPattern =
  /\[Baton: (\d+) (characters|tokens)(?: and (\d+) (characters|tokens))? omitted\]/g;

/** Words, spaces, line breaks, astral characters (surrogate pairs) and CJK, in any order. */
const text = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[a-z]{1,12}$/),
      fc.constantFrom(' ', '\n', '  ', '😀', '𝔘𝔫𝔦', '日本語', '/usr/lib/x.so', '{'),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    { maxLength: 400 },
  )
  .map((pieces) => pieces.join(''));

/** No lone surrogate: what `String.prototype.isWellFormed` checks (ES2024, past this lib target). */
const wellFormed = (value: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);

interface Parsed {
  head: string;
  tail: string;
  amounts: { characters: number; tokens: number };
  markers: number;
}

/** Splits a clipped text into its kept start, its kept end and what its one marker states. */
function parse(clipped: string): Parsed {
  const matches = [...clipped.matchAll(markerPattern)];
  const match = matches[0]!;
  const start = match.index;
  const end = start + match[0].length;
  const amounts = { characters: 0, tokens: 0 };
  amounts[match[2] as 'characters'] += Number(match[1]);
  if (match[3] !== undefined) amounts[match[4] as 'characters'] += Number(match[3]);
  return {
    head: start === 0 ? '' : clipped.slice(0, start - 1),
    tail: end === clipped.length ? '' : clipped.slice(end + 1),
    amounts,
    markers: matches.length,
  };
}

describe('clipMiddle', () => {
  it('keeps start and end verbatim around one marker counting the characters left out', () => {
    fc.assert(
      fc.property(
        text,
        fc.nat(600),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (source, limit, tailShare) => {
          const clipped = clipMiddle(source, limit, { tailShare });
          if (source.length <= limit) {
            expect(clipped).toBe(source);
            return;
          }
          expect(clipped.length).toBeLessThanOrEqual(
            Math.max(limit, elisionMarker(source.length).length),
          );
          const { head, tail, amounts, markers } = parse(clipped);
          expect(markers).toBe(1);
          expect(source.startsWith(head)).toBe(true);
          expect(source.endsWith(tail)).toBe(true);
          expect(amounts).toEqual({
            characters: source.length - head.length - tail.length,
            tokens: 0,
          });
          // The cut never falls between the two halves of a surrogate pair.
          expect(wellFormed(clipped)).toBe(wellFormed(source));
          // The marker stands on a line of its own in a text of lines, between spaces otherwise.
          if (head !== '') expect(clipped[head.length]).toBe(source.includes('\n') ? '\n' : ' ');
        },
      ),
      { numRuns: 400 },
    );
  });

  it('clipped again, carries the first count on in one marker instead of stacking two', () => {
    fc.assert(
      fc.property(
        text,
        fc.nat(600),
        fc.nat(600),
        fc.boolean(),
        (source, first, second, wholeWords) => {
          const once = clipMiddle(source, first, { wholeWords });
          const twice = clipMiddle(once, second, { wholeWords });
          if (source.length <= Math.min(first, second)) expect(twice).toBe(source);
          if (!hasElisionMarker(twice)) return;
          const { head, tail, amounts, markers } = parse(twice);
          expect(markers).toBe(1);
          expect(source.startsWith(head)).toBe(true);
          expect(source.endsWith(tail)).toBe(true);
          expect(amounts.characters).toBe(source.length - head.length - tail.length);
          // Clipping to a limit the text already meets changes nothing.
          expect(clipMiddle(twice, Math.max(twice.length, second))).toBe(twice);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('with a counter, fits the limit in tokens and counts the tokens left out', () => {
    const counter = defaultTokenCounter();
    fc.assert(
      fc.property(text, fc.integer({ min: 12, max: 200 }), (source, limit) => {
        const tokens = counter.count(source);
        const clipped = clipMiddle(source, limit, { counter });
        if (tokens <= limit) {
          expect(clipped).toBe(source);
          return;
        }
        expect(counter.count(clipped)).toBeLessThanOrEqual(limit);
        const { head, tail, amounts, markers } = parse(clipped);
        expect(markers).toBe(1);
        expect(source.startsWith(head)).toBe(true);
        expect(source.endsWith(tail)).toBe(true);
        expect(amounts.characters).toBe(0);
        expect(amounts.tokens).toBeGreaterThanOrEqual(1);
        expect(amounts.tokens).toBeLessThanOrEqual(tokens);
        expect(wellFormed(clipped)).toBe(wellFormed(source));
        // A character clip clipped again by tokens states both amounts in its one marker.
        const mixed = clipMiddle(clipMiddle(source, source.length - 1), limit, { counter });
        expect(parse(mixed).markers).toBe(1);
      }),
      { numRuns: 150 },
    );
  });

  it('cuts on whitespace only when asked for whole words', () => {
    fc.assert(
      fc.property(text, fc.nat(300), (source, limit) => {
        const clipped = clipMiddle(source, limit, { wholeWords: true, tailShare: 0.5 });
        if (clipped === source) return;
        const { head, tail } = parse(clipped);
        const after = source[head.length];
        expect(head === '' || after === undefined || /\s/.test(after)).toBe(true);
        const before = source[source.length - tail.length - 1];
        expect(tail === '' || before === undefined || /\s/.test(before)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps nothing for a limit that is not a number, and never loops', () => {
    expect(clipMiddle('a'.repeat(100), Number.NaN)).toBe(elisionMarker(100));
    expect(clipMiddle('a'.repeat(100), Number.POSITIVE_INFINITY)).toBe('a'.repeat(100));
  });
});

describe('clipText', () => {
  it('keeps whole words of the start within the length and says how much was left out', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z/._-]{1,15}$/), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 40, max: 300 }),
        (words, length) => {
          const source = words.join(' ');
          const clipped = clipText(source, length);
          expect(clipped.length).toBeLessThanOrEqual(Math.max(length, source.length));
          if (clipped === source) return;
          const { head, tail, amounts } = parse(clipped);
          expect(tail).toBe('');
          // Only whole words: the kept start is a run of the words themselves.
          expect(words.slice(0, head === '' ? 0 : head.split(' ').length).join(' ')).toBe(head);
          expect(amounts.characters).toBe(source.length - head.length);
          // A digest of a digest still holds one marker.
          expect(parse(clipText(clipped, Math.max(40, length - 20))).markers).toBe(1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
