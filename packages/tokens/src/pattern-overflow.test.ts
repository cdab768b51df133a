import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './index.js';

/**
 * A run of a few million characters without a break (a tool printing a binary file, a minified
 * bundle in one script) made V8 stop the split pattern with a bare `RangeError: Maximum call stack
 * size exceeded` (its backtrack stack): counting such a text threw on every call. It is now counted
 * in parts, a documented bound away from the encoder's count.
 */
const run = fc.record({
  kind: fc.constantFrom(
    'lone-high-surrogate',
    'lone-low-surrogate',
    'hangul',
    'han',
    'cyrillic-lower',
    'latin-lower',
    'punctuation',
  ),
  seed: fc.integer(),
});

function character(kind: string, next: () => number): string {
  switch (kind) {
    case 'lone-high-surrogate':
      return '\ud800';
    case 'lone-low-surrogate':
      return String.fromCharCode(0xdc00 + (next() % 0x400));
    case 'hangul':
      return String.fromCharCode(0xac00 + (next() % 11_172));
    case 'han':
      return String.fromCharCode(0x4e00 + (next() % 20_000));
    case 'cyrillic-lower':
      return String.fromCharCode(0x430 + (next() % 32));
    case 'latin-lower':
      return String.fromCharCode(97 + (next() % 26));
    default:
      return '!#$%&*+-;<=>?@^|~'[next() % 17]!;
  }
}

function text(kind: string, seed: number, length: number): string {
  let state = seed | 0;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return state >>> 0;
  };
  const units: string[] = [];
  let size = 0;
  while (size < length) {
    const unit = character(kind, next);
    units.push(unit);
    size += unit.length;
  }
  return units.join('');
}

describe('runs too long for the split pattern', () => {
  it('count without throwing, within 0.01 % of the text counted in 64k slices', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    const kinds = new Set<string>();
    fc.assert(
      fc.property(run, ({ kind, seed }) => {
        kinds.add(kind);
        // 4M characters: every kind here threw on the previous build.
        const whole = text(kind, seed, 4_000_000);
        const tokens = counter.count(whole);
        let slices = 0;
        for (let start = 0; start < whole.length; start += 1 << 16)
          slices += counter.count(whole.slice(start, start + (1 << 16)));
        // Slicing can only cut tokens apart at 61 edges: a few tokens each, not a share.
        expect(Number.isInteger(tokens)).toBe(true);
        expect(Math.abs(tokens - slices)).toBeLessThanOrEqual(61 * 4 + slices * 0.0001);
      }),
      { numRuns: 3 },
    );
    expect(kinds.size).toBeGreaterThan(0);
  }, 300_000);

  it('a run of one character is counted as the encoder counts it (linear in the run)', () => {
    // Control: periodic runs cost exactly 4x at 4x the length below the overflow, so the same must
    // hold within the documented bound above it.
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    for (const unit of ['\udc00', '\uac00', 'a', '\u0436']) {
      const quarter = counter.count(unit.repeat(1_000_000));
      const whole = counter.count(unit.repeat(4_000_000));
      expect(Math.abs(whole - 4 * quarter), unit).toBeLessThanOrEqual(4 * 16);
    }
  }, 300_000);
});
