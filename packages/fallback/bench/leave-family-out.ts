/**
 * Leave-family-out over the secret-scanner fixtures: each fixture row is assigned to the family its
 * source file names (a gitleaks rule file, a secretlint rule package, a detect-secrets plugin), and
 * the built-in rule kinds named after that family are switched off when it is scored. What is still
 * caught is caught by the generic layers (vendor-prefix shape, key names, headers, URLs, entropy)
 * or by other families' rules: the reading of recall on a family no rule was written for.
 * Run alone (`pnpm build && node bench/leave-family-out.ts [--rows]`) it prints both readings and
 * the families still missed; `--rows` also prints each missed or flagged row's text to stdout
 * (a development aid: never write fixture text into the repository).
 */
import { pathToFileURL } from 'node:url';
import { loadSecretFixtures, type SecretFixture } from '@baton/test-corpus';
import type { RedactSecretsOptions, RedactSecretsResult } from '../dist/index.js';
import { redactSecrets } from '../dist/index.js';
import { contextRules, vendorRules } from '../dist/secret-rules.js';

/** The family a fixture row belongs to, from its source path. */
export function familyOf(row: Pick<SecretFixture, 'source'>): string {
  const path = row.source.split(':')[1] ?? '';
  const secretlint = /secretlint-rule-([\w-]+)/.exec(path)?.[1];
  if (secretlint) return `secretlint:${secretlint}`;
  const file = path
    .split('/')
    .at(-1)!
    .replace(/(?:_test)?\.(?:go|py)$/, '')
    .replace(/#.*$/, '');
  return `${row.source.split('/')[0]}:${file}`;
}

// Kinds reported by finders outside the rule lists (Kubernetes Secret blocks, headless PEM bodies,
// command-line passwords).
const finderKinds = ['kubernetes-secret', 'private-key', 'cli-password'];
const builtInKinds = [
  ...new Set([...vendorRules, ...contextRules].map((rule) => rule.kind).concat(finderKinds)),
];
const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Kinds that describe a format or a context rather than an issuer: JWTs, PEM private keys,
 * credentials in curl flags and URLs, key names, and the generic token shapes. A family named like
 * one of them (gitleaks' `jwt`, `curl`, `private-key`) keeps it in the `vendor` reading.
 */
export const structuralKinds = new Set([
  'jwt',
  'private-key',
  'curl-credentials',
  'curl-header',
  'url-credentials',
  'high-entropy-string',
  'password',
  'secret',
  'prefixed-token',
  'generated-token',
]);

/**
 * Built-in rule kinds written from `family` (their name and the family's share a stem). `strict`
 * also switches off structural kinds named like the family; otherwise only issuer rules go.
 */
export function ownKinds(family: string, strict = true): string[] {
  const stem = squash(family.split(':')[1]!.replace(/_?key$|token$/, ''));
  if (stem.length < 3) return [];
  return builtInKinds.filter((kind) => {
    if (!strict && structuralKinds.has(kind)) return false;
    const head = squash(kind.split('-')[0]!);
    return head.length >= 3 && (stem.startsWith(head) || head.startsWith(stem));
  });
}

export interface LeaveFamilyOutScore {
  families: number;
  rows: number;
  caught: number;
  /** `family missed/rows` for each family with a row missed. */
  misses: string[];
  negatives: number;
  flaggedNegatives: number;
}

/**
 * Scores `fixtures` with each row's own kinds switched off (`ownKinds(family, strict)`); rows of
 * families no kind is named after are left out. `onRow` sees each scored row and its result.
 */
export function leaveFamilyOut(
  fixtures: readonly SecretFixture[],
  strict: boolean,
  redact: (text: string, options: RedactSecretsOptions) => RedactSecretsResult = redactSecrets,
  onRow?: (row: SecretFixture, result: RedactSecretsResult, right: boolean) => void,
): LeaveFamilyOutScore {
  const ablation = new Map<string, { rows: number; caught: number }>();
  let negatives = 0;
  let flaggedNegatives = 0;
  for (const row of fixtures) {
    const family = familyOf(row);
    const kinds = ownKinds(family, strict);
    if (kinds.length === 0) continue;
    const result = redact(row.text, { disabledKinds: kinds });
    if (row.expect !== 'secret') {
      negatives++;
      if (result.findings.length > 0) flaggedNegatives++;
      onRow?.(row, result, result.findings.length === 0);
      continue;
    }
    const entry = ablation.get(family) ?? { rows: 0, caught: 0 };
    ablation.set(family, entry);
    entry.rows++;
    const hit = row.secret_spans
      ? row.secret_spans.every((span) => !result.text.includes(span))
      : result.findings.length > 0;
    if (hit) entry.caught++;
    onRow?.(row, result, hit);
  }
  const rows = [...ablation.values()].reduce((sum, entry) => sum + entry.rows, 0);
  const caught = [...ablation.values()].reduce((sum, entry) => sum + entry.caught, 0);
  const misses = [...ablation]
    .filter(([, entry]) => entry.caught < entry.rows)
    .map(([family, entry]) => `${family} ${entry.rows - entry.caught}/${entry.rows}`);
  return { families: ablation.size, rows, caught, misses, negatives, flaggedNegatives };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const fixtures = loadSecretFixtures();
  const showRows = process.argv.includes('--rows');
  const short = (text: string) =>
    JSON.stringify(text.length > 240 ? `${text.slice(0, 240)}…` : text);
  for (const strict of [false, true]) {
    const score = leaveFamilyOut(fixtures, strict, redactSecrets, (row, result, right) => {
      if (right || !showRows || !strict) return;
      const secret = row.expect === 'secret';
      console.log(`${secret ? 'MISS' : 'FP  '} ${familyOf(row)} ${row.rule}: ${short(row.text)}`);
      for (const finding of result.findings) {
        console.log(`     ${finding.kind}: ${short(row.text.slice(finding.start, finding.end))}`);
      }
    });
    const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
    console.log(
      `${strict ? 'strict' : 'issuer rules off'}: ${score.families} families, recall ${percent(score.caught, score.rows)} (${score.rows - score.caught}/${score.rows} missed), false positives ${percent(score.flaggedNegatives, score.negatives)} (${score.flaggedNegatives}/${score.negatives})`,
    );
    console.log(`  missed: ${score.misses.join(', ') || 'none'}`);
  }
}
