import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { redactSecrets } from './index.js';
import { oneOf, randomValue } from './test-utils/generated-values.js';

// A typed declaration puts a type between a secret-named variable and its literal (TypeScript,
// Kotlin, Swift, Scala, Rust). Before, the pair `apiKey: string` was read as key and value, the
// type rejected, and the literal after `=` left in the clear, whatever it was.
const secretName = oneOf([
  'apiKey',
  'API_KEY',
  'clientSecret',
  'password',
  'authToken',
  'dbPassword',
]);
const type = oneOf([
  'string',
  'String',
  'String?',
  '&str',
  "&'static str",
  'string | undefined',
  'Option<String>',
  'Secret[]',
]);
const lead = oneOf(['const ', 'let ', 'val ', 'var ', 'static ', 'private readonly ', '']);
const quote = oneOf(['"', "'"]);
// 16-20 characters: below the length the unkeyed shapes take alone, so the name must do the
// work, and above the 10-12 characters a token-named key may take for typed (a documented gap).
const value = fc
  .tuple(randomValue([alphabets.alnum], 16, 20), oneOf(['', '!', '%', '#', '*']))
  .map(([body, symbol]) => body.slice(0, 5) + symbol + body.slice(5));
const declaration = (head: string, name: string, kind: string, q: string, literal: string) =>
  `${head}${name}: ${kind} = ${q}${literal}${q};`;

describe('a literal in a typed declaration under a secret name', () => {
  it('is redacted (property)', () => {
    let unkeyedAlone = 0;
    let runs = 0;
    fc.assert(
      fc.property(lead, secretName, type, quote, value, (head, name, kind, q, literal) => {
        runs++;
        // Premise: the value alone is not found; the declaration is what makes it a secret.
        if (redactSecrets(literal).findings.length === 0) unkeyedAlone++;
        const output = redactSecrets(declaration(head, name, kind, q, literal)).text;
        expect(output).not.toContain(literal);
        // The declaration around it stays.
        expect(output).toContain(`${name}: ${kind} = ${q}`);
      }),
      { numRuns: 600 },
    );
    expect(unkeyedAlone / runs).toBeGreaterThan(0.9);
  });

  it('is kept under a name that is no secret (control)', () => {
    fc.assert(
      fc.property(lead, type, quote, value, (head, kind, q, literal) => {
        const text = declaration(head, 'displayName', kind, q, literal);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps labels, headers, URLs, templates and empty strings under secret names', () => {
    for (const text of [
      'const tokenType: string = "Bearer";',
      'const passwordLabel: string = "Password";',
      'const apiKeyHeader: string = "x-api-key";',
      'let token: string = "";',
      'private val tokenUrl: String = "https://auth.example.com/token"',
      'const passwordHint: string = "Use at least 12 characters";',
      'const apiKey: string = process.env.API_KEY ?? "";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template in the text under test
      'let secret: string = "${SECRET}";',
      'function check(password: string = "") {}',
      'type Options = { token?: string; apiKey: string };',
      // A type after the name is no value, with or without an initializer.
      'var password: String?',
      'val clientSecret: String? = null',
      'let token: Option<String> = None;',
      'private var apiKeys: [String]? = nil',
    ]) {
      expect(redactSecrets(text).text).toBe(text);
    }
  });
});
