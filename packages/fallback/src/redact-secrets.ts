import { InvalidInputError } from '@baton/tokens';
import { contextRules, findKeyedSecrets, type SecretRule, vendorRules } from './secret-rules.js';

/** One secret found: its kind and its position in the ORIGINAL text (end exclusive). */
export interface SecretFinding {
  kind: string;
  start: number;
  end: number;
}

export interface RedactSecretsResult {
  /** The text with every finding replaced. */
  text: string;
  /** Findings in order of position; never carries the secret value itself. */
  findings: SecretFinding[];
}

export interface RedactSecretsOptions {
  /**
   * Replacement for one finding. Default: `[REDACTED:<kind>]`. Receives the kind only, never the
   * value, so a custom replacement cannot leak it by accident.
   */
  replacement?: (kind: string) => string;
  /** Detect `key = value` pairs whose key names a secret (password, token, api_key, ...). Default: true. */
  keyValuePairs?: boolean;
  /** Extra rules run alongside the built-in ones (global regexes; named group `secret` = span). Default: none. */
  extraRules?: readonly SecretRule[];
}

const defaultReplacement = (kind: string) => `[REDACTED:${kind}]`;

interface Span {
  kind: string;
  start: number;
  end: number;
}

function runRule(rule: SecretRule, text: string, spans: Span[]): void {
  if (!rule.pattern.global) {
    throw new InvalidInputError({
      path: `extraRules.${rule.kind}`,
      message: 'pattern must have the g flag',
    });
  }
  rule.pattern.lastIndex = 0;
  for (let match = rule.pattern.exec(text); match; match = rule.pattern.exec(text)) {
    if (match[0].length === 0) {
      rule.pattern.lastIndex++;
      continue;
    }
    const value = match.groups?.secret ?? match[0];
    if (rule.accept && !rule.accept(value, match)) continue;
    const offset = match.groups?.secret === undefined ? 0 : match[0].lastIndexOf(value);
    spans.push({
      kind: rule.kind,
      start: match.index + offset,
      end: match.index + offset + value.length,
    });
  }
}

/** Merges overlapping spans; the longest span of a cluster names its kind. */
function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      if (span.end - span.start > last.end - last.start) last.kind = span.kind;
      last.end = Math.max(last.end, span.end);
    } else {
      merged.push({ ...span });
    }
  }
  return merged;
}

/**
 * Replaces secrets in `text`: vendor keys (OpenAI, Anthropic, GitHub, GitLab, Slack, AWS, Google,
 * Stripe, ...), JWTs, PEM private keys, Authorization/Bearer/api-key headers, credentials in URLs
 * and curl flags, and values whose key names a secret. Leaves git SHAs, UUIDs, hashes, paths,
 * placeholders and identifiers alone.
 */
export function redactSecrets(
  text: string,
  options: RedactSecretsOptions = {},
): RedactSecretsResult {
  if (typeof text !== 'string') {
    throw new InvalidInputError({ path: 'text', message: `expected a string, got ${typeof text}` });
  }
  const replacement = options.replacement ?? defaultReplacement;
  const spans: Span[] = [];
  // Cheap pre-check: short texts without digits or long runs rarely hold a secret, but the rules are
  // fast enough that we only skip the empty string.
  if (text.length === 0) return { text, findings: [] };
  for (const rule of vendorRules) runRule(rule, text, spans);
  for (const rule of contextRules) runRule(rule, text, spans);
  if (options.keyValuePairs !== false) spans.push(...findKeyedSecrets(text));
  for (const rule of options.extraRules ?? []) runRule(rule, text, spans);
  if (spans.length === 0) return { text, findings: [] };
  const findings = mergeSpans(spans);
  let output = '';
  let cursor = 0;
  for (const finding of findings) {
    output += text.slice(cursor, finding.start) + replacement(finding.kind);
    cursor = finding.end;
  }
  output += text.slice(cursor);
  return { text: output, findings };
}
