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
            // Tool-call ids are counted as text (providers send them).
            if (typeof part.toolCallId === 'string')
              expected += rawCount('o200k_base', part.toolCallId);
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

/** A loader whose encoders count how many texts reach BPE. */
function spyingLoader() {
  const calls = { encoded: 0 };
  const loadEncoder = (encoding: TiktokenEncoding) => {
    const encoder = tiktoken.get_encoding(encoding);
    return {
      encode_ordinary(text: string) {
        calls.encoded += 1;
        return encoder.encode_ordinary(text);
      },
    };
  };
  return { calls, loadEncoder };
}

describe('re-counting copies', () => {
  const conversation = Array.from({ length: 40 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: [
      { type: 'text', text: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(20 + i)}` },
      {
        type: 'tool-result',
        toolCallId: `call_${i}`,
        toolName: 'read',
        output: { type: 'json', value: { i, lines: ['a', 'b'] } },
      },
    ],
  }));

  it('recognises structurally equal copies without serialising whole messages', () => {
    const { calls, loadEncoder } = spyingLoader();
    const counter = createTokenCounter({ encoding: 'o200k_base', loadEncoder });
    const total = counter.countMessages(conversation);
    const copies = structuredClone(conversation);
    const stringify = vi.spyOn(JSON, 'stringify');
    const encodedBefore = calls.encoded;
    try {
      expect(counter.countMessages(copies)).toBe(total);
      // The old content key serialised every message (one JSON.stringify each).
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
    expect(calls.encoded).toBe(encodedBefore);
  });

  it('never confuses a copy edited in place of the same length', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    counter.countMessages(conversation);
    const edited = structuredClone(conversation);
    const part = edited[7]!.content[0] as { text: string };
    const middle = Math.floor(part.text.length / 2) + 1;
    part.text = `${part.text.slice(0, middle)}Q${part.text.slice(middle + 1)}`;
    const fresh = createTokenCounter({ encoding: 'o200k_base', messageCacheSize: 0 });
    expect(counter.countMessages(edited)).toBe(fresh.countMessages(edited));
    const keyOrder = structuredClone(conversation);
    const output = keyOrder[3]!.content[1] as { output: { value: Record<string, unknown> } };
    output.output.value = { lines: ['a', 'b'], i: 3 };
    expect(counter.countMessages(keyOrder)).toBe(fresh.countMessages(keyOrder));
  });

  it('finds copies at other positions (a message dropped from the front) without re-encoding', () => {
    const { calls, loadEncoder } = spyingLoader();
    const counter = createTokenCounter({ encoding: 'o200k_base', loadEncoder });
    const total = counter.countMessages(conversation);
    const first = counter.countMessage(conversation[0]!);
    const encodedBefore = calls.encoded;
    expect(counter.countMessages(structuredClone(conversation.slice(1)))).toBe(total - first);
    expect(calls.encoded).toBe(encodedBefore);
  });

  it('re-counts an array whose elements were replaced in place', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    const fresh = createTokenCounter({ encoding: 'o200k_base', messageCacheSize: 0 });
    const messages = structuredClone(conversation);
    counter.countMessages(messages);
    messages[5] = { role: 'user', content: [{ type: 'text', text: 'replaced' }] } as never;
    expect(counter.countMessages(messages)).toBe(fresh.countMessages(messages));
  });

  it('property: memoised message counts equal a memo-free counter on arbitrary copies', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    const fresh = createTokenCounter({ encoding: 'o200k_base', messageCacheSize: 0 });
    const message = fc.record({
      role: fc.constantFrom('user', 'assistant', 'system'),
      content: fc.array(
        fc.record({
          type: fc.constant('text'),
          text: fc.string({ unit: 'grapheme', maxLength: 200 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), (messages) => {
        expect(counter.countMessages(structuredClone(messages))).toBe(
          fresh.countMessages(messages),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('long pieces', () => {
  it('memoises pieces longer than 128 characters (unpunctuated CJK runs)', () => {
    const { calls, loadEncoder } = spyingLoader();
    const counter = createTokenCounter({ encoding: 'o200k_base', loadEncoder });
    const cjk = '東京都は日本の首都であり世界有数の大都市です'.repeat(20);
    expect(cjk.length).toBeGreaterThan(128);
    const first = counter.count(cjk);
    expect(first).toBe(rawCount('o200k_base', cjk));
    const before = calls.encoded;
    expect(counter.count(`${cjk}`)).toBe(first);
    expect(calls.encoded).toBe(before);
  });
});

describe('option validation', () => {
  const pathOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError);
      return (error as InvalidInputError).path;
    }
    return 'no error';
  };

  it('throws InvalidInputError naming the option, never a TypeError', () => {
    expect(pathOf(() => createTokenCounter({ loadEncoder: 5 } as never))).toBe(
      'options.loadEncoder',
    );
    expect(pathOf(() => createTokenCounter({ warn: 5 } as never))).toBe('options.warn');
    expect(pathOf(() => createTokenCounter({ model: 5 } as never))).toBe('options.model');
    expect(pathOf(() => createTokenCounter({ encoding: 'x' } as never))).toBe('options.encoding');
    expect(pathOf(() => createTokenCounter({ messageCacheSize: -1 }))).toBe(
      'options.messageCacheSize',
    );
    expect(pathOf(() => createTokenCounter(null as never))).toBe('options');
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    expect(pathOf(() => counter.countMessages([], 5 as never))).toBe('options');
    expect(pathOf(() => counter.countMessages([], null as never))).toBe('options');
  });

  it('with a failing loader and a bad warn, still throws the typed error up front', () => {
    const failing = () => {
      throw new Error('no WASM');
    };
    expect(pathOf(() => createTokenCounter({ loadEncoder: failing, warn: 'x' } as never))).toBe(
      'options.warn',
    );
  });
});
