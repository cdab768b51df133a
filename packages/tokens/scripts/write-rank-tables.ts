// Writes the rank table files the package loads instead of decoding `@dqbd/tiktoken`'s rank files
// (see rank-table-file.ts): derived from the installed dependency's file at build time, and used
// at run time only when the installed file is byte for byte the one they were built from. Run by
// `pnpm build`, after tsc, on its output.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { rankArraysOf, rankFiles } from '../dist/long-piece-counter.js';
import { rankFileText } from '../dist/rank-file-text.js';
import { rankTableFile, rankTableFileName } from '../dist/rank-table-file.js';

const require = createRequire(import.meta.url);
const dist = new URL('../dist/', import.meta.url);
// o200k only: the default encoding, and the one whose decoding costs most (~4 MB in the package).
for (const encoding of ['o200k_base'] as const) {
  const source = readFileSync(require.resolve(rankFiles[encoding]));
  // Decoded from a copy: decoding overwrites its input, and the file records the source's digest.
  const arrays = rankArraysOf(rankFileText(Buffer.from(source)), encoding);
  writeFileSync(new URL(rankTableFileName(encoding), dist), rankTableFile(arrays, source));
}
