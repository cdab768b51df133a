import { cpuMilliseconds } from '@baton/test-corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifySummary, wordStems } from './index.js';
import { markdownHeading } from './markdown-heading.js';

// The pattern headings were read with before; it is cubic on a run of spaces inside a title.
const previousPattern = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
const characters = ['#', '#', ' ', ' ', '\t', '\u00a0', 'a', 'Z', '\r', '\u2028', '*', ':'];
const line = fc
  .array(fc.constantFrom(...characters), { maxLength: 14 })
  .map((parts) => parts.join(''));

describe('markdownHeading', () => {
  it('reads every line as the previous pattern did, but a blank title (property)', () => {
    fc.assert(
      fc.property(line, (text) => {
        const before = previousPattern.exec(text)?.[1];
        const expected = before === undefined || before.trim() === '' ? undefined : before;
        expect(markdownHeading(text)).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
  });

  it('costs linear time on a title holding a long run of spaces, through verifySummary', () => {
    const reply = (spaces: number) =>
      `## Goal\nFix the build.\n## Relevant${' '.repeat(spaces)}files ##\n- src/a.ts\n### x${' '.repeat(spaces)}y`;
    const time = (spaces: number) => {
      const text = reply(spaces);
      const stems = wordStems(text);
      return cpuMilliseconds(() =>
        verifySummary(text, { asks: [], files: [], errors: [], tools: [], openWork: [] }, stems),
      );
    };
    time(1_000);
    // Before: 2,000 spaces took 3 s and 4,000 about eight times that.
    const small = time(20_000);
    const large = time(80_000);
    expect(large, `20k ${small} ms, 80k ${large} ms`).toBeLessThan(Math.max(8 * small, 400));
  });
});
