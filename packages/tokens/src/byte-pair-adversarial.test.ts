import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BatonError,
  type CountableMessage,
  createTokenCounter,
  loadBytePairEncoder,
  type TiktokenEncoding,
} from './index.js';
import { seededRandom } from './test-utils/synthetic-texts.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const encodings: TiktokenEncoding[] = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];
const wasm = Object.fromEntries(encodings.map((name) => [name, tiktoken.get_encoding(name)]));
const reference = (encoding: TiktokenEncoding, text: string) =>
  Array.from(wasm[encoding]!.encode_ordinary(text));

// Units the split pattern and the UTF-8 conversion treat specially.
const hostile = [
  '\uD800',
  '\uDFFF',
  '\uDBFF\uDFFF',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '👍🏽',
  '🇯🇵',
  'e\u0301\u0302',
  '\u0300',
  '\u200D',
  '\uFEFF',
  '<|endoftext|>',
  '<|im_start|>',
  '\0',
  '\r\n',
  '\r',
  '\n',
  ' ',
  '\t',
  '\u00A0',
  '\u3000',
  '\u2028',
  '\u0085',
  '\u000B',
  '中文',
  '─',
  'a',
  'Z',
  '9',
  '٣',
  'Ⅻ',
  'ǅ',
  'ʰ',
  'ſ',
  "'S",
  "'ll",
  '/',
  '.',
  'İ',
];

// Classes of long single pieces (every one a single match of the split pattern or near it).
const classes: Record<string, string[]> = {
  letters: [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'],
  digits: [...'0123456789'],
  cjk: [...'中文字日本語한국어的是不了'],
  punctuation: [...'!@#$%^&*()[]{};:,.<>?`~|\\'],
  box: [...'─│┌┐└┘├┤┬┴┼═║╔╗'],
  base64: [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'],
  emoji: ['😀', '👍🏽', '🇯🇵', '👨‍💻', '❤️', '\u200D'],
  whitespace: [' ', '\t', '\u00A0', '\u3000', '\u2003', '\n', '\r\n', '\r', '\u000B'],
  marks: ['a', '\u0301', '\u0302', '\u0323', 'o'],
};

describe('loadBytePairEncoder against @dqbd/tiktoken on hostile text', () => {
  it('matches on sequences of hostile units, every encoding (property)', () => {
    for (const encoding of encodings) {
      const encoder = loadBytePairEncoder(encoding);
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...hostile), { maxLength: 80 }), (units) => {
          const text = units.join('');
          expect(Array.from(encoder.encode_ordinary(text))).toEqual(reference(encoding, text));
        }),
        { numRuns: 300 },
      );
    }
  });

  it('matches on long single pieces of every class, random and repeated, every encoding', () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const random = seededRandom(seed);
    for (const encoding of encodings) {
      const encoder = loadBytePairEncoder(encoding);
      for (const [name, units] of Object.entries(classes)) {
        for (const length of [129, 1500]) {
          const mixed = Array.from({ length }, () => units[Math.floor(random() * units.length)]!);
          for (const text of [mixed.join(''), units[0]!.repeat(length)]) {
            const ours = Array.from(encoder.encode_ordinary(text));
            expect(ours, `${encoding} ${name} ${length} seed ${seed}`).toEqual(
              reference(encoding, text),
            );
          }
        }
      }
    }
  });

  it('gives each counter its own exact counts when counters of all encodings interleave', () => {
    // Two encoders per encoding, fed the same and different texts in turn: a pair memo shared or
    // poisoned across encodings or counters would show as a wrong count.
    const seed = Math.floor(Math.random() * 2 ** 31);
    const random = seededRandom(seed);
    const encoders = encodings.flatMap((encoding) => [
      { encoding, encoder: loadBytePairEncoder(encoding) },
      { encoding, encoder: loadBytePairEncoder(encoding) },
    ]);
    const units = Object.values(classes).flat();
    for (let round = 0; round < 60; round++) {
      const text = Array.from(
        { length: 50 + Math.floor(random() * 400) },
        () => units[Math.floor(random() * units.length)]!,
      ).join('');
      for (const { encoding, encoder } of encoders) {
        // countOrdinary takes one piece of the split: a run of one class is one piece.
        const piece = text.replace(/[^A-Za-z]/g, '');
        expect(encoder.countOrdinary!(piece), `seed ${seed}`).toBe(
          reference(encoding, piece).length,
        );
        expect(Array.from(encoder.encode_ordinary(text)), `seed ${seed}`).toEqual(
          reference(encoding, text),
        );
      }
    }
  });

  it('counts exactly through createTokenCounter, in pieces and whole, on hostile text', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...hostile), { maxLength: 120 }), (units) => {
        const text = units.join('');
        expect(counter.count(text)).toBe(reference('o200k_base', text).length);
      }),
      { numRuns: 300 },
    );
  });

  it('lets only BatonErrors out of message counting, whatever the messages hold', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const part = fc.oneof(
      fc.record({ type: fc.constantFrom('text', 'reasoning'), text: fc.anything() }),
      fc.record({ type: fc.constant('image'), image: fc.anything(), mediaType: fc.anything() }),
      fc.record({
        type: fc.constant('tool-call'),
        toolCallId: fc.anything(),
        toolName: fc.anything(),
        input: fc.anything(),
      }),
      fc.record({
        type: fc.constant('tool-result'),
        toolCallId: fc.string(),
        toolName: fc.string(),
        output: fc.anything(),
      }),
      fc.record({ type: fc.constant('file'), data: fc.anything(), mediaType: fc.anything() }),
      fc.anything(),
    );
    const message = fc.record(
      {
        role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'tool'), fc.anything()),
        content: fc.oneof(fc.string({ unit: 'binary' }), fc.array(part), fc.anything()),
        name: fc.anything(),
      },
      { requiredKeys: ['role', 'content'] },
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 4 }), (messages) => {
        try {
          const total = counter.countMessages(messages as CountableMessage[]);
          expect(Number.isInteger(total) && total >= 0).toBe(true);
        } catch (error) {
          expect(BatonError.isInstance(error), String(error)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
