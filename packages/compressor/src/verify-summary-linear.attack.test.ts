import { cpuMilliseconds } from '@baton/test-corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SpanFacts, verifySummary, wordStems } from './index.js';

/**
 * A summariser's reply is not trusted to be short: a function summariser, a proxy or a model that
 * ignores `maxOutputTokens` may return megabytes, and every reply is read by `verifySummary` before
 * the length check can reject it. Reading it must cost linear time in the number of lines, however
 * they fall under the headings. Each heading's body used to be copied whole for every line added to
 * it, so a reply of N lines under one heading (or N headings naming one section) cost N^2 / 2 copies:
 * 40,000 lines took about 17 s of CPU, 20,000 about 3 s.
 */
const none = (): SpanFacts => ({ asks: [], files: [], errors: [], tools: [], openWork: [] });

/** Reply shapes that put many lines into few sections; `lines` lines in all. */
const shapes: Record<string, (lines: number, salt: number) => string> = {
  'one heading, many body lines': (lines, salt) =>
    [
      '## Goal',
      ...Array.from({ length: lines - 2 }, (_, index) => `- step ${salt}.${index} done`),
      '## Remaining work',
    ].join('\n'),
  'label lines that carry their text': (lines, salt) =>
    Array.from({ length: lines }, (_, index) => `Next steps: item ${salt}.${index}`).join('\n'),
};

/** The smaller of two CPU times of `verifySummary` on a reply of `lines` lines of `shape`. */
function cost(shape: (lines: number, salt: number) => string, lines: number, salt: number) {
  const reply = shape(lines, salt);
  const stems = wordStems(reply);
  return Math.min(
    cpuMilliseconds(() => verifySummary(reply, none(), stems, { topUp: false })),
    cpuMilliseconds(() => verifySummary(reply, none(), stems, { topUp: false })),
  );
}

/** 4x the lines: linear work grows about 4x, quadratic about 16x. */
const growthLimit = 8;

describe('verifySummary on a reply of many lines', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(`${name}: 4x the lines costs under ${growthLimit}x the time`, () => {
      // Premise: the reply is kept whole (no line dropped as a repeat) and lands in few sections,
      // the case whose per-line copies made the cost quadratic.
      const reply = shape(1_000, 0);
      const { sections, verification } = verifySummary(reply, none(), wordStems(reply), {
        topUp: false,
      });
      expect(verification.droppedRepeatedLines).toBe(0);
      expect(sections).toBeDefined();
      expect(Object.keys(sections!).length).toBeLessThanOrEqual(2);
      expect(Object.values(sections!).join('\n').split('\n').length).toBeGreaterThanOrEqual(500);

      cost(shape, 2_000, 1);
      const small = cost(shape, 5_000, 2);
      const large = cost(shape, 20_000, 3);
      expect(large / Math.max(small, 1)).toBeLessThan(growthLimit);
    });
  }

  it('control: the same measure fails a quadratic accumulation of the same lines', () => {
    // The copy-per-line pattern on its own, timed the same way: it must exceed the bound, or
    // the bound could not catch the defect.
    const quadratic = (lines: number) =>
      cpuMilliseconds(() => {
        let body: string[] = [];
        for (let index = 0; index < lines; index++) body = [...body, `- item ${index}`];
        return body.length;
      });
    quadratic(1_000);
    const small = Math.min(quadratic(2_000), quadratic(2_000));
    const large = Math.min(quadratic(8_000), quadratic(8_000));
    expect(large / Math.max(small, 1)).toBeGreaterThan(growthLimit);
  });

  it('keeps every body line in its order, whatever the headings (any reply)', () => {
    // The fix must not change what is read: lines under a section, in order, across repeats of it.
    const line = fc.stringMatching(/^[a-z]{3,8}( [a-z]{3,8}){2,5}$/);
    const block = fc.record({
      heading: fc.constantFrom('## Goal', '## Remaining work', '## Active state', '**Goal:**'),
      // Numbered per block below: a repeated heading line of 8+ characters is dropped as a repeat.
      lines: fc.array(line, { minLength: 1, maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(block, { minLength: 3, maxLength: 12 }), (blocks) => {
        const heading = (text: string, index: number) =>
          text.endsWith(':**') ? `${text.slice(0, -3)} ${index}:**` : `${text} ${index}`;
        const reply = blocks
          .map((b, index) => [heading(b.heading, index), ...b.lines].join('\n'))
          .join('\n');
        const unique = new Set(blocks.flatMap((b) => b.lines));
        // Premise: every line is distinct, so none is dropped as a repeat.
        fc.pre(unique.size === blocks.reduce((sum, b) => sum + b.lines.length, 0));
        const { sections } = verifySummary(reply, none(), wordStems(reply), { topUp: false });
        const expected = new Map<string, string[]>();
        for (const b of blocks) {
          const key = b.heading.includes('Remaining')
            ? 'remaining'
            : b.heading.includes('Active')
              ? 'active'
              : 'goal';
          expected.set(key, [...(expected.get(key) ?? []), ...b.lines]);
        }
        const byKey = (text: string | undefined) => text?.split('\n') ?? [];
        expect(byKey(sections?.goal)).toEqual(expected.get('goal') ?? []);
        expect(byKey(sections?.remainingWork)).toEqual(expected.get('remaining') ?? []);
        expect(byKey(sections?.activeState)).toEqual(expected.get('active') ?? []);
      }),
      { numRuns: 200 },
    );
  });
});
