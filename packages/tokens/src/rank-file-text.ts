const valueStart = Buffer.from('"bpe_ranks":"', 'latin1');
const quote = 0x22;
const backslash = 0x5c;

/**
 * The `bpe_ranks` string of a rank file of `@dqbd/tiktoken` (JSON bytes), as latin1 bytes: base64
 * tokens separated by spaces or newlines, with "! <rank>" markers. A file as tiktoken ships it (the
 * value written without escapes) is sliced where the value lies: `require` of the JSON made a 2.3 MB
 * string of it through `JSON.parse`, several ms of a cold start, only for the loader to read it back
 * character by character. A value with escapes (p50k has a "\n"), or a file laid out otherwise, goes
 * through `JSON.parse`.
 */
export function rankFileText(file: Uint8Array): Uint8Array {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const key = bytes.indexOf(valueStart);
  if (key >= 0) {
    const begin = key + valueStart.length;
    const end = bytes.indexOf(quote, begin);
    const firstEscape = bytes.indexOf(backslash, begin);
    if (end >= 0 && (firstEscape < 0 || firstEscape > end)) return bytes.subarray(begin, end);
  }
  const { bpe_ranks: text } = JSON.parse(bytes.toString('utf8')) as { bpe_ranks?: unknown };
  if (typeof text !== 'string') throw new Error('the rank file has no bpe_ranks string');
  return Buffer.from(text, 'latin1');
}
