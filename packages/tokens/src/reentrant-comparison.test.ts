import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './index.js';

// A counter that has seen earlier calls must count what a fresh counter counts. Found by an outside
// attack: the memo's comparison accepted a null-prototype copy of a message made on a polluted
// `Object.prototype` (whose inherited fields the count reads), and a getter read by a comparison
// that called a counter again rewrote state the comparison was still using.
const counter = () => createTokenCounter({ encoding: 'o200k_base' });
type Messages = Parameters<ReturnType<typeof counter>['countMessages']>[0];
const counted = (count: () => number): string => {
  try {
    return String(count());
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
};

describe('the re-count memo against prototypes and re-entry', () => {
  it('does not take a null-prototype copy for a message made on a polluted prototype', () => {
    for (const [field, value] of [
      ['name', `injected ${Math.random().toString(36).slice(2)} name`],
      ['tool_calls', null],
    ] as const) {
      Object.defineProperty(Object.prototype, field, { value, configurable: true, writable: true });
      try {
        const original = { role: 'assistant', content: null };
        const copy = Object.assign(Object.create(null), original);
        const memo = counter();
        counted(() => memo.countMessages([original] as unknown as Messages));
        expect(counted(() => memo.countMessages([copy]))).toBe(
          counted(() => counter().countMessages([copy])),
        );
      } finally {
        delete (Object.prototype as Record<string, unknown>)[field];
      }
    }
  });

  it('does not reuse a count replaced by a call made from a getter during the comparison', () => {
    const words = Array.from({ length: 40 }, () => Math.random().toString(36).slice(2)).join(' ');
    let current = counter();
    const reentering = () => ({
      role: 'user',
      get content() {
        current.countMessages([{ role: 'user', content: words }]);
        return 'hi';
      },
    });
    const memo = counter();
    memo.countMessages([{ role: 'user', content: 'hi' }]);
    current = memo;
    const again = memo.countMessages([reentering()] as unknown as Messages);
    current = counter();
    expect(again).toBe(current.countMessages([reentering()] as unknown as Messages));
  });

  it('does not compare keys another comparison overwrote (a getter comparing elsewhere)', () => {
    const probe = counter();
    // Two values whose order in a JSON object changes its count, found at test time.
    const values = [
      'a',
      ' b',
      '1',
      '}',
      'x y',
      '::',
      '!!',
      '\n',
      '""',
      'the',
      '',
      ',',
      ' ',
      '漢',
      ':',
    ];
    let pair: [string, string] | undefined;
    for (const p of values)
      for (const q of values)
        if (
          pair === undefined &&
          probe.count(JSON.stringify({ x: 1, p, q })) !==
            probe.count(JSON.stringify({ x: 1, q, p }))
        )
          pair = [p, q];
    expect(pair).toBeDefined();
    const [p, q] = pair!;
    const message = (input: object) => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: input } }],
    });
    const side = counter();
    const reordered = () => {
      const input = {};
      Object.defineProperty(input, 'x', {
        enumerable: true,
        get() {
          side.countMessages([message({ x: 1, p, q })] as unknown as Messages);
          side.countMessages([message({ x: 1, p, q })] as unknown as Messages);
          return 1;
        },
      });
      Object.assign(input, { q, p });
      return message(input) as unknown as Messages[number];
    };
    const memo = counter();
    memo.countMessages([message({ x: 1, p, q })] as unknown as Messages);
    expect(memo.countMessages([reordered()])).toBe(counter().countMessages([reordered()]));
  });
});
