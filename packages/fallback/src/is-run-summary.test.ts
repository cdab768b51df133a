import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRunSummary } from './is-run-summary.js';

const count = fc.integer({ min: 0, max: 500 });
const name = fc.noBias(fc.stringMatching(/^[a-z][a-z0-9_]{2,12}$/));
const summaries = [
  (a: number, b: number) => `${a} failed, ${b} passed in 0.${b}s`,
  (a: number, b: number) => `Tests:       ${a} failed, ${b} passed, ${a + b} total`,
  (a: number) => ` Test Files  ${a} failed (${a})`,
  (a: number, b: number) => `✖ ${a} problems (${a} errors, ${b} warnings)`,
  (a: number) => `BUILD FAILED in ${a}s`,
  (a: number) => `Tests run: ${a}, Failures: ${a}, Errors: 0, Skipped: 0`,
];
const failures = [
  (n: string, a: number) => `FAILED tests/test_${n}.py::test_${n} - assert ${a} == 1`,
  (n: string) => `TypeError: Cannot read properties of undefined (reading '${n}')`,
  (n: string, a: number) => `error[E0425]: cannot find value \`${n}\` in ${a} scopes`,
  (n: string, a: number) => `--- FAIL: Test${n} (0.0${a % 10}s)`,
  (n: string, a: number) => `● ${n} › returns ${a} failed items`,
  (n: string, a: number) => `${a + 1}:${a % 40}  error  '${n}' is assigned a value but never used`,
];

describe('isRunSummary', () => {
  it('is true for counts and build verdicts, false for lines naming what failed even with counts', () => {
    fc.assert(
      fc.property(
        count,
        count,
        name,
        fc.nat(summaries.length - 1),
        fc.nat(failures.length - 1),
        (a, b, n, s, f) => {
          expect(isRunSummary(summaries[s]!(a, b))).toBe(true);
          expect(isRunSummary(failures[f]!(n, a))).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('control: an exit status is not a summary (harnesses report failures by it alone)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 255 }), (code) => {
        for (const line of [
          `Exit code ${code}`,
          `exit status ${code}`,
          `[Process exited with code ${code}]`,
        ]) {
          expect(isRunSummary(line)).toBe(false);
        }
      }),
      { numRuns: 50 },
    );
  });
});
