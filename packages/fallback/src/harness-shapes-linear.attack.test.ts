import { describe, expect, it } from 'vitest';
import { extractionCpu } from './test-utils/extraction-cpu.js';

/** CPU milliseconds of `repeats` fact extractions of a failed run's output of `unit` repeated. */
function cpuOf(unit: string, size: number, command: string, repeats: number): number {
  const output = `${unit.repeat(Math.ceil(size / unit.length)).slice(0, size)}\nexit status 1`;
  return extractionCpu(output, command, repeats);
}

describe('diff hunks, PowerShell 7 blocks and `cd` in hostile output', () => {
  // Hunks are read in one pass; a `Line |` block's message lines are read once each, whatever
  // their blanks; the entered directory is read from the command's head.
  it('stays linear (100k vs 400k characters, 4x input under 8x CPU)', () => {
    const units = [
      '@@ -1 +1 @@\n-Error: x\n+TypeError: y\n',
      `Line |\n   1 |  x\n     |  ~\n     | ${' '.repeat(990)}x\n`,
      `Line |\n${'   1 |  x\n'.repeat(50)}`,
      `     | ${' '.repeat(500)}\n`,
      '@@\n',
    ];
    for (const unit of units) {
      for (const command of ['make', `cd ${'a/'.repeat(2000)} && make`]) {
        const small = cpuOf(unit, 100_000, command, 5);
        const large = cpuOf(unit, 400_000, command, 5);
        expect(
          large,
          `${JSON.stringify(unit.slice(0, 30))}: ${small} ms, ${large} ms`,
        ).toBeLessThan(Math.max(400, small * 8));
      }
    }
  });
});
