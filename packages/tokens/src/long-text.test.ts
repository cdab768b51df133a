import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BatonError,
  createTokenCounter,
  type Encoder,
  type TiktokenEncoding,
  TokenizerError,
} from './index.js';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const raw: Partial<Record<TiktokenEncoding, ReturnType<typeof tiktoken.get_encoding>>> = {};
const rawCount = (encoding: TiktokenEncoding, text: string): number => {
  raw[encoding] ??= tiktoken.get_encoding(encoding);
  return raw[encoding].encode_ordinary(text).length;
};

// Alphabets of text without whitespace that tiktoken's split leaves as one long piece (letters,
// CJK, symbols, emoji) or as many (digits, base64, punctuation mixes).
const alphabets: Record<string, readonly string[]> = {
  letter: ['a', 'b', 'e', 'x', 'Q', 'Z'],
  lower: [...'abcdefghijklmnopqrstuvwxyz'],
  digit: [...'0123456789'],
  cjk: [...'字東京都日本首人大中国語文学'],
  kana: [...'あいうえおかきくけこアイウエオ'],
  box: [...'─│┌┐└┘├┤┬┴┼═║╔╗╚╝'],
  base64: [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='],
  emoji: ['😀', '👍', '🏽', '🚀', '👨‍👩‍👧', '❤️', '🇯🇵'],
  punctuation: [...'!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'],
  cyrillic: [...'абвгдежзийклмнопрстуфхцчшщыэюя'],
  marks: ['e\u0301', 'a\u0308', '\u0915\u094d'],
};
const classNames = Object.keys(alphabets);

/** A run of `length` units drawn from one alphabet, either one repeated unit or a random mix. */
const run = (length: number) =>
  fc
    .tuple(fc.constantFrom(...classNames), fc.boolean(), fc.integer({ min: 0, max: 2 ** 31 }))
    .map(([name, repeated, seed]) => {
      const units = alphabets[name]!;
      let state = seed;
      let text = '';
      const first = units[seed % units.length]!;
      for (let i = 0; i < length; i++) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        text += repeated ? first : units[state % units.length]!;
      }
      return text;
    });

describe('long pieces (no whitespace)', () => {
  it('counts runs of 100–3,000 units exactly like tiktoken, for every encoding (property)', () => {
    const counters = {
      o200k_base: createTokenCounter({ encoding: 'o200k_base' }),
      cl100k_base: createTokenCounter({ encoding: 'cl100k_base' }),
      r50k_base: createTokenCounter({ encoding: 'r50k_base' }),
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 3000 }).chain((length) => run(length)),
        fc.constantFrom('o200k_base' as const, 'cl100k_base' as const, 'r50k_base' as const),
        (text, encoding) => {
          expect(counters[encoding].count(text)).toBe(rawCount(encoding, text));
        },
      ),
      { numRuns: Number(process.env.LONG_PIECE_RUNS ?? 150) },
    );
  });

  it('counts runs of 4,096–14,000 bytes (merged in segments, edges checked) exactly like tiktoken (property)', () => {
    const counters = {
      o200k_base: createTokenCounter({ encoding: 'o200k_base' }),
      cl100k_base: createTokenCounter({ encoding: 'cl100k_base' }),
    };
    // Alphabets whose tokens often straddle a segment edge (words of two CJK characters, letters,
    // runs of one symbol), so that joined reruns and the fall-back to one heap are exercised too.
    const straddling: readonly (readonly string[])[] = [
      [...'我们中国时间人民工作问题'],
      ['a', 'b'],
      ['-', '=', '-', '-'],
      [...'的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年'],
    ];
    fc.assert(
      fc.property(
        fc
          .tuple(
            fc.constantFrom(...straddling, ...Object.values(alphabets)),
            fc.integer({ min: 4_100, max: 14_000 }),
            fc.integer({ min: 0, max: 2 ** 31 }),
          )
          .map(([units, bytes, seed]) => {
            let state = seed;
            const parts: string[] = [];
            let size = 0;
            while (size < bytes) {
              state = (Math.imul(state, 1103515245) + 12345) >>> 0;
              const unit = units[state % units.length]!;
              parts.push(unit);
              size += Buffer.byteLength(unit);
            }
            return parts.join('');
          }),
        fc.constantFrom('o200k_base' as const, 'cl100k_base' as const),
        (text, encoding) => {
          expect(counters[encoding].count(text)).toBe(rawCount(encoding, text));
        },
      ),
      { numRuns: Number(process.env.LONG_PIECE_RUNS ?? 40) },
    );
  }, 120_000);

  it('counts mixes of long runs, spaces and prose exactly (property)', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 129, max: 1500 }).chain((length) => run(length)),
            fc.constantFrom(' ', '\n', 'word ', ' the end.\n', '\n\n  ', '"', "'s"),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        (parts) => {
          const text = parts.join('');
          expect(counter.count(text)).toBe(rawCount('o200k_base', text));
        },
      ),
      { numRuns: Number(process.env.LONG_PIECE_RUNS ?? 60) },
    );
  });

  it('counts runs of one repeated character exactly up to 8,000 characters', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    for (const unit of ['a', 'Z', '字', '─', '😀', '=', '\u0301'])
      for (const length of [129, 1000, 4097, 8000]) {
        const text = unit.repeat(length);
        expect(counter.count(text), `${unit} x ${length}`).toBe(rawCount('o200k_base', text));
      }
  });

  it('never throws a raw WASM error on >= 1 MB without whitespace, and stays plausible', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    const megabyte = 1 << 20;
    for (const name of classNames) {
      for (const repeated of [true, false]) {
        const units = alphabets[name]!;
        let text = '';
        let state = 7;
        while (text.length < megabyte) {
          const chunk: string[] = [];
          for (let i = 0; i < 4096; i++) {
            state = (Math.imul(state, 1103515245) + 12345) >>> 0;
            chunk.push(repeated ? units[0]! : units[state % units.length]!);
          }
          text += chunk.join('');
        }
        const bytes = Buffer.byteLength(text);
        const tokens = counter.count(text);
        expect(Number.isInteger(tokens), name).toBe(true);
        // No o200k token is longer than 128 bytes, and none is shorter than one byte.
        expect(tokens, name).toBeGreaterThanOrEqual(bytes / 128);
        expect(tokens, name).toBeLessThanOrEqual(bytes);
        // The same run counted as a message costs the same plus the message overhead.
        expect(counter.countMessage({ role: 'tool', content: text }) - tokens).toBeLessThan(10);
      }
    }
  }, 240_000);

  it('counts a long run the same whether seen before or not, and as two halves joined by a newline', () => {
    const first = createTokenCounter({ encoding: 'o200k_base' });
    const text = '字'.repeat(300_000);
    const once = first.count(text);
    expect(first.count(text)).toBe(once);
    // A newline ends a CJK piece in both encodings: the halves are counted independently.
    const half = first.count('字'.repeat(150_000));
    expect(first.count(`${'字'.repeat(150_000)}\n${'字'.repeat(150_000)}`)).toBe(2 * half + 1);
  });
});

describe('typed errors only', () => {
  it('wraps an encoder failure in TokenizerError without echoing the text', () => {
    const secret = 'sk-live-0123456789abcdef';
    const failing = (): Encoder => ({
      encode_ordinary() {
        throw new WebAssembly.RuntimeError('unreachable');
      },
    });
    const counter = createTokenCounter({ encoding: 'o200k_base', loadEncoder: failing });
    try {
      counter.count(`password ${secret}`);
      expect.unreachable();
    } catch (error) {
      expect(BatonError.isInstance(error)).toBe(true);
      expect(TokenizerError.isInstance(error)).toBe(true);
      expect((error as BatonError).code).toBe('tokenizer_failed');
      expect((error as Error).message).not.toContain(secret);
      expect((error as Error).cause).toBeInstanceOf(WebAssembly.RuntimeError);
    }
    expect(() => counter.countMessages([{ role: 'user', content: 'hello there' }])).toThrow(
      TokenizerError,
    );
  });
});
