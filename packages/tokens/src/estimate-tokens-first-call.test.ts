// The estimator's tables (English trigram surprisal, rare letter pairs by code, Simplified and
// Traditional Han forms) are filled on the first estimate of a process, not at import. Premise: the
// first estimate of a fresh module set reads them filled, so it equals every later estimate of the
// same text. Control: text that reads none of them (digits, punctuation, spaces).
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

async function freshEstimate() {
  vi.resetModules();
  return (await import('./estimate-tokens.js')).estimateTokens;
}

// Each class reads one of the lazily filled tables: English words and letter keys (trigrams, rare
// pairs), Han text of either form, and mixtures with spaces and punctuation.
const letters = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzQXZJK'),
  minLength: 1,
  maxLength: 30,
});
const han = fc.string({
  unit: fc.constantFrom(...'们这个来说為時會國對過數据無檔中文的一是不了人我在有他'),
  minLength: 1,
  maxLength: 30,
});
const control = fc.string({
  unit: fc.constantFrom(...'0123456789 .,;:-()[]{}\n'),
  minLength: 1,
  maxLength: 30,
});
const text = fc.noBias(
  fc
    .array(fc.oneof(letters, han, control), { minLength: 1, maxLength: 8 })
    .map((parts) => parts.join(' ')),
);

describe('estimateTokens on the first call of a process', () => {
  it('equals later estimates of the same text, for text that reads the lazily filled tables (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom('o200k_base', 'cl100k_base'),
        async (value, encoding) => {
          const first = (await freshEstimate())(value, { encoding });
          const estimate = await freshEstimate();
          estimate('warm the tables', { encoding });
          expect(first).toBe(estimate(value, { encoding }));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('equals later estimates on text that reads none of them (control)', async () => {
    await fc.assert(
      fc.asyncProperty(control, async (value) => {
        const first = (await freshEstimate())(value);
        expect(first).toBe((await freshEstimate())(value));
      }),
      { numRuns: 10 },
    );
  });
});
