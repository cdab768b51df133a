import { createRequire } from 'node:module';
import { corpusSkipReason, loadTranscripts } from '@baton/test-corpus';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  chatFormat,
  createTokenCounter,
  InvalidInputError,
  type TiktokenEncoding,
} from './index.js';
import { messageTexts } from './test-utils/corpus-texts.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const raw: Record<string, ReturnType<typeof tiktoken.get_encoding>> = {};
const rawCount = (encoding: TiktokenEncoding, text: string) => {
  raw[encoding] ??= tiktoken.get_encoding(encoding);
  return raw[encoding].encode_ordinary(text).length;
};

const encodings: TiktokenEncoding[] = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];

describe('count', () => {
  it('equals raw tiktoken on tricky strings for every encoding', () => {
    const samples = [
      '',
      'Hello, world!',
      '<|endoftext|> is ordinary text here',
      "I'm sure they'LL say it's fine, don'T",
      '    indented\n\n\n   \t trailing   ',
      '\uFEFFbom and \u0085 nel and \u00A0 nbsp',
      '数字 12345678 と カタカナ 한국어 Ελληνικά русский',
      '😀👍🏽 emoji ZWJ 👨‍👩‍👧',
      'lone \uD800 surrogate',
      'camelCaseIdentifier snake_case_id SCREAMING_CASE',
      // o200k glues `[\r\n/]*` to punctuation: a line starting with '/' is not a piece boundary.
      'é;\n//x',
      'arrow →\n/path\n  next',
      'ü\n\u00A0\nafter nbsp line',
      '     1→defmodule X do\n│ ├─ “quoted” … ✓ done 😀abc\n\u200Bzero width\u0301 mark',
      '→😀x ─\n•中→a',
    ];
    for (const encoding of encodings) {
      const counter = createTokenCounter({ encoding });
      for (const text of samples)
        expect(counter.count(text), `${encoding} ${text}`).toBe(rawCount(encoding, text));
    }
  });

  it('memoised counts equal the raw encoder on arbitrary unicode (property)', () => {
    const o200k = createTokenCounter({ encoding: 'o200k_base' });
    const cl100k = createTokenCounter({ encoding: 'cl100k_base' });
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.string({
        unit: fc.constantFrom(
          ' ',
          '\n',
          '\r',
          '\t',
          'a',
          'A',
          "'",
          's',
          '1',
          '.',
          '/',
          '中',
          'ſ',
          '\u00A0',
        ),
        maxLength: 40,
      }),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(o200k.count(value)).toBe(rawCount('o200k_base', value));
        expect(cl100k.count(value)).toBe(rawCount('cl100k_base', value));
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects non-string text with a typed error', () => {
    const counter = createTokenCounter();
    expect(() => counter.count(42 as unknown as string)).toThrowError(InvalidInputError);
    try {
      counter.count(null as unknown as string);
    } catch (error) {
      expect(InvalidInputError.isInstance(error)).toBe(true);
      expect((error as InvalidInputError).path).toBe('text');
    }
  });
});

describe.skipIf(corpusSkipReason !== undefined)(
  `transcripts (${corpusSkipReason ?? 'corpus present'})`,
  () => {
    const transcripts = loadTranscripts();
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      it(`counts every transcript text exactly like @dqbd/tiktoken (${encoding})`, () => {
        const counter = createTokenCounter({ encoding });
        let texts = 0;
        for (const { name, messages } of transcripts) {
          let ours = 0;
          let theirs = 0;
          for (const message of messages) {
            for (const text of messageTexts(message)) {
              const expected = rawCount(encoding, text);
              const actual = counter.count(text);
              if (actual !== expected)
                expect(actual, `${name}: ${text.slice(0, 80)}`).toBe(expected);
              ours += actual;
              theirs += expected;
              texts++;
            }
          }
          expect(ours, name).toBe(theirs);
        }
        expect(texts).toBeGreaterThan(1000);
      });
    }

    it('counts whole transcripts as the sum of the chat-format constants and exact content', () => {
      const counter = createTokenCounter({ model: 'gpt-4o' });
      for (const { name, messages } of transcripts) {
        let expected = chatFormat.replyPriming;
        for (const message of messages) {
          const content = message.content;
          if (typeof content === 'string') {
            expected +=
              chatFormat.tokensPerMessage +
              rawCount('o200k_base', message.role) +
              rawCount('o200k_base', content);
            continue;
          }
          const results = (content as Array<{ type: string }>).filter(
            (part) => part.type === 'tool-result',
          ).length;
          const headers = message.role === 'tool' && results > 1 ? results : 1;
          expected +=
            headers * (chatFormat.tokensPerMessage + rawCount('o200k_base', message.role));
          for (const part of content as Array<Record<string, unknown>>) {
            if (part.type === 'text' || part.type === 'reasoning')
              expected += rawCount('o200k_base', part.text as string);
            if (part.type === 'tool-call') {
              expected +=
                chatFormat.tokensPerToolCall +
                rawCount('o200k_base', part.toolName as string) +
                rawCount('o200k_base', JSON.stringify(part.input));
            }
            if (part.type === 'tool-result')
              expected += rawCount('o200k_base', (part.output as { value: string }).value);
          }
        }
        expect(counter.countMessages(messages), name).toBe(expected);
      }
    });
  },
);

describe('fallback', () => {
  it('uses the heuristic with exact:false and warns once when the encoder cannot load', () => {
    const warn = vi.fn();
    const failing = () => {
      throw new Error('WASM unavailable');
    };
    const counter = createTokenCounter({ encoding: 'o200k_base', loadEncoder: failing, warn });
    expect(counter.exact).toBe(false);
    expect(counter.encoding).toBe('heuristic');
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    const estimate = counter.count(text);
    const exact = rawCount('o200k_base', text);
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.25);
    expect(counter.countMessages([{ role: 'user', content: text }])).toBeGreaterThan(estimate);
    const again = createTokenCounter({ encoding: 'o200k_base', loadEncoder: failing, warn });
    again.count('more text');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('WASM unavailable');
  });

  it('loads the encoder lazily, once per loader and encoding, and never for the heuristic', () => {
    const loadEncoder = vi.fn((encoding: TiktokenEncoding) => tiktoken.get_encoding(encoding));
    const first = createTokenCounter({ encoding: 'cl100k_base', loadEncoder });
    const second = createTokenCounter({ encoding: 'cl100k_base', loadEncoder });
    expect(loadEncoder).not.toHaveBeenCalled();
    expect(first.count('hello world')).toBe(2);
    expect(second.exact).toBe(true);
    expect(loadEncoder).toHaveBeenCalledTimes(1);
    const heuristic = createTokenCounter({ encoding: 'heuristic', loadEncoder });
    expect(heuristic.count('hello world')).toBeGreaterThan(0);
    expect(heuristic.exact).toBe(false);
    expect(loadEncoder).toHaveBeenCalledTimes(1);
  });

  it('counts models without a public tokenizer with the heuristic', () => {
    const counter = createTokenCounter({ model: 'anthropic/claude-sonnet-4-5' });
    expect(counter.exact).toBe(false);
    expect(counter.encoding).toBe('heuristic');
    expect(counter.count('hello world')).toBeGreaterThan(0);
  });
});
