import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultTokenCounter, isRecord, toolOutputText } from './index.js';

describe('toolOutputText', () => {
  it('reads every AI SDK output type', () => {
    const value = { path: 'src/a.ts', lines: [1, 2] };
    expect(toolOutputText({ type: 'text', value: 'done' })).toBe('done');
    expect(toolOutputText({ type: 'error-text', value: 'ENOENT' })).toBe('ENOENT');
    expect(toolOutputText({ type: 'json', value })).toBe(JSON.stringify(value));
    expect(toolOutputText({ type: 'error-json', value }, { jsonSpace: 1 })).toBe(
      JSON.stringify(value, null, 1),
    );
    expect(toolOutputText({ type: 'execution-denied', reason: 'not allowed' })).toBe('not allowed');
    expect(toolOutputText({ type: 'execution-denied' })).toBe('');
    expect(
      toolOutputText({
        type: 'content',
        value: [
          { type: 'text', text: 'one' },
          { type: 'image-data', data: 'AAAA', mediaType: 'image/png' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toBe('one\n[image-data]\ntwo');
  });

  it('never throws on untrusted values, and keeps every string of a text output', () => {
    const cyclic: Record<string, unknown> = { type: 'json' };
    cyclic.value = cyclic;
    expect(toolOutputText(cyclic)).toBe('');
    expect(toolOutputText({ type: 'json', value: 10n })).toBe('');
    fc.assert(
      fc.property(fc.anything(), fc.option(fc.nat(4), { nil: undefined }), (output, jsonSpace) => {
        expect(typeof toolOutputText(output, { jsonSpace })).toBe('string');
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(toolOutputText({ type: 'text', value: text })).toBe(text);
      }),
    );
  });
});

describe('isRecord', () => {
  it('accepts objects with fields only', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    for (const value of [null, undefined, [], 'x', 1, true]) expect(isRecord(value)).toBe(false);
  });
});

describe('defaultTokenCounter', () => {
  it('is one exact o200k counter shared by every caller', () => {
    const counter = defaultTokenCounter();
    expect(defaultTokenCounter()).toBe(counter);
    expect(counter.exact).toBe(true);
    expect(counter.encoding).toBe('o200k_base');
    expect(counter.count('hello world')).toBe(2);
  });
});
