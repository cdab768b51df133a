import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPieceCounter } from './create-piece-counter.js';
import { loadBytePairEncoder } from './load-byte-pair-encoder.js';
import { MemoBypass } from './memo-bypass.js';
import { splitPattern } from './split-pattern.js';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');

/** Lookups that hit with probability `rate` (drawn by `random`), fed to `bypass` as its caller would. */
function feed(bypass: MemoBypass, pieces: number, rate: number, random: () => number): number {
  let looked = 0;
  for (let i = 0; i < pieces; i++) {
    if (bypass.skip()) continue;
    looked++;
    bypass.record(random() < rate);
  }
  return looked;
}

describe('MemoBypass', () => {
  it('bypasses a memo that almost never hits, samples it, and returns when hits come back (property)', () => {
    fc.assert(
      fc.property(
        fc.noBias(fc.double({ min: 0, max: 0.02, noNaN: true })),
        fc.noBias(fc.double({ min: 0.3, max: 1, noNaN: true })),
        fc.integer({ min: 1, max: 2 ** 31 }),
        (missing, hitting, seed) => {
          const random = seededUniform(seed);
          const bypass = new MemoBypass();
          // The first verdict comes after 512 lookups; at a rate under 2 % the bypass starts.
          feed(bypass, 512, missing, random);
          expect(bypass.bypassing).toBe(true);
          // While bypassed, one piece in eight is looked up.
          const looked = feed(bypass, 8 * 256, missing, random);
          expect(looked).toBe(256);
          expect(bypass.bypassing).toBe(true);
          // Hits of 30 % or more among the samples end it within one verdict of samples.
          feed(bypass, 8 * 512 + 8, hitting, random);
          expect(bypass.bypassing).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('never bypasses a memo that hits on one lookup in eight or more (control, property)', () => {
    fc.assert(
      fc.property(
        fc.noBias(fc.double({ min: 0.125, max: 1, noNaN: true })),
        fc.integer({ min: 1, max: 2 ** 31 }),
        (rate, seed) => {
          const random = seededUniform(seed);
          const bypass = new MemoBypass();
          for (let verdict = 0; verdict < 20; verdict++) {
            feed(bypass, 512, rate, random);
            expect(bypass.bypassing).toBe(false);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('leaves counts exact on texts of never-repeating pieces, then repeating ones (property)', () => {
    const wasm = tiktoken.get_encoding('o200k_base');
    // Capitals start a piece, so random letters with capitals are short pieces that never repeat.
    const letters = (from: number, to: number) =>
      fc.integer({ min: from, max: to }).map((code) => String.fromCodePoint(code));
    const scriptRun = fc.oneof(
      fc.array(fc.oneof(letters(0x391, 0x3a9), letters(0x3b1, 0x3c9)), {
        minLength: 2000,
        maxLength: 6000,
      }),
      fc.array(fc.oneof(letters(0x410, 0x42f), letters(0x430, 0x44f)), {
        minLength: 2000,
        maxLength: 6000,
      }),
      fc.array(letters(0x20, 0xd7ff), { minLength: 2000, maxLength: 6000 }),
    );
    // The premise: in most cases the pieces the memo would see repeat too seldom to be looked up.
    let bypassed = 0;
    let runs = 0;
    const wouldBypass = (text: string) => {
      const seen = new Set<string>();
      let hits = 0;
      let lookups = 0;
      for (const piece of text.match(splitPattern('o200k_base')) ?? []) {
        if (piece.length === 1 && piece.charCodeAt(0) < 128) continue;
        if (seen.has(piece)) hits++;
        seen.add(piece);
        if (++lookups === 512) return hits * 16 < lookups;
      }
      return false;
    };
    try {
      fc.assert(
        fc.property(
          scriptRun,
          fc.array(fc.constantFrom('Это ', 'слово ', 'λέξη ', '字 ', 'word, '), {
            maxLength: 3000,
          }),
          (run, words) => {
            const counter = createPieceCounter(loadBytePairEncoder('o200k_base'), 'o200k_base');
            const text = run.join('');
            runs++;
            if (wouldBypass(text)) bypassed++;
            const repeated = words.join('');
            expect(counter.count(text)).toBe(wasm.encode_ordinary(text).length);
            expect(counter.count(repeated)).toBe(wasm.encode_ordinary(repeated).length);
            expect(counter.count(text + repeated)).toBe(
              wasm.encode_ordinary(text + repeated).length,
            );
          },
        ),
        { numRuns: 30 },
      );
      // About half the runs bypass (a third of the draws are random BMP text, and Greek or
      // Cyrillic runs often do): a floor at the half failed on a CI seed with 15 of 30.
      expect(bypassed).toBeGreaterThanOrEqual(6);
      // Control: not every run bypasses (repeating pieces take the memo).
      expect(bypassed).toBeLessThan(runs);
    } finally {
      wasm.free();
    }
  }, 120_000);
});

/** Mulberry32: uniform numbers in [0, 1) from `seed`. */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}
