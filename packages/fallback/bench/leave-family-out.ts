/**
 * Leave-family-out over the secret-scanner fixtures: each fixture row is assigned to the family its
 * source file names (a gitleaks rule file, a secretlint rule package, a detect-secrets plugin), and
 * the built-in rule kinds named after that family are switched off when it is scored. What is still
 * caught is caught by the generic layers (vendor-prefix shape, key names, headers, URLs, entropy)
 * or by other families' rules: the reading of recall on a family no rule was written for.
 */
import type { SecretFixture } from '@baton/test-corpus';
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
