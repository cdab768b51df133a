import { describe, expect, it } from 'vitest';
import { extractionCpu } from './test-utils/extraction-cpu.js';

/**
 * CPU milliseconds of `repeats` fact extractions of a failed run's output made of `unit` repeated
 * to `size`: a failed run's output is also scanned for diagnostics that name no severity.
 */
function cpuOf(unit: string, size: number, repeats: number): number {
  const output = `${unit.repeat(Math.ceil(size / unit.length)).slice(0, size)}\nexit status 1`;
  return extractionCpu(output, 'go build ./...', repeats);
}

describe('diagnostics without a severity word in hostile failed output', () => {
  // Each line start is tried once with a bounded file token: long colon-free lines, many short
  // positioned lines, and tokens just over the bound stay linear.
  it('stays linear (100k vs 400k characters, 4x input under 8x CPU)', () => {
    const units = [
      'a'.repeat(997),
      './x.go:1:2: undefined: y\n',
      `${'b/'.repeat(250)}:1:2: x\n`,
      'c.go:1:2:\n',
      '\n',
    ];
    for (const unit of units) {
      // Enough repeats that a 4 ms clock tick cannot decide the ratio.
      const small = cpuOf(unit, 100_000, 5);
      const large = cpuOf(unit, 400_000, 5);
      expect(large, `${JSON.stringify(unit.slice(0, 30))}: ${small} ms, ${large} ms`).toBeLessThan(
        Math.max(400, small * 8),
      );
    }
  });
});
