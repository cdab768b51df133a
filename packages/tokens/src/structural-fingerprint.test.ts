import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './index.js';
import { structuralFingerprint, structurallyEqual } from './structural-fingerprint.js';

/** An object of `levels` nested levels whose two keys share one child: 2^levels paths, levels + 1 objects. */
function sharedTree(levels: number): Record<string, unknown> {
  let node: Record<string, unknown> = { leaf: 'x' };
  for (let i = 0; i < levels; i++) node = { a: node, b: node };
  return node;
}

describe('structuralFingerprint and structurallyEqual', () => {
  it('stay bounded on objects that share children (work linear in the message, not its paths)', () => {
    // Keys the count never reads (message metadata, a text part's provider options) may hold a
    // graph with shared children: counting such a message is cheap, so walking every path of it
    // (2^24 here) to fingerprint or compare it must not be what a count costs.
    const levels = 24;
    const messages = [
      { role: 'user', content: 'hello', metadata: sharedTree(levels) },
      {
        role: 'user',
        content: [{ type: 'text', text: 'hi there', providerOptions: sharedTree(levels) }],
      },
    ];
    const started = performance.now();
    const counter = createTokenCounter();
    const first = counter.countMessages(messages);
    // A structured clone keeps the sharing: compared at the same index, then at shifted ones.
    expect(counter.countMessages(structuredClone(messages))).toBe(first);
    const shifted = [{ role: 'system', content: 'be brief' }, ...structuredClone(messages)];
    expect(counter.countMessages(shifted)).toBe(createTokenCounter().countMessages(shifted));
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('still equate and fingerprint ordinary copies', () => {
    const value = { a: [1, 'two', { three: null }], b: new Uint8Array([1, 2, 3]) };
    const copy = structuredClone(value);
    expect(structurallyEqual(value, copy)).toBe(true);
    expect(structuralFingerprint(value)?.hash).toBe(structuralFingerprint(copy)?.hash);
    expect(structurallyEqual(value, { ...copy, a: [1, 'two', { three: 0 }] })).toBe(false);
  });
});
