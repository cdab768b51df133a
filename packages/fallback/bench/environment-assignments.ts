/**
 * Variables set through shells, container files and deploy tools (fish `set -gx`, csh `setenv`,
 * Dockerfile `ENV`/`ARG`, PowerShell, cmd, `docker run -e`, `kubectl --from-literal`, `helm --set`,
 * ...; `src/test-utils/environment-assignments.ts`): per syntax, the share of random secret values
 * under secret names left in the clear, and the share of ordinary settings (references, paths,
 * URLs, words, numbers) that redaction changes.
 * Run: pnpm build && node bench/environment-assignments.ts [seeds=40] [perSeed=50]
 */
import fc from 'fast-check';
import { redactSecrets } from '../dist/index.js';
import { keyIsSecret } from '../dist/secret-rules.js';
import {
  credentialId,
  ordinaryMember,
  ordinaryName,
  ordinaryValue,
  pathOrdinary,
  pathSyntaxes,
  referenceValue,
  secretName,
  secretValue,
  syntaxes,
  variant,
} from '../src/test-utils/environment-assignments.ts';

const seeds = Number(process.argv[2] ?? 40);
const perSeed = Number(process.argv[3] ?? 50);
const isSecret = (name: string) => keyIsSecret(name) !== undefined;
const named = secretName(isSecret);
const plainName = ordinaryName(isSecret);
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;

/** Mean, min and max over seeds of the share of draws for which `hit` holds. */
function rate<T>(arbitrary: fc.Arbitrary<T>, hit: (draw: T) => boolean, label: string): number {
  const perSeedRates: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const draws = fc.sample(arbitrary, { seed: seed * 7919, numRuns: perSeed });
    perSeedRates.push(draws.filter(hit).length / draws.length);
  }
  perSeedRates.sort((a, b) => a - b);
  const mean = perSeedRates.reduce((a, b) => a + b, 0) / seeds;
  console.log(
    `| ${label} | ${pct(mean)} | ${pct(perSeedRates[0]!)} | ${pct(perSeedRates.at(-1)!)} |`,
  );
  return mean;
}

console.log(`${seeds} seeds x ${perSeed} draws (mean / min seed / max seed)\n`);
console.log('| secret left in the clear | mean | min | max |\n|---|---:|---:|---:|');
const secretRates: number[] = [];
for (const [label, write] of Object.entries(syntaxes)) {
  secretRates.push(
    rate(
      fc.tuple(named, secretValue, variant),
      ([name, value, pick]) => redactSecrets(write(name, value, pick)).text.includes(value),
      label,
    ),
  );
}
for (const [label, write] of Object.entries(pathSyntaxes)) {
  rate(
    fc.tuple(secretValue, variant),
    ([value, pick]) => redactSecrets(write(value, pick)).text.includes(value),
    label,
  );
}
console.log(
  `\nall assignment syntaxes: ${pct(secretRates.reduce((a, b) => a + b, 0) / secretRates.length)}`,
);

console.log('\n| ordinary setting changed | mean | min | max |\n|---|---:|---:|---:|');
const ordinaryRates: number[] = [];
const changed = (text: string) => redactSecrets(text).text !== text;
for (const [label, write] of Object.entries(syntaxes)) {
  const draw = fc.oneof(
    fc.tuple(plainName, ordinaryValue, variant),
    fc.tuple(named, referenceValue, variant),
  );
  ordinaryRates.push(rate(draw, ([name, value, pick]) => changed(write(name, value, pick)), label));
}
for (const [label, write] of Object.entries(pathOrdinary)) {
  // A UUID in a path is a credential's id; in prose after the name it may be the key (Heroku).
  const member = label.startsWith('prose')
    ? ordinaryMember
    : fc.oneof(ordinaryMember, credentialId);
  rate(fc.tuple(member, variant), ([value, pick]) => changed(write(value, pick)), label);
}
console.log(
  `\nall ordinary settings: ${pct(ordinaryRates.reduce((a, b) => a + b, 0) / ordinaryRates.length)}`,
);
