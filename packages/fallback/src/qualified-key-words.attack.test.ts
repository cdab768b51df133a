import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';
import { oneOf } from './test-utils/generated-values.js';

/**
 * Attack suite (reviewer, wt-attack4): the words that make `key` or `token` name no credential
 * (`sort_key`, `max_tokens`, `public_key`) exempted every key holding one of them anywhere:
 * `REGISTRY_PASSWORD`, `INPUT_PASSWORD` (a GitHub Action's input), `NODE_AUTH_TOKEN` (npm's
 * publish token in CI), `registry_token`, Azure's `primaryKey`, and with the dotted-key reading
 * `docker.registry.token`. On wt-lead 100 % of drawn 32-character secrets under such names stayed in
 * the clear (bench/exemption-leaks.ts), against 0 % under `API_TOKEN`.
 */
const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const secret = drawn(alphanumeric, 24, 40);

// A word that qualifies `key` or `token` somewhere, then a credential's word it does not qualify.
const qualifier = oneOf([
  'registry',
  'input',
  'output',
  'node',
  'cache',
  'primary',
  'max',
  'table',
  'routing',
  'public',
]);
const credentialTail = oneOf([
  ['password'],
  ['secret'],
  ['passphrase'],
  ['auth', 'token'],
  ['access', 'key'],
  ['api', 'token'],
]);
// Structure words name a key, not a token; counts of tokens are plural.
const structureToken = oneOf(['registry', 'node', 'cache', 'item', 'map']).map((word) => [
  word,
  'token',
]);
const singularCountToken = oneOf(['input', 'output', 'prompt']).map((word) => [word, 'token']);

const nameParts = fc.oneof(
  fc.tuple(qualifier, credentialTail).map(([word, tail]) => [word, ...tail]),
  structureToken,
  singularCountToken,
  fc.constant<string[]>(['primary', 'key']),
);

const styles = [
  (parts: string[]) => parts.join('_').toUpperCase(),
  (parts: string[]) => parts.join('_'),
  (parts: string[]) =>
    parts.map((part, at) => (at === 0 ? part : part[0]!.toUpperCase() + part.slice(1))).join(''),
  (parts: string[]) => `service.${parts.join('.')}`,
];
const syntaxes = [
  (name: string, value: string) => `${name}=${value}`,
  (name: string, value: string) => `"${name}": "${value}",`,
  (name: string, value: string) => `  ${name}: ${value}`,
  (name: string, value: string) => `export ${name}='${value}'`,
];

describe('attack: a word qualifying key or token does not exempt other credential words', () => {
  it('a drawn secret under REGISTRY_PASSWORD-, NODE_AUTH_TOKEN-, INPUT_TOKEN-like names is redacted', () => {
    fc.assert(
      fc.property(
        nameParts,
        oneOf(styles),
        oneOf(syntaxes),
        secret,
        (parts, style, syntax, value) => {
          // The same value under a plain credential's name must be one the rules redact.
          fc.pre(!redactSecrets(syntax('API_TOKEN', value)).text.includes(value));
          return !redactSecrets(syntax(style(parts), value)).text.includes(value);
        },
      ),
      { numRuns: 300 },
    );
    // Control (kept on the old code too): what keys of the qualified names hold in ordinary output.
    const kept = [
      ['sort_key', 'user#1042'],
      ['"cacheKey"', '"v1-deps-linux"'],
      ['max_tokens', '4096'],
      ['"input_tokens"', '1523'],
      ['"cache_read_input_tokens"', '88'],
      ['tokens_used', '912'],
      ['"csrf_token"', '"placeholder"'],
    ];
    for (const [key, value] of kept) {
      const text = `${key}: ${value}`;
      expect(redactSecrets(text).text).toBe(text);
    }
  });
});
