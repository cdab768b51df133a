/**
 * Ordinary tool output an agent reads (cloud CLIs, kubectl, docker, git, lockfiles, APIs, build
 * tools, ciphertext), drawn from `src/test-utils/tool-output.ts`: the share of samples of each class
 * whose text `redactSecrets` changes (all of them are public or opaque values: should be ~0).
 * Run: pnpm build && node bench/tool-output.ts [seeds=40] [perSeed=6] [class filter]
 */
import { seededRandom } from '../dist/credential-families.js';
import { redactSecrets } from '../dist/index.js';
import { toolOutputClasses } from '../src/test-utils/tool-output.ts';

const seeds = Number(process.argv[2] ?? 40);
const perSeed = Number(process.argv[3] ?? 6);
const only = process.argv[4];
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
console.log(`${seeds} seeds x ${perSeed} samples per class: share changed (mean / max seed)\n`);
console.log('| class | samples | changed | max seed | kinds |\n|---|---:|---:|---:|---|');
const examples: string[] = [];
let total = 0;
let changedTotal = 0;
for (const [classIndex, { name, make }] of toolOutputClasses.entries()) {
  if (only && !name.includes(only)) continue;
  let changed = 0;
  let worst = 0;
  const kinds = new Map<string, number>();
  for (let seed = 1; seed <= seeds; seed++) {
    let seedChanged = 0;
    for (let index = 0; index < perSeed; index++) {
      const random = seededRandom((seed * 1_000_003 + index * 7919 + classIndex * 104_729) >>> 0);
      const text = make(random);
      const result = redactSecrets(text);
      if (result.text === text) continue;
      seedChanged++;
      for (const { kind, start, end } of result.findings) {
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        if (examples.length < 400 && only !== undefined)
          examples.push(
            `${name} | ${kind} | ${text.slice(Math.max(0, start - 40), start)}«${text.slice(start, end)}»`,
          );
      }
    }
    changed += seedChanged;
    worst = Math.max(worst, seedChanged / perSeed);
  }
  total += seeds * perSeed;
  changedTotal += changed;
  const kindList = [...kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${kind} ${count}`);
  console.log(
    `| ${name} | ${seeds * perSeed} | ${pct(changed / (seeds * perSeed))} | ${pct(worst)} | ${kindList.join(', ')} |`,
  );
}
console.log(
  `\nall classes: ${changedTotal} of ${total} samples changed (${pct(changedTotal / total)})`,
);
for (const line of examples) console.log(line);
