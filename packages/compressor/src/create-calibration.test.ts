import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCalibration } from './create-calibration.js';

describe('createCalibration', () => {
  it('starts at 1 and converges on the observed ratio per model', () => {
    const calibration = createCalibration();
    expect(calibration.ratio('a')).toBe(1);
    for (let call = 0; call < 12; call++) calibration.observe('a', 10_000, 13_000);
    expect(calibration.ratio('a')).toBeCloseTo(1.3, 3);
    expect(calibration.ratio('b')).toBe(1);
  });

  it('ignores tiny prompts and implausible reports', () => {
    const calibration = createCalibration();
    calibration.observe('a', 100, 300);
    calibration.observe('a', 10_000, 0);
    calibration.observe('a', 10_000, 100_000);
    calibration.observe('a', 10_000, Number.NaN);
    expect(calibration.ratio('a')).toBe(1);
  });

  it('stays between the smallest and largest sample it accepted (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.5, max: 2.5, noNaN: true }), { minLength: 1, maxLength: 30 }),
        (samples) => {
          const calibration = createCalibration();
          for (const sample of samples)
            calibration.observe('m', 10_000, Math.round(10_000 * sample));
          const ratio = calibration.ratio('m');
          expect(ratio).toBeGreaterThanOrEqual(Math.min(...samples) - 1e-3);
          expect(ratio).toBeLessThanOrEqual(Math.max(...samples) + 1e-3);
        },
      ),
    );
  });
});
