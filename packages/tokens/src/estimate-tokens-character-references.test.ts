import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { characterReferenceRuns, referenceBodyTokens } from './character-references.js';
import { createTokenCounter, estimateTokens } from './index.js';
import { periodicRuns } from './periodic-runs.js';
import { textErrors } from './test-utils/heuristic-evaluation.ts';

// Attack: HTML and XML with characters written as numeric references (`&#1055;`, `&#x41F;`, `&#39;`)
// as escapers write non-ASCII text and quotes (issue 10). o200k cuts each into `&#`, the pieces of
// its number and `;`; the features priced them as punctuation, words and numbers, hex references
// 8-11 % high. The seed is the suite's property seed.
const counter = createTokenCounter({ encoding: 'o200k_base' });
afterAll(() => counter.dispose());
type Form = 'decimal' | 'hex' | 'HEX';
const reference = (code: number, form: Form) =>
  form === 'decimal'
    ? `&#${code};`
    : `&#x${form === 'hex' ? code.toString(16) : code.toString(16).toUpperCase()};`;
// Letters of alphabets, syllabaries and Han, and Latin with accents.
const blocks: ReadonlyArray<readonly [number, number]> = [
  [0x00c0, 0x017f],
  [0x0391, 0x03c9],
  [0x0410, 0x044f],
  [0x05d0, 0x05ea],
  [0x0621, 0x064a],
  [0x0905, 0x0939],
  [0x3041, 0x30fa],
  [0x4e00, 0x9fa5],
  [0xac00, 0xd7a3],
];
const word = fc.oneof(
  fc.stringMatching(/^[a-z]{1,9}$/),
  fc
    .integer({ min: 0, max: blocks.length - 1 })
    .chain((block) =>
      fc.array(fc.integer({ min: blocks[block]![0], max: blocks[block]![1] }), {
        minLength: 1,
        maxLength: 10,
      }),
    )
    .map((codes) => String.fromCodePoint(...codes)),
);
// Paragraphs and attributes as escapers write them: every non-ASCII character and the quote as a
// reference, in one form per text.
const escapedHtml = fc
  .tuple(
    fc.constantFrom<Form>('decimal', 'hex', 'HEX'),
    fc.array(fc.tuple(fc.constantFrom('<p>', '<li>', '<td>', 'title="'), fc.array(word)), {
      minLength: 1,
      maxLength: 8,
    }),
  )
  .map(([form, elements]) =>
    elements
      .map(([open, words]) => {
        const body = [...words.join(" '")]
          .map((c) => (c.charCodeAt(0) < 128 && c !== "'" ? c : reference(c.codePointAt(0)!, form)))
          .join('');
        return `${open}${body}${open.startsWith('<') ? `</${open.slice(1)}` : '"'}\n`;
      })
      .join(''),
  );
const hasReference = (text: string) => /&#x?[0-9a-fA-F]+;/.test(text);

describe('estimateTokens on numeric character references', () => {
  it("every character's reference priced as o200k cuts it", () => {
    // Between two references as in escaped text, the price of one is what adding it adds to the
    // exact count: exact for every decimal one, within 0.1 tokens on average for hex.
    for (const form of ['decimal', 'hex', 'HEX'] as const) {
      const around = reference(0x440, form);
      const base = counter.count(around + around);
      let absolute = 0;
      let references = 0;
      for (let code = 32; code < 0x11000; code += code < 0x3000 ? 1 : 37) {
        const text = reference(code, form);
        const cost = counter.count(around + text + around) - base;
        absolute += Math.abs(1 + referenceBodyTokens(text, 2, text.length - 1) - cost);
        references++;
      }
      // Measured: 0 (decimal), 0.016 (hex), 0.023 (HEX) tokens per reference.
      expect(absolute / references, form).toBeLessThanOrEqual(form === 'decimal' ? 0 : 0.05);
    }
  });

  it('escaped HTML within bounds of exact', () => {
    const texts = fc.sample(fc.noBias(escapedHtml), 150).filter(hasReference);
    // Premise: nearly every text holds references (a text of ASCII words only has none).
    expect(texts.length).toBeGreaterThanOrEqual(100);
    const { bias, mape } = textErrors(texts, estimateTokens, (text) => counter.count(text));
    // Measured over 30 seeds: bias +1.25 % mean (sd 0.076), MAPE 1.51 % mean (sd 0.13; twelve
    // seeds read 0.08, and a bound of 1.9 % broke 1 run in 600); bounds are mean + 4 sd (a run's
    // last `;` is always priced, at worst a token high, since references separated by punctuation
    // were undercounted).
    expect(bias).toBeGreaterThanOrEqual(-0.01);
    expect(bias).toBeLessThanOrEqual(0.0156);
    expect(mape).toBeLessThanOrEqual(0.0205);
  });

  it('control: text without a whole reference takes the features path alone', () => {
    // `&`, `#`, `;`, digits and broken references (`&#;`, `&#x;`, `&#12`, `&#xg;`): none is found.
    const near = fc
      .array(
        fc.oneof(
          fc.constantFrom('&', '#', ';', '&#', '&amp;', 'x', '1', 'f', ' ', '\n', 'я'),
          fc.stringMatching(/^&#[xX]?[0-9a-fA-F]{0,3}[g-z ]$/),
        ),
        { maxLength: 40 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.noBias(near), (text) => {
        fc.pre(!hasReference(text));
        expect(characterReferenceRuns(text, periodicRuns(text))).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.noBias(near), fc.integer({ min: 32, max: 0x10ffff }), (text, code) => {
        const escaped = `${text} ${reference(code, 'hex')}`;
        expect(characterReferenceRuns(escaped, periodicRuns(escaped))).not.toBeNull();
      }),
    );
  });
});
