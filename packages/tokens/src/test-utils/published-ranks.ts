import { createRequire } from 'node:module';
import { rankFiles } from '../long-piece-counter.js';
import type { TiktokenEncoding } from '../types.js';

const require = createRequire(import.meta.url);
const read = new Map<TiktokenEncoding, Map<string, number>>();

/**
 * Every token of an encoding's published rank file (bytes as a latin1 string) and its rank, read
 * with `split` and `Buffer` only: the tests' independent view, sharing nothing with the package's
 * own rank-file reader.
 */
export function publishedRanks(encoding: TiktokenEncoding): Map<string, number> {
  const known = read.get(encoding);
  if (known) return known;
  const { bpe_ranks: text } = require(rankFiles[encoding]) as { bpe_ranks: string };
  const tokens = new Map<string, number>();
  let rank = 0;
  const words = text.split(/[ \n]+/);
  for (let i = 0; i < words.length; i++) {
    if (words[i] === '!') {
      rank = Number(words[++i]);
      continue;
    }
    if (words[i]) tokens.set(Buffer.from(words[i]!, 'base64').toString('latin1'), rank++);
  }
  read.set(encoding, tokens);
  return tokens;
}
