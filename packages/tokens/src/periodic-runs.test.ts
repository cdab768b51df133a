import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchorStride, periodicRuns } from './periodic-runs.js';

// The runs the estimator prices by copies of a unit: a unit of 2-16 code units of any kind, three
// copies or more without whitespace, the last possibly cut, inside any text. Found from every
// anchorStride-th unit and widened both ways, so a run spanning an anchor is found wherever it sits.
const letters = [
  ...'abcdefghijklmnopqrstuvwxyzабвгдежзийклмнопрстуфхцчшщ日本語中文字-=*#|_!?.,;:()[]{}0123456789',
];
const character = fc
  .noBias(fc.integer({ min: 0, max: letters.length - 1 }))
  .map((at) => letters[at]!);
/** A unit that is not itself a repetition of a shorter one, not one character, not only digits. */
const unit = fc
  .array(character, { minLength: 2, maxLength: 16 })
  .map((parts) => parts.join(''))
  .filter((u) => !/^(.+)\1+$/u.test(u) && !/^\d+$/u.test(u));
const filler = fc
  .array(fc.constantFrom(' ', 'x', 'y', '\n', '1', 'é'), { maxLength: 20 })
  .map((parts) => parts.join(''));

describe('periodicRuns', () => {
  it('finds a unit repeated three times or more, wherever it sits, with its period (long enough to span an anchor)', () => {
    fc.assert(
      fc.property(
        filler,
        unit,
        fc.noBias(fc.integer({ min: 3, max: 40 })),
        fc.noBias(fc.integer({ min: 0, max: 15 })),
        filler,
        (before, u, copies, cutAt, after) => {
          // Runs shorter than a stride past their period may fall between the anchors.
          const atLeast = Math.ceil((anchorStride + u.length) / u.length);
          const run = u.repeat(Math.max(copies, atLeast)) + u.slice(0, cutAt % u.length);
          const text = `${before} ${run} ${after}`;
          const runs = periodicRuns(text);
          // Premise: the run is there; the found one covers it with a period dividing the unit's.
          expect(text.includes(u.repeat(3))).toBe(true);
          expect(runs).not.toBeNull();
          const at = before.length + 1;
          const covering = [];
          for (let r = 0; r < runs!.length; r += 3)
            if (runs![r]! <= at + u.length && runs![r + 1]! >= at + run.length - u.length)
              covering.push(runs![r + 2]!);
          expect(covering.length).toBeGreaterThan(0);
          expect(u.length % covering[0]!).toBe(0);
        },
      ),
    );
  });

  it('control: two copies, a unit holding a space, one character or digits only are no runs', () => {
    fc.assert(
      fc.property(unit, fc.noBias(fc.integer({ min: 3, max: 40 })), (u, copies) => {
        expect(periodicRuns(` ${u}${u} `)).toBeNull();
        expect(periodicRuns(`${u} `.repeat(copies))).toBeNull();
        expect(periodicRuns(u[0]!.repeat(copies * 2))).toBeNull();
        expect(periodicRuns('42'.repeat(copies))).toBeNull();
      }),
    );
  });

  it('stays linear on 10 MB of hostile input (ratio of CPU time, generous bound)', () => {
    // Near-misses at every period (copies that break one unit before three), long runs of one
    // character and of digits (looked at from each anchor, they made the first scan quadratic), runs.
    const hostile = (length: number) => {
      let text = '';
      for (let p = 2; text.length < length; p = p === 16 ? 2 : p + 1) {
        const u = 'abcdefghijklmnop'.slice(0, p);
        text += `${u}${u}${u.slice(0, p - 1)}z${'='.repeat(p * 500)}${u.repeat(p)}${'7'.repeat(p * 50)}`;
      }
      return text.slice(0, length);
    };
    // The fastest of three, on this thread's clock: a single process-wide reading counted other
    // work on a loaded machine (CI read 8.8 once).
    const cpu = (text: string) => {
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 3; round++) {
        const start = process.threadCpuUsage();
        periodicRuns(text);
        const used = process.threadCpuUsage(start);
        best = Math.min(best, used.user + used.system);
      }
      return best;
    };
    const small = hostile(2_500_000);
    const large = hostile(10_000_000);
    const ratio = cpu(large) / Math.max(1, cpu(small));
    expect(ratio).toBeLessThan(8);
  });
});
