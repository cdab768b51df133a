import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprintMessages } from './fingerprint-messages.js';

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
