import {
  ruleRunBreakParts,
  ruleRunCharacters,
  ruleRunSpaceParts,
  ruleRunStepParts,
  ruleRunTableLength,
  ruleRunVariantLength,
} from './rule-run-table.js';

interface RuleRunTable {
  /** Row of each character code in `counts`, -1 for a character not in the table. */
  rows: Int16Array;
  /** Exact counts of 0..ruleRunTableLength units, a row of ruleRunTableLength + 1 per character. */
  counts: Uint16Array;
  /** Tokens a space before the run adds, a row of ruleRunTableLength + 1 per character. */
  spaced: Int8Array;
  /** Tokens a line break after the run adds, alike. */
  broken: Int8Array;
  periods: Uint8Array;
  steps: Uint8Array;
}

/** The period past ruleRunVariantLength at which what a space or line break adds repeats. */
const variantPeriod = 64;
let table: RuleRunTable | undefined;

/** The table, decoded on first use: text without a long run of one character never pays it. */
function ruleRunTable(): RuleRunTable {
  if (table === undefined) {
    const entries = ruleRunCharacters.split(',');
    const bits = Buffer.from(ruleRunStepParts.join(''), 'base64');
    const spaceBits = Buffer.from(ruleRunSpaceParts.join(''), 'base64');
    const breakBits = Buffer.from(ruleRunBreakParts.join(''), 'base64');
    const width = ruleRunTableLength + 1;
    const decoded: RuleRunTable = {
      rows: new Int16Array(65536).fill(-1),
      counts: new Uint16Array(entries.length * width),
      spaced: new Int8Array(entries.length * (ruleRunVariantLength + 1)),
      broken: new Int8Array(entries.length * (ruleRunVariantLength + 1)),
      periods: new Uint8Array(entries.length),
      steps: new Uint8Array(entries.length),
    };
    entries.forEach((entry, row) => {
      const [code, period, step] = entry.split(':');
      decoded.rows[Number.parseInt(code!, 36)] = row;
      decoded.periods[row] = Number(period);
      decoded.steps[row] = Number(step);
      for (let n = 1; n < width; n++) {
        const i = row * ruleRunTableLength + n - 1;
        const delta = ((bits[i >>> 1]! >> ((i & 1) * 4)) & 15) - 8;
        decoded.counts[row * width + n] = decoded.counts[row * width + n - 1]! + delta;
      }
      for (let n = 1; n <= ruleRunVariantLength; n++) {
        const i = row * ruleRunVariantLength + n - 1;
        const at = row * (ruleRunVariantLength + 1) + n;
        decoded.spaced[at] = ((spaceBits[i >>> 2]! >> ((i & 3) * 2)) & 3) - 1;
        decoded.broken[at] = ((breakBits[i >>> 2]! >> ((i & 3) * 2)) & 3) - 1;
      }
    });
    table = decoded;
  }
  return table;
}

/**
 * Exact o200k tokens of `code` repeated `length` times, with a space before it when `spaced` and a
 * line break after it when `broken` (both in its piece: the table holds what each adds), or -1 when the table does not hold the
 * character (rule-run-table.ts). BPE on such a run merges runs of the character only, so its count
 * depends on the length alone, and past 64 units it grows by a fixed step every period (`-` 77
 * times is one token, 80 times one, 100 times two; `=` 16 times one, 20 times two): the pair-by-pair
 * doublings that priced it before missed every longer token (`-` 77 times estimated at 4).
 */
export function ruleRunTokens(
  code: number,
  length: number,
  spaced = false,
  broken = false,
): number {
  const { rows, counts, spaced: spaceAdds, broken: breakAdds, periods, steps } = ruleRunTable();
  const row = rows[code]!;
  if (row < 0) return -1;
  const period = periods[row]!;
  const periodsPast =
    length > ruleRunTableLength ? Math.ceil((length - ruleRunTableLength) / period) : 0;
  const width = ruleRunTableLength + 1;
  let tokens = counts[row * width + length - periodsPast * period]! + periodsPast * steps[row]!;
  const variant =
    row * (ruleRunVariantLength + 1) +
    length -
    (length > ruleRunVariantLength
      ? Math.ceil((length - ruleRunVariantLength) / variantPeriod) * variantPeriod
      : 0);
  if (spaced) tokens += spaceAdds[variant]!;
  if (broken) tokens += breakAdds[variant]!;
  return tokens;
}
