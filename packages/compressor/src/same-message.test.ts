import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprintMessages } from './fingerprint-messages.js';
import { sameMessage } from './same-message.js';

describe('sameMessage', () => {
  it('ignores key order and undefined fields, and sees any other difference', () => {
    const a = { role: 'user', content: [{ type: 'text', text: 'hi', providerOptions: undefined }] };
    expect(sameMessage(a, { content: [{ text: 'hi', type: 'text' }], role: 'user' })).toBe(true);
    expect(sameMessage(a, { role: 'user', content: [{ type: 'text', text: 'ho' }] })).toBe(false);
    expect(sameMessage(a, { role: 'user', content: [] })).toBe(false);
    expect(sameMessage(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(sameMessage(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(sameMessage(new URL('https://a.test/x'), new URL('https://a.test/x'))).toBe(true);
  });

  it('treats error tool results as equal whatever their error text (UI redaction), nothing else', () => {
    const result = (output: unknown) => ({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'runTests', output }],
    });
    const crashed = result({ type: 'error-text', value: 'test runner crashed' });
    const redacted = result({ type: 'error-text', value: 'The tool failed.' });
    expect(sameMessage(crashed, redacted)).toBe(true);
    expect(fingerprintMessages([crashed])).toBe(fingerprintMessages([redacted]));
    expect(sameMessage(crashed, result({ type: 'error-json', value: { code: 1 } }))).toBe(true);
    const other = { ...redacted, content: [{ ...redacted.content[0], toolCallId: 'c2' }] };
    expect(sameMessage(crashed, other)).toBe(false);
    expect(fingerprintMessages([crashed])).not.toBe(fingerprintMessages([other]));
    // A successful result is content: a different value, or an error in its place, is an edit.
    const ok = result({ type: 'text', value: 'passed' });
    expect(sameMessage(ok, result({ type: 'text', value: 'failed' }))).toBe(false);
    expect(sameMessage(ok, crashed)).toBe(false);
    expect(fingerprintMessages([ok])).not.toBe(fingerprintMessages([crashed]));
  });

  it('agrees with fingerprintMessages (property)', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('type', 'text', 'value'), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    const message = fc.record({ role: fc.constantFrom('user', 'assistant'), content: value });
    fc.assert(
      fc.property(message, message, (a, b) => {
        expect(sameMessage(a, b)).toBe(fingerprintMessages([a]) === fingerprintMessages([b]));
        expect(sameMessage(a, structuredClone(a))).toBe(true);
      }),
    );
  });
});
