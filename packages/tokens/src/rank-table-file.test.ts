import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankArraysOf, rankFiles, rankTableOfFiles } from './long-piece-counter.js';
import { rankFileText } from './rank-file-text.js';
import { rankArraysOfFile, rankTableFile, rankTableFileName } from './rank-table-file.js';
import { publishedRanks } from './test-utils/published-ranks.js';
import { TokenizerError } from './tokenizer-error.js';

const require = createRequire(import.meta.url);
const filterWords = 1 << 16;
const noRank = 2 ** 21;

// Vocabularies of 1 to 12 byte tokens (short ones packed in their slot, longer ones by offset),
// distinct, in rank order behind a "! 0" marker as tiktoken ships them.
const vocabulary = fc.uniqueArray(fc.uint8Array({ minLength: 1, maxLength: 12 }), {
  minLength: 1,
  maxLength: 120,
  selector: (token) => Buffer.from(token).toString('latin1'),
});
const rankText = (tokens: Uint8Array[]): Buffer =>
  Buffer.from(
    `{"bpe_ranks":"! 0 ${tokens.map((token) => Buffer.from(token).toString('base64')).join(' ')}"}`,
  );
/** The rank table file of `source` as the package build writes it. */
const built = (source: Buffer): Uint8Array =>
  rankTableFile(rankArraysOf(rankFileText(Buffer.from(source)), 'test'), source);

describe('rank table files', () => {
  it('read back to the arrays they were built from, and look every token up at its rank (property)', () => {
    fc.assert(
      fc.property(fc.noBias(vocabulary), (tokens) => {
        const source = rankText(tokens);
        const expected = rankArraysOf(rankFileText(Buffer.from(source)), 'test');
        const read = rankArraysOfFile(built(source), source, filterWords);
        expect(read).toEqual(expected);
        const table = rankTableOfFiles(Buffer.from(source), built(source), 'test');
        tokens.forEach((token, rank) => {
          const bytes = Buffer.from([255, ...token, 0]);
          expect(table.rankOf(bytes, 1, bytes.length - 1)).toBe(rank);
        });
      }),
      { numRuns: 100 },
    );
  });

  it('are refused after any change of one byte of the file or of its source, or a cut (property)', () => {
    // Premise: every header word is compared or under the CRC, which finds every change of up to
    // 32 consecutive bits. Control: the same file and source, unchanged, are read.
    fc.assert(
      fc.property(
        fc.noBias(vocabulary),
        fc.constantFrom('file', 'source', 'cut'),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (tokens, what, position, flip) => {
          const source = rankText(tokens);
          const file = Buffer.from(built(source));
          expect(rankArraysOfFile(file, source, filterWords)).toBeDefined();
          const changed = Buffer.from(source);
          if (what === 'file') file[position % file.length]! ^= flip;
          else if (what === 'source') changed[position % changed.length]! ^= flip;
          const read = what === 'cut' ? file.subarray(0, position % file.length) : file;
          expect(rankArraysOfFile(read, changed, filterWords)).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('give way to the source: a changed vocabulary is decoded, a malformed one throws TokenizerError (property)', () => {
    fc.assert(
      fc.property(fc.noBias(vocabulary), fc.noBias(vocabulary), (tokens, others) => {
        const stale = built(rankText(tokens));
        // Another vocabulary with the built table of the first: counted by its own ranks.
        const table = rankTableOfFiles(rankText(others), stale, 'test');
        others.forEach((token, rank) => {
          expect(table.rankOf(Uint8Array.from(token), 0, token.length)).toBe(rank);
        });
        // A malformed source of the same length (a base64 digit made '$'): the typed error.
        const malformed = rankText(tokens);
        malformed[malformed.indexOf('! 0 ') + 4] = 0x24;
        let error: unknown;
        try {
          rankTableOfFiles(malformed, stale, 'test');
        } catch (caught) {
          error = caught;
        }
        expect(TokenizerError.isInstance(error)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('of a published encoding hold exactly its ranks', () => {
    const source = readFileSync(require.resolve(rankFiles.o200k_base));
    const table = rankTableOfFiles(Buffer.from(source), built(source), 'o200k_base');
    const { data } = rankArraysOfFile(built(source), source, filterWords)!;
    expect(data.length).toBeGreaterThan(1_000_000);
    for (const [token, rank] of publishedRanks('o200k_base')) {
      const bytes = Buffer.from(token, 'latin1');
      expect(table.rankOf(bytes, 0, bytes.length)).toBe(rank);
      if (bytes.length === 2) expect(table.pairs[(bytes[0]! << 8) | bytes[1]!]).toBe(rank);
    }
    expect(table.rankOf(Buffer.from('no such token, surely'), 0, 21)).toBe(noRank);
  });

  it('the build wrote for o200k is read beside the built modules and matches the installed ranks', () => {
    const source = readFileSync(require.resolve(rankFiles.o200k_base));
    const file = readFileSync(
      new URL(rankTableFileName('o200k_base'), new URL('../dist/', import.meta.url)),
    );
    expect(rankArraysOfFile(file, source, filterWords)).toEqual(
      rankArraysOf(rankFileText(Buffer.from(source)), 'o200k_base'),
    );
  });
});
