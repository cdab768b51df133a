import { cpuMilliseconds } from '@baton/test-corpus';
import { describe, expect, it } from 'vitest';
import { HANDOFF_SECTIONS, parseHandoff, renderHandoff } from './index.js';

describe('parseHandoff on a heading line with a long run of spaces', () => {
  it('costs linear time and still reads the sections around it', () => {
    const [first, second] = HANDOFF_SECTIONS;
    const text = (spaces: number) =>
      renderHandoff({ [first!.key]: `a\n## x${' '.repeat(spaces)}y\nb`, [second!.key]: 'kept' });
    const time = (spaces: number) => cpuMilliseconds(() => parseHandoff(text(spaces)));
    time(1_000);
    // Before: 16,000 spaces took 0.3 s and 64,000 sixteen times that.
    const small = time(64_000);
    const large = time(256_000);
    expect(large, `64k ${small} ms, 256k ${large} ms`).toBeLessThan(Math.max(8 * small, 200));
    expect(parseHandoff(text(64_000))?.[second!.key]).toBe('kept');
  });
});
