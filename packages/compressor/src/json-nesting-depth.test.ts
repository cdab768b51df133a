import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonNestingDepth, valueNestingDepth } from './index.js';

// Reference: the depth of the parsed value (only used on values shallow enough to recurse).
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (typeof value === 'object' && value !== null) {
    return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  }
  return 0;
}

// Strings full of what could fool a scanner: brackets, quotes, backslashes, escapes, astral text.
const tricky = ['[', ']', '{', '}', '"', '\\', '\\"', '\\\\', '\n', 'é', '😀', 'a', ' ', '\u0000'];
function randomString(): string {
  return Array.from({ length: randomInt(0, 8) }, () => tricky[randomInt(tricky.length)]).join('');
}

function randomValue(depth: number): unknown {
  const kind = depth <= 0 ? randomInt(3) : randomInt(6);
  if (kind === 0) return randomString();
  if (kind === 1) return randomInt(1000) - 500;
  if (kind === 2) return [null, true, false][randomInt(3)];
  if (kind === 3 || kind === 4) {
    return Array.from({ length: randomInt(0, 4) }, () => randomValue(depth - 1));
  }
  return Object.fromEntries(
    Array.from({ length: randomInt(0, 4) }, () => [randomString(), randomValue(depth - 1)]),
  );
}

// Strings full of the characters the scan must not read as structure.
const trickyString = fc.stringMatching(/^[[\]{}"\\a\n]{0,12}$/);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    trickyString,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(trickyString, tie('node'), { maxKeys: 4 }),
  ),
})).node;

describe('jsonNestingDepth', () => {
  it('matches the depth of the parsed value on 2,000 generated documents', () => {
    for (let round = 0; round < 2_000; round++) {
      const value = randomValue(randomInt(0, 12));
      const text = JSON.stringify(value, null, randomInt(2) === 0 ? undefined : 1);
      expect(jsonNestingDepth(text), text).toBe(depthOf(value));
    }
  });

  it('stops just past the limit, and measures a million levels without recursion', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(jsonNestingDepth(deep, 64)).toBe(65);
    expect(jsonNestingDepth(deep)).toBe(1_000_000);
    expect(jsonNestingDepth(`{"a":${'['.repeat(64)}${']'.repeat(64)}}`, 65)).toBe(65);
  });

  it('reads JSONL as its deepest line, and a line cut inside a string does not hide the next', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 5 }), (lines) => {
        const text = lines.map((line) => JSON.stringify(line)).join('\n');
        expect(jsonNestingDepth(text)).toBe(Math.max(...lines.map(depthOf)));
        const cut = `{"text": "open and never closed \\\n${text}`;
        expect(jsonNestingDepth(cut)).toBeGreaterThanOrEqual(Math.max(...lines.map(depthOf)));
      }),
      { numRuns: 500 },
    );
  });

  it('does not count brackets inside strings', () => {
    expect(jsonNestingDepth(JSON.stringify({ text: '['.repeat(10_000) }), 64)).toBe(1);
    expect(jsonNestingDepth(JSON.stringify(['\\"[[[', '{{{\\']), 64)).toBe(1);
  });
});

describe('valueNestingDepth', () => {
  it('equals the depth of the value its JSON text has (property)', () => {
    fc.assert(
      fc.property(value, (parsed) => {
        expect(valueNestingDepth(parsed)).toBe(jsonNestingDepth(JSON.stringify(parsed)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('walks a million levels without recursion, and stops just past the limit', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(valueNestingDepth(deep)).toBe(1_000_000);
    expect(valueNestingDepth(deep, 64)).toBe(65);
    expect(valueNestingDepth('text')).toBe(0);
  });
});
