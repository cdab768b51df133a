/**
 * Lists every dev-fixture row the redactor gets wrong (missed `secret`, flagged `not-secret`) with
 * its source and rule, plus recall / false positives per source and for two held-apart halves
 * (rows split by a hash of their rule id, or with `--by-row` of their text). Development aid only:
 * prints to stdout, never writes fixture text to the repository.
 * Run: pnpm build && node bench/list-misses.ts [--quiet]
 */
import { createHash } from 'node:crypto';
import { loadSecretFixtures } from '@baton/test-corpus';
import { redactSecrets } from '../dist/index.js';

const quiet = process.argv.includes('--quiet');
const rows = loadSecretFixtures();
interface Tally {
  secrets: number;
  caught: number;
  clean: number;
  flagged: number;
}
const tallies = new Map<string, Tally>();
const bump = (name: string, secret: boolean, right: boolean) => {
  const tally = tallies.get(name) ?? { secrets: 0, caught: 0, clean: 0, flagged: 0 };
  tallies.set(name, tally);
  if (secret) {
    tally.secrets++;
    if (right) tally.caught++;
  } else {
    tally.clean++;
    if (!right) tally.flagged++;
  }
};
// `--by-row` splits rows by a hash of their text (like the held-out file, which was split by
// value within each rule); the default splits by rule id, so a rule family is wholly on one side.
const byRow = process.argv.includes('--by-row');
const half = (rule: string, text: string) =>
  (createHash('sha1')
    .update(byRow ? text : rule)
    .digest()[0]! &
    1) ===
  0
    ? 'half A'
    : 'half B';
const short = (text: string) => JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text);

for (const row of rows) {
  const result = redactSecrets(row.text);
  const secret = row.expect === 'secret';
  const right = secret
    ? row.secret_spans
      ? row.secret_spans.every((span) => !result.text.includes(span))
      : result.findings.length > 0
    : result.findings.length === 0;
  const source = row.source.split('@')[0]!;
  for (const name of ['total', source, half(row.rule, row.text)]) bump(name, secret, right);
  if (!right && !quiet) {
    console.log(
      `${secret ? 'MISS' : 'FP  '} [${half(row.rule, row.text)}] ${source} ${row.rule} ${row.source.split(':').at(-1)}`,
    );
    console.log(`     text: ${short(row.text)}`);
    if (!secret) {
      for (const finding of result.findings) {
        console.log(`     ${finding.kind}: ${short(row.text.slice(finding.start, finding.end))}`);
      }
    }
  }
}
for (const [name, tally] of tallies) {
  console.log(
    `${name.padEnd(24)} recall ${((100 * tally.caught) / tally.secrets).toFixed(1)} % (${tally.secrets - tally.caught}/${tally.secrets} missed)  FP ${((100 * tally.flagged) / tally.clean).toFixed(1)} % (${tally.flagged}/${tally.clean})`,
  );
}
