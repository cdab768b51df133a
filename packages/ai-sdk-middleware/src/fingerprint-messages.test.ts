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
});
