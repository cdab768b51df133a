import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractionCpu } from './test-utils/extraction-cpu.js';

/** CPU milliseconds of one fact extraction of a tool output made of `unit` repeated to `size`. */
function cpuOf(unit: string, size: number): number {
  return extractionCpu(unit.repeat(Math.ceil(size / unit.length)).slice(0, size));
}

describe('path extraction on hostile tool output', () => {
  // A text with many of one path separator and none of the other once cost a scan to its end per
  // separator (2 s for 2 MB of `echo "\"`); linear, 2 MB takes milliseconds.
  it('stays linear with only backslashes or only slashes (500k vs 2M characters)', () => {
    for (const unit of ['echo "\\"', 'tests/x.py::t ', 'C:\\a\\b ', '\\\\\\\\']) {
      const small = cpuOf(unit, 500_000);
      const large = cpuOf(unit, 2_000_000);
      expect(large, `${JSON.stringify(unit)}: ${small} ms at 500k, ${large} ms at 2M`).toBeLessThan(
        Math.max(500, small * 8),
      );
    }
  });

  // Tokens starting `a/` or `b/` (git's diff sides) each searched back to their line start: one
  // long line of them (a JSON result's file list serialised on one line) was quadratic, ~5 s for
  // 400k characters.
  it('stays linear on one long line of `a/…` and `b/…` paths (100k vs 400k characters)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('a/', 'b/'),
        fc.noBias(fc.stringMatching(/^[a-z]{1,6}\.(?:ts|py|rs)$/)),
        (side, name) => {
          const unit = `${side}${name} `;
          const small = cpuOf(unit, 100_000);
          const large = cpuOf(unit, 400_000);
          expect(large, `${unit}: ${small} ms at 100k, ${large} ms at 400k`).toBeLessThan(
            Math.max(500, small * 8),
          );
        },
      ),
      { numRuns: 3 },
    );
  });
});
