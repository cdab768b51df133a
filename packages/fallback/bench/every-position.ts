/**
 * Position independence of fixed-prefix credentials: every family with a documented fixed prefix
 * (derived from the package's tables, `src/credential-embeddings.ts`) in every position, in random
 * surrounding text. A value leaks when the output still holds it whole or any 16 alphanumeric
 * characters of it in a row. Prints the misses per family × position.
 * Run: pnpm build && node bench/every-position.ts [seed=1] [perCell=8]
 */
import {
  credentialEmbeddings,
  emphasisEmbeddings,
  fixedPrefixFamilies,
  identifierJoinedEmbeddings,
} from '../dist/credential-embeddings.js';
import { seededRandom } from '../dist/credential-families.js';
import { documentedPrefixes } from '../dist/find-documented-prefix-tokens.js';
import { redactSecrets } from '../dist/index.js';

const [seed = 1, perCell = 8] = process.argv.slice(2).map(Number);

export function leaks(output: string, token: string): boolean {
  if (output.includes(token)) return true;
  for (let start = 0; start + 16 <= token.length; start += 4) {
    const piece = token.slice(start, start + 16);
    if (/^[A-Za-z0-9]{16}$/.test(piece) && output.includes(piece)) return true;
  }
  return false;
}

const random = seededRandom(seed);
const families = fixedPrefixFamilies();
const misses = new Map<string, number>();
const byPosition = new Map<string, number>();
const examples: string[] = [];
let cells = 0;
let values = 0;
let missed = 0;
for (const family of families) {
  for (const [position, wrap] of [
    ...credentialEmbeddings,
    ...identifierJoinedEmbeddings,
    ...emphasisEmbeddings,
  ]) {
    cells++;
    for (let draw = 0; draw < perCell; draw++) {
      const token = family.make(random);
      const text = wrap(token, random);
      if (!text.includes(token))
        throw new Error(`control: ${family.family} not placed in ${position}`);
      values++;
      if (!leaks(redactSecrets(text).text, token)) continue;
      missed++;
      misses.set(family.family, (misses.get(family.family) ?? 0) + 1);
      byPosition.set(position, (byPosition.get(position) ?? 0) + 1);
      if (examples.length < 400)
        examples.push(`${family.family} | ${position} | ${JSON.stringify(text).slice(0, 220)}`);
    }
  }
}
console.log(
  `${families.length} families × ${credentialEmbeddings.length + identifierJoinedEmbeddings.length + emphasisEmbeddings.length} positions = ${cells} cells, ${values} values, ${missed} missed (${((100 * missed) / values).toFixed(2)} %)`,
);
console.log(
  'by position:',
  [...byPosition]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none',
);
console.log(
  'by family:',
  [...misses]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none',
);
const strong = (family: string) =>
  documentedPrefixes.some(([prefix]) =>
    families.find((entry) => entry.family === family)!.prefix.startsWith(prefix),
  );
console.log('strong-prefix misses:', [...misses].filter(([family]) => strong(family)).length);
if (process.argv.includes('--show')) for (const line of examples) console.log(line);
