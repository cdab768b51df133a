import { createRequire } from 'node:module';

/** The arrays of a rank table: see `rankArraysOf` in long-piece-counter.ts for their layout. */
export interface RankArrays {
  /** Every token's bytes, in rank order. */
  data: Uint8Array;
  /** The open-addressing table of (size, rank) and (bytes, or fingerprint and offset) slots. */
  table: Int32Array;
  pairs: Int32Array;
  byteRanks: Int32Array;
  /** The hash filter of every token. */
  filter: Int32Array;
  offsetBits: number;
  longestToken: number;
}

// "BTRK" read as a little-endian word: a machine of the other byte order reads another number and
// decodes the published file instead.
const magic = 0x4b525442;
// Bump on any change to what the arrays mean (hashing, slot packing, filter bits): a table of
// another layout is then never read as this one.
const layout = 1;
// magic, layout, source length, CRC-32 of the source and of the arrays, offsetBits, longestToken,
// then the arrays' lengths.
const headerWords = 12;
const headerBytes = headerWords * 4;
const lengthsAt = 5;
// The second CRC-32 covers every byte after itself: the sizes as well as the arrays.
const checkedFrom = 20;

const require = createRequire(import.meta.url);

/**
 * zlib's CRC-32 of `bytes` (native, ~0.5 ms a MB), or undefined where Node has none (before 22.2):
 * the table is then not read. `node:crypto`'s SHA-256 cost ~9 ms to load the module on a cold start
 * and twice the hashing. A changed file of the same length with the same CRC-32 is a 2^-32 chance
 * by accident; nothing here defends against a crafted one, as nothing defends the package's own
 * code in node_modules.
 */
function crc32(bytes: Uint8Array): number | undefined {
  const zlib = require('node:zlib') as { crc32?: (data: Uint8Array) => number };
  return typeof zlib.crc32 === 'function' ? zlib.crc32(bytes) | 0 : undefined;
}

/** Where the package build writes the table of `encoding`, relative to the modules in dist. */
export function rankTableFileName(encoding: string): string {
  return `./${encoding}.ranks`;
}

/**
 * The bytes of a rank table file: `arrays` (built from the published rank file `source`) behind a
 * header with the length and CRC-32 of `source` and the CRC-32 of the arrays. Reading it back is a few views over one
 * buffer instead of decoding and indexing 200,000 base64 tokens (~60 ms of a cold start for o200k).
 */
export function rankTableFile(arrays: RankArrays, source: Uint8Array): Uint8Array {
  const { data, table, pairs, byteRanks, filter } = arrays;
  const payload = Buffer.concat([
    ...[table, pairs, byteRanks, filter].map(
      (array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength),
    ),
    data,
  ]);
  const sourceCheck = crc32(source);
  if (sourceCheck === undefined)
    throw new Error('writing a rank table file needs zlib.crc32 (Node 22.2 or later)');
  const header = Int32Array.of(
    magic,
    layout,
    source.length,
    sourceCheck,
    0,
    arrays.offsetBits,
    arrays.longestToken,
    table.length,
    pairs.length,
    byteRanks.length,
    filter.length,
    data.length,
  );
  const file = Buffer.concat([new Uint8Array(header.buffer), payload]);
  new Int32Array(file.buffer, file.byteOffset, headerWords)[4] = crc32(file.subarray(checkedFrom))!;
  return file;
}

/**
 * The arrays of a rank table file, or undefined unless the file is whole (the CRC-32 of its sizes
 * and arrays matches), of this layout, and was built from exactly `source` (the published rank file as read
 * now): a dependency whose file changed is decoded afresh, never counted with a stale table.
 * `filterWords` is the filter size the lookups expect.
 */
export function rankArraysOfFile(
  file: Uint8Array,
  source: Uint8Array,
  filterWords: number,
): RankArrays | undefined {
  if (file.length < headerBytes) return undefined;
  // Typed views need 4-byte alignment; a buffer from a pool may not have it.
  const bytes = file.byteOffset % 4 === 0 ? file : file.slice();
  const header = new Int32Array(bytes.buffer, bytes.byteOffset, headerWords);
  if (header[0] !== magic || header[1] !== layout || header[2] !== source.length) return undefined;
  const [
    offsetBits,
    longestToken,
    tableLength,
    pairsLength,
    bytesLength,
    filterLength,
    dataLength,
  ] = Array.from(header.subarray(lengthsAt, lengthsAt + 7));
  if (
    pairsLength !== 65_536 ||
    bytesLength !== 256 ||
    filterLength !== filterWords ||
    tableLength! < 2 ||
    (tableLength! & (tableLength! - 1)) !== 0 ||
    dataLength! < 0 ||
    offsetBits! < 1 ||
    offsetBits! > 31 ||
    2 ** offsetBits! <= dataLength! ||
    longestToken! < 1
  )
    return undefined;
  const wordsLength = tableLength! + pairsLength + bytesLength + filterLength;
  if (bytes.length !== headerBytes + 4 * wordsLength + dataLength!) return undefined;
  if (crc32(source) !== header[3] || crc32(bytes.subarray(checkedFrom)) !== header[4])
    return undefined;
  let at = bytes.byteOffset + headerBytes;
  const words = (length: number): Int32Array => {
    const array = new Int32Array(bytes.buffer, at, length);
    at += 4 * length;
    return array;
  };
  const table = words(tableLength!);
  const pairs = words(pairsLength);
  const byteRanks = words(bytesLength);
  const filter = words(filterLength);
  // A plain byte view, as every merge reads (never a Buffer: another map deoptimised lookups).
  const data = new Uint8Array(bytes.buffer, at, dataLength);
  return {
    data,
    table,
    pairs,
    byteRanks,
    filter,
    offsetBits: offsetBits!,
    longestToken: longestToken!,
  };
}
