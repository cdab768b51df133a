import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankFiles } from './long-piece-counter.js';
import { rankFileText } from './rank-file-text.js';
import { TokenizerError } from './tokenizer-error.js';

const require = createRequire(import.meta.url);

// Rank text (base64, separators, markers) and look-alikes with characters JSON escapes.
const plainCharacters = [...'AQgw+/=Zz09 !5\u00e9\u4e00'];
const rankText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...plainCharacters), maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...plainCharacters, '\n', '"', '\\'), maxLength: 40 }),
);
const otherValue = fc.oneof(
  rankText,
  fc.integer(),
  // A nested object with a key of the same name: not the file's value.
  rankText.map((text) => ({ bpe_ranks: text })),
  fc.constant('"bpe_ranks":"'),
  fc.array(rankText, { maxLength: 3 }),
);
const rankFile = fc.record({
  // A repeated key: JSON.parse keeps the last.
  before: fc.array(
    fc.tuple(fc.constantFrom('pat_str', 'special_tokens', 'bpe_ranks'), otherValue),
    {
      maxLength: 3,
    },
  ),
  value: rankText,
  after: fc.array(fc.tuple(fc.constantFrom('explicit_n_vocab', 'y'), otherValue), {
    maxLength: 3,
  }),
  indent: fc.constantFrom(0, 1, 2),
  afterColon: fc.constantFrom('', ' ', '\n'),
  escapeSlashes: fc.boolean(),
});

describe('rankFileText', () => {
  it('reads the top-level bpe_ranks value of any JSON layout as JSON.parse does (property)', () => {
    fc.assert(
      fc.property(
        fc.noBias(rankFile),
        ({ before, value, after, indent, afterColon, escapeSlashes }) => {
          const entries = [...before, ['bpe_ranks', value] as const, ...after];
          let json = `{${entries
            .map(
              ([name, entry]) =>
                `${JSON.stringify(name)}:${afterColon}${JSON.stringify(entry, null, indent)}`,
            )
            .join(indent ? ',\n ' : ',')}}`;
          // JSON may escape "/" (the base64 alphabet has it); the value must still be exact.
          if (escapeSlashes) json = json.replaceAll('/', '\\/');
          const expected = (JSON.parse(json) as { bpe_ranks: string }).bpe_ranks;
          expect(Buffer.from(rankFileText(Buffer.from(json, 'utf8'))).toString('utf8')).toBe(
            expected,
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads every published rank file as JSON.parse does', () => {
    for (const file of Object.values(rankFiles)) {
      const path = require.resolve(file);
      const expected = (require(path) as { bpe_ranks: string }).bpe_ranks;
      expect(Buffer.from(rankFileText(readFileSync(path))).toString('latin1')).toBe(expected);
    }
  });

  it('refuses a file without a bpe_ranks string', () => {
    for (const json of ['{"pat_str":"x"}', '{"bpe_ranks":1}', '{"x":{"bpe_ranks":"QQ=="}}']) {
      const error = (() => {
        try {
          rankFileText(Buffer.from(json));
        } catch (caught) {
          return caught;
        }
      })();
      expect(TokenizerError.isInstance(error)).toBe(true);
    }
  });
});
