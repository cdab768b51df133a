import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractErrorLines } from './extract-handoff-facts.js';

// An output's error lines are found by scanning the whole output once per pattern, a line taken
// wherever a match starts in it: each line must still be judged on its own, once however many
// patterns match it, and in the order the output gives.
const word = fc.constantFrom(
  'error:',
  'Error',
  'FAILED',
  'ERROR',
  'npm ERR!',
  'exit code 1',
  'timed out',
  'E   assert',
  'no such file',
  'TypeError: x',
  'src/a.ts:3:5:',
  'const',
  'value',
  'ok',
  '  ',
  '- item',
);
const line = fc.array(word, { maxLength: 5 }).map((words) => words.join(' '));

describe('extractErrorLines', () => {
  it('lists each line of an output that is an error line alone, once, in order', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const expected = lines.flatMap((text) => {
          const alone = extractErrorLines(text);
          // One line is one error line at most, whichever patterns match it.
          expect(alone.length).toBeLessThanOrEqual(1);
          return alone;
        });
        expect(extractErrorLines(lines.join('\n'))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
