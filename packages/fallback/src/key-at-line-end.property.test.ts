import fc from 'fast-check';
import { expect, it } from 'vitest';
import { keyAtLineEnd } from './key-at-line-end.js';

// The patterns the scanner replaces: it must answer exactly as they do on any line.
const quoted = /([A-Za-z_$][\w.$-]*)["']?\s*(?:=>|:=|[:=])\s*["']?$/;
const bare = /([A-Za-z_$][\w.$-]*)["']?\s*(?:=>|:=|[:=])\s*$/;
const pathed = /((?:[A-Za-z_$][\w.$-]*\/)*[A-Za-z_$][\w.$-]*)["']?\s*(?:=>|:=|[:=])\s*["']?$/;

// Characters every branch turns on: key characters of each kind, separators, quotes, `/`, `>`,
// whitespace JavaScript's `\s` knows (and one it does not), and others.
const pieces = fc.constantFrom(
  ...'aZ_$9.-/:=>"\' \t\u00a0\u2003\ufeff\u200b&?,;()[]{}#@\\é'.split(''),
  'key',
  'api_key',
  '=>',
  ':=',
  '//',
  '$cfg->',
  '9a',
);
const lines = fc.array(pieces, { maxLength: 24 }).map((parts) => parts.join(''));

it('answers as the end-anchored patterns on any line', () => {
  let keyed = 0;
  fc.assert(
    fc.property(lines, (line) => {
      const expected = quoted.exec(line)?.[1];
      if (expected !== undefined) keyed++;
      expect(keyAtLineEnd(line)).toBe(expected);
      expect(keyAtLineEnd(line, { trailingQuote: false })).toBe(bare.exec(line)?.[1]);
      expect(keyAtLineEnd(line, { path: true })).toBe(pathed.exec(line)?.[1]);
    }),
    { numRuns: 20_000 },
  );
  // Premise: many lines end with a key.
  expect(keyed).toBeGreaterThan(200);
});

it('answers as the patterns on lines that end with a key, a path or a near miss', () => {
  const segment = fc
    .array(fc.constantFrom(...'aZ_$9.-'.split('')), { minLength: 1, maxLength: 5 })
    .map((parts) => parts.join(''));
  const keyLines = fc
    .tuple(
      lines,
      fc.array(segment, { minLength: 1, maxLength: 4 }),
      fc.constantFrom('', '"', "'", '`'),
      fc.constantFrom('', ' ', '\t', ' \u00a0'),
      fc.constantFrom('=', ':', '=>', ':=', '==', '->', ''),
      fc.constantFrom('', ' ', '  '),
      fc.constantFrom('', '"', "'", '""'),
    )
    .map(
      ([before, segments, quote, space, separator, after, close]) =>
        `${before}${segments.join('/')}${quote}${space}${separator}${after}${close}`,
    );
  fc.assert(
    fc.property(keyLines, (line) => {
      expect(keyAtLineEnd(line)).toBe(quoted.exec(line)?.[1]);
      expect(keyAtLineEnd(line, { trailingQuote: false })).toBe(bare.exec(line)?.[1]);
      expect(keyAtLineEnd(line, { path: true })).toBe(pathed.exec(line)?.[1]);
    }),
    { numRuns: 20_000 },
  );
});
