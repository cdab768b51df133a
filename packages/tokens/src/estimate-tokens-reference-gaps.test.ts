import fc from 'fast-check';
import { expect, it } from 'vitest';
import { estimateTokens } from './index.js';
import { tiktokenCount } from './test-utils/tiktoken-count.js';

// References each followed by punctuation and then the next reference (`&#60;/&#60;/`): the last
// `;` of a run was priced free, as if the punctuation after it paid, but the next run takes its own
// `&#` and nothing priced the gap: 0.58–0.77 of exact o200k on such texts (1.0 before the
// references were priced).
const punctuation = fc.constantFrom('/', '.', '&', '#', '<', '"', ',', ')', ']', '-', ':');
const reference = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((code) => `&#${code};`),
  fc.integer({ min: 0, max: 0xffff }).map((code) => `&#x${code.toString(16)};`),
  fc.integer({ min: 0, max: 0xffff }).map((code) => `&#X${code.toString(16).toUpperCase()};`),
);
const unit = fc
  .tuple(reference, fc.array(punctuation, { minLength: 1, maxLength: 2 }))
  .map(([ref, gap]) => ref + gap.join(''));

it('references with punctuation between them are not undercounted', () => {
  const texts = fc.sample(
    fc.array(unit, { minLength: 20, maxLength: 300 }).map((units) => units.join('')),
    60,
  );
  // Exact repeats are priced as copies of one unit (periodic runs), where the unit's `&` before the
  // next copy's `&#` is not seen: `&#123;&` x2000 reads 0.75 of exact (left open).
  for (const fixed of ['&#60;/', '&#39;&#', '&#123;.', '&#60;]-']) texts.push(fixed.repeat(2000));
  for (const text of texts) {
    expect(estimateTokens(text) / tiktokenCount('o200k_base', text)).toBeGreaterThanOrEqual(0.9);
  }
});
