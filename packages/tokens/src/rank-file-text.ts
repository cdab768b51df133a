import { TokenizerError } from './tokenizer-error.js';

const key = Buffer.from('"bpe_ranks":"', 'latin1');
const quote = 0x22;
const backslash = 0x5c;

/**
 * The `bpe_ranks` string of a rank file of `@dqbd/tiktoken` (JSON bytes), as UTF-8 bytes: base64
 * tokens separated by spaces or newlines, with "! <rank>" markers. A file as tiktoken ships it (the
 * top-level value written without escapes) is sliced where the value lies: `require` of the JSON
 * made a 2.3 MB string of it through `JSON.parse`, several ms of a cold start, only for the loader
 * to read it back character by character. A value with escapes (p50k has a "\n"), or a file laid
 * out otherwise, goes through `JSON.parse`.
 */
export function rankFileText(file: Uint8Array): Uint8Array {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const at = bytes.indexOf(key);
  // One occurrence (JSON.parse keeps the last of duplicate keys), in the top-level object.
  if (at >= 0 && bytes.lastIndexOf(key) === at && isTopLevel(bytes, at)) {
    const begin = at + key.length;
    const end = bytes.indexOf(quote, begin);
    const firstEscape = bytes.indexOf(backslash, begin);
    if (end >= 0 && (firstEscape < 0 || firstEscape > end)) return bytes.subarray(begin, end);
  }
  const { bpe_ranks: text } = JSON.parse(bytes.toString('utf8')) as { bpe_ranks?: unknown };
  if (typeof text !== 'string')
    throw new TokenizerError({ message: 'the rank file has no bpe_ranks string' });
  return Buffer.from(text, 'utf8');
}

/** Whether `bytes[at]` is outside strings and directly inside the outermost object. */
function isTopLevel(bytes: Uint8Array, at: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < at; i++) {
    const code = bytes[i]!;
    if (inString) {
      if (code === backslash) i++;
      else if (code === quote) inString = false;
    } else if (code === quote) inString = true;
    else if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) depth--;
  }
  return depth === 1 && !inString;
}
