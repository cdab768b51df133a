/**
 * Generic layers alone (every issuer rule off) on drawn credential shapes (`src/credential-shapes.ts`)
 * in positions that name no credential, and on drawn look-alikes (`src/credential-look-alikes.ts`)
 * with every rule on. Seeds are arguments, so rates can be read on seeds nobody tuned on.
 * Run: pnpm build && node bench/credential-shapes.ts [firstSeed=1] [seeds=4] [perShape=250] [--show]
 */

import { seededRandom } from '../dist/credential-families.js';
import { credentialLookAlikes } from '../dist/credential-look-alikes.js';
import { credentialShapes, neutralPositions } from '../dist/credential-shapes.js';
import { redactSecrets } from '../dist/index.js';
import { vendorRules } from '../dist/secret-rules.js';
import { structuralKinds } from './leave-family-out.ts';

const [firstSeed = 1, seeds = 4, perShape = 250] = process.argv
  .slice(2)
  .filter((argument) => !argument.startsWith('--'))
  .map(Number);
const show = process.argv.includes('--show');
const issuerKinds = [...new Set(vendorRules.map((rule) => rule.kind))].filter(
  (kind) => !structuralKinds.has(kind),
);
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(2)} %`;
const random = (seed: number, index: number, salt: number) =>
  seededRandom((seed * 1_000_003 + index * 7919 + salt * 104_729) >>> 0);

console.log(`seeds ${firstSeed}..${firstSeed + seeds - 1}, ${perShape} per shape and seed\n`);
/**
 * Draws `perShape` values of each generator for every seed and prints the share `failed` says is
 * wrong, with a few examples under `--show`; returns the totals.
 */
function rate(
  title: string,
  generators: Array<{ label: string; make: (random: ReturnType<typeof seededRandom>) => string }>,
  saltBase: number,
  failed: (value: string, index: number) => string | undefined,
): void {
  console.log(`| ${title} | values | share |\n|---|---:|---:|`);
  let all = 0;
  let wrong = 0;
  generators.forEach(({ label, make }, salt) => {
    let count = 0;
    const examples: string[] = [];
    for (let seed = firstSeed; seed < firstSeed + seeds; seed++) {
      for (let index = 0; index < perShape; index++) {
        const example = failed(make(random(seed, index, saltBase + salt)), index);
        if (example === undefined) continue;
        count++;
        if (examples.length < 6) examples.push(example);
      }
    }
    all += seeds * perShape;
    wrong += count;
    console.log(`| ${label} | ${seeds * perShape} | ${percent(count, seeds * perShape)} |`);
    if (show && examples.length > 0) console.log(`    ${examples.join('\n    ')}`);
  });
  console.log(`| **all** | ${all} | **${percent(wrong, all)}** |\n`);
}

rate(
  'credential shape, issuer rules off (share missed)',
  credentialShapes.map(({ shape, make }) => ({ label: shape, make })),
  0,
  (value, index) => {
    const [, wrap] = neutralPositions[index % neutralPositions.length]!;
    const left = redactSecrets(wrap(value), { disabledKinds: issuerKinds }).text.includes(value);
    return left ? value : undefined;
  },
);
rate(
  'look-alike, every rule on (share redacted)',
  credentialLookAlikes.map(({ kind, make }) => ({ label: kind, make })),
  100,
  (line) => {
    const result = redactSecrets(line);
    return result.findings.length > 0 ? `${line} -> ${result.text}` : undefined;
  },
);
