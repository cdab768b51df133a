import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter, estimateTokens } from './index.js';

// Attack: text whose whitespace is tabs (issue 10). o200k's `\s+(?!\S)` leaves the last character of
// a whitespace run to the next piece; a space joins the punctuation or word after it, a tab joins
// only a word and BPE still splits it off, so before `}`, `"` or a digit it is a token of its own.
// The fit priced tabs at nothing: tab-indented JSON at 0.67-0.70 of the exact count, TSV with empty
// cells 0.46, `1\t\t\t\t` repeated 0.33. The seed is the suite's property seed.
const exact = createTokenCounter({ encoding: 'o200k_base' });
const sample = <T>(arbitrary: fc.Arbitrary<T>, n: number): T[] => fc.sample(arbitrary, n);

const word = fc.stringMatching(/^[a-z][a-zA-Z_]{0,9}$/);
const number = fc.oneof(
  fc.integer({ min: 0, max: 99_999 }).map(String),
  fc.double({ min: -1000, max: 1000, noNaN: true }).map((x) => x.toFixed(2)),
);
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    number.map(Number),
    word,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(word, tie('json'), { maxKeys: 5 }),
  ),
}));
const jsonObject = fc
  .dictionary(word, json, { minKeys: 2, maxKeys: 6 })
  .map((value) => JSON.stringify(value, null, '\t'));
const cell = fc.oneof(fc.constant(''), fc.constant(''), word, number);
const tsv = fc
  .tuple(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 2, max: 20 }))
  .chain(([columns, rows]) =>
    fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), {
      minLength: rows,
      maxLength: rows,
    }),
  )
  .map((rows) => rows.map((row) => row.join('\t')).join('\n'));
const statement = fc.oneof(
  fc.tuple(word, number).map(([a, b]) => `${a} := ${b}`),
  word.map((a) => `if ${a} != nil {`),
  fc.constant('}'),
  fc.constant('})'),
  word.map((a) => `return ${a}, nil`),
  fc.tuple(word, word).map(([a, b]) => `${a}.${b}("${b}")`),
  fc.tuple(word, word).map(([a, b]) => `${a}: ${b}.o`),
);
const code = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 6 }), statement), { minLength: 3, maxLength: 30 })
  .map((lines) => lines.map(([depth, line]) => `${'\t'.repeat(depth)}${line}`).join('\n'));
const mixedRun = fc
  .array(fc.constantFrom(' ', '\t'), { minLength: 1, maxLength: 8 })
  .map((chars) => chars.join(''));
const mixed = fc
  .array(fc.tuple(fc.oneof(word, number, fc.constantFrom('}', '"', '(', ';', '=')), mixedRun), {
    minLength: 3,
    maxLength: 40,
  })
  .map((parts) => parts.flat().join(''));
const digitTabs = fc
  .tuple(
    fc.integer({ min: 0, max: 9 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 150 }),
  )
  .map(([digit, tabs, repeats]) => `${digit}${'\t'.repeat(tabs)}`.repeat(repeats));

const classes: Record<string, fc.Arbitrary<string>> = {
  jsonObject,
  tsv,
  code,
  mixed,
  digitTabs,
};
const bias = (texts: readonly string[]) => {
  let estimated = 0;
  let counted = 0;
  for (const text of texts) {
    estimated += estimateTokens(text);
    counted += exact.count(text);
  }
  return estimated / counted - 1;
};
// The same texts with every tab a space: the look-alike whose pricing must not move.
const spaced = (text: string) => text.replaceAll('\t', ' ');

describe('estimateTokens on tab-heavy text', () => {
  for (const [name, arbitrary] of Object.entries(classes)) {
    it(`${name}: aggregate bias >= -10 %, the spaced control unchanged`, () => {
      const texts = sample(fc.noBias(arbitrary), 60);
      // Premise: every text has tabs.
      expect(texts.every((text) => text.includes('\t'))).toBe(true);
      const measured = bias(texts);
      expect(measured, name).toBeGreaterThanOrEqual(-0.1);
      // Not bought by overcounting: measured -8 % to +4 %.
      expect(measured, name).toBeLessThanOrEqual(0.2);
      const controls = texts.map(spaced);
      // Text without tabs takes no surcharge: the control stays where it was (-8 % to +6 %).
      expect(Math.abs(bias(controls)), `${name} spaced`).toBeLessThanOrEqual(0.15);
    });
  }
});
