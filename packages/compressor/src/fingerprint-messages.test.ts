import { lowerShareBound } from '@baton/test-corpus/share-bounds';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentFingerprint, fingerprintMessages } from './fingerprint-messages.js';

describe('fingerprintMessages', () => {
  const history = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
  ];

  it('ignores system messages, key order and undefined fields', () => {
    const reordered = [
      { role: 'system', content: 'Today is another day.' },
      { content: [{ text: 'hello', type: 'text' }], role: 'user' },
      { role: 'assistant', content: [{ type: 'text', text: 'hi', providerOptions: undefined }] },
    ];
    expect(fingerprintMessages(reordered)).toBe(fingerprintMessages(history));
  });

  it('hashes only the first `count` messages', () => {
    const longer = [...history, { role: 'user', content: [{ type: 'text', text: 'more' }] }];
    expect(fingerprintMessages(longer, 3)).toBe(fingerprintMessages(history));
    expect(fingerprintMessages(longer)).not.toBe(fingerprintMessages(history));
  });

  it('tells different histories apart (property)', () => {
    const message = fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.string() });
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 5 }),
        fc.array(message, { minLength: 1, maxLength: 5 }),
        (a, b) => {
          fc.pre(JSON.stringify(a) !== JSON.stringify(b));
          expect(fingerprintMessages(a)).not.toBe(fingerprintMessages(b));
        },
      ),
    );
  });

  it('tells long texts apart by length, ends and spread-out samples', () => {
    const long = 'x'.repeat(5_000);
    const message = (text: string) => [{ role: 'tool', content: [{ type: 'text', text }] }];
    const base = fingerprintMessages(message(long));
    expect(fingerprintMessages(message(`${long}`))).toBe(base);
    expect(fingerprintMessages(message(`${long}y`))).not.toBe(base);
    expect(fingerprintMessages(message(`y${long.slice(1)}`))).not.toBe(base);
    expect(fingerprintMessages(message(`${long.slice(0, -1)}y`))).not.toBe(base);
  });
});

describe('contentFingerprint', () => {
  const tool = (value: string) => ({
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c1', toolName: 'bash', output: { type: 'text', value } },
    ],
  });

  it('sees a one-character edit anywhere in a long message (property)', () => {
    let unseenBySampling = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.noBias(fc.string({ minLength: 600, maxLength: 5_000 })),
        fc.noBias(fc.nat()),
        (text, choice) => {
          const at = choice % text.length;
          const edited = text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1);
          const before = [{ role: 'user', content: 'go' }, tool(text)];
          const after = [{ role: 'user', content: 'go' }, tool(edited)];
          runs++;
          // Premise: most such edits are invisible to the sampled fingerprint.
          if (fingerprintMessages(before) === fingerprintMessages(after)) unseenBySampling++;
          expect(contentFingerprint(after)).not.toBe(contentFingerprint(before));
        },
      ),
      { numRuns: 300 },
    );
    // Measured 0.264 over 20 seeds of 300 (sd 0.03; 0.28 when first written), at which a floor of
    // 0.17 broke 1 run in 13,000: the bound is the binomial's tail at the measured rate.
    expect(unseenBySampling / runs).toBeGreaterThanOrEqual(lowerShareBound(0.264, runs));
  });

  it('ignores what the sampled fingerprint ignores: system messages, key order (control)', () => {
    const long = 'commit '.repeat(500);
    const a = [
      { role: 'system', content: 'Today.' },
      { role: 'user', content: long },
    ];
    const b = [
      { role: 'system', content: 'Tomorrow.' },
      { content: long, role: 'user' },
    ];
    expect(contentFingerprint(a)).toBe(contentFingerprint(b));
    expect(contentFingerprint(a, 1)).toBe(contentFingerprint([]));
  });
});
