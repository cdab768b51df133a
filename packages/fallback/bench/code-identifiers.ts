/**
 * Code identifiers and lines of code, drawn from English words (`src/test-utils/code-identifiers.ts`),
 * and random tokens of the same length and alphabet: the share of each that `redactSecrets` changes.
 * Run: pnpm build && node bench/code-identifiers.ts [seeds=40] [perSeed=250]
 */
import { alphabets, pick, seededRandom } from '../dist/credential-families.js';
import { redactSecrets } from '../dist/index.js';
import {
  codeIdentifier,
  codeLine,
  identifierStyles,
  lineKinds,
} from '../src/test-utils/code-identifiers.ts';

const seeds = Number(process.argv[2] ?? 40);
const perSeed = Number(process.argv[3] ?? 250);
const rates = (label: string, draw: (seed: number, index: number) => boolean) => {
  const perSeedRates: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    let hits = 0;
    for (let index = 0; index < perSeed; index++) if (draw(seed, index)) hits++;
    perSeedRates.push(hits / perSeed);
  }
  perSeedRates.sort((a, b) => a - b);
  const mean = perSeedRates.reduce((a, b) => a + b, 0) / seeds;
  const pct = (value: number) => `${(value * 100).toFixed(2)} %`;
  console.log(
    `| ${label} | ${pct(mean)} | ${pct(perSeedRates[0]!)} | ${pct(perSeedRates[seeds - 1]!)} |`,
  );
};
const random = (seed: number, index: number, salt: number) =>
  seededRandom((seed * 1_000_003 + index * 7919 + salt * 104_729) >>> 0);

console.log(`${seeds} seeds x ${perSeed}: share changed (mean / min seed / max seed)\n`);
console.log('| drawn | mean | min | max |\n|---|---:|---:|---:|');
const samples = new Map<string, string[]>();
const note = (label: string, value: string) => {
  const list = samples.get(label) ?? [];
  if (list.length < 6) list.push(value);
  samples.set(label, list);
};
for (const [styleIndex, style] of identifierStyles.entries()) {
  rates(`identifier, ${style}`, (seed, index) => {
    const name = codeIdentifier(random(seed, index, styleIndex), style);
    const changed = redactSecrets(name).text !== name;
    if (changed) note(style, name);
    return changed;
  });
}
for (const [kindIndex, kind] of lineKinds.entries()) {
  rates(`line, ${kind}`, (seed, index) => {
    const { line } = codeLine(random(seed, index, 10 + kindIndex), kind);
    const changed = redactSecrets(line).text !== line;
    if (changed) note(kind, line);
    return changed;
  });
}
// The other direction: random values of the alphabets and lengths tokens are drawn in.
const kept = (
  label: string,
  make: (seed: number, index: number) => { text: string; secret: string },
) =>
  rates(label, (seed, index) => {
    const { text, secret } = make(seed, index);
    const leaked = redactSecrets(text).text.includes(secret);
    if (leaked) note(label, secret);
    return leaked;
  });
console.log('\nLeft in the clear (should be ~0):\n');
console.log('| drawn | mean | min | max |\n|---|---:|---:|---:|');
kept('base62 40 alone', (seed, index) => {
  const secret = pick(random(seed, index, 30), alphabets.alnum, 40);
  return { text: `value ${secret} here`, secret };
});
kept('base62 20-32 after made-up prefix', (seed, index) => {
  const r = random(seed, index, 31);
  const secret = `${pick(r, 'abcdefghijklmnopqrstuvwxyz', 3)}_${pick(r, alphabets.alnum, 20 + Math.floor(r.next() * 13))}`;
  return { text: `token ${secret}`, secret };
});
kept('base62 24 alone', (seed, index) => {
  const secret = pick(random(seed, index, 32), alphabets.alnum, 24);
  return { text: `got ${secret} back`, secret };
});
kept('password=<Words+digit>', (seed, index) => {
  const r = random(seed, index, 33);
  const words = [
    'Correct',
    'Horse',
    'Battery',
    'Staple',
    'Purple',
    'Monkey',
    'Dish',
    'Winter',
    'Garden',
    'River',
  ];
  const secret = `${words[Math.floor(r.next() * 10)]}${words[Math.floor(r.next() * 10)]}${words[Math.floor(r.next() * 10)]}${Math.floor(r.next() * 100)}`;
  return { text: `password=${secret}`, secret };
});
for (const [label, list] of samples) console.log(`\n${label}: ${list.join('  ')}`);
