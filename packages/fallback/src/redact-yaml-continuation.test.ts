import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

// YAML lets a scalar go on over more-indented lines: a plain or quoted scalar continues on the next
// line, a block scalar (`|`, `>-`) starts on it. A credential cut there must be redacted on every
// line, not only the first. Drawn without bias: biased draws repeat one character.
const drawn = (characters: string, minLength: number, maxLength: number) =>
  fc
    .noBias(fc.array(fc.integer({ min: 0, max: characters.length - 1 }), { minLength, maxLength }))
    .map((indexes) => indexes.map((index) => characters[index]).join(''));
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const piece = drawn(alphabet, 8, 24).filter(
  (value) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value),
);
const key = fc.constantFrom('password', 'api_token', 'client_secret', 'db_password', 'secret_key');
const indent = fc.constantFrom('', '  ', '    ');
const style = fc.constantFrom('plain', 'double', 'single', '|', '>-', '>', '|-');

function document(name: string, lead: string, form: string, pieces: string[]): string {
  const inner = `${lead}  `;
  const lines =
    form === 'plain'
      ? `${lead}${name}: ${pieces.join(`\n${inner}`)}`
      : form === 'double' || form === 'single'
        ? `${lead}${name}: ${form === 'double' ? '"' : "'"}${pieces.join(`\n${inner}`)}${form === 'double' ? '"' : "'"}`
        : `${lead}${name}: ${form}\n${inner}${pieces.join(`\n${inner}`)}`;
  return `${lead}service: api\n${lines}\n${lead}timeout: 30\n`;
}

describe('a credential continued over YAML lines', () => {
  it('is redacted on every line, in every scalar style (property)', () => {
    fc.assert(
      fc.property(
        key,
        indent,
        style,
        fc.array(piece, { minLength: 2, maxLength: 4 }),
        (name, lead, form, pieces) => {
          const output = redactSecrets(document(name, lead, form, pieces)).text;
          for (const part of pieces) expect(output).not.toContain(part);
          // The keys around it stay.
          expect(output).toContain('service: api');
          expect(output).toContain('timeout: 30');
        },
      ),
      { numRuns: 1500, endOnFailure: true },
    );
  });

  it('leaves the next key of a mapping and a description alone', () => {
    for (const text of [
      'auth:\n  token: $DEPLOY_TOKEN\n  user: deploy\n',
      'password:\n  length: 12\n  required: true\n',
      'secret_name: db-credentials\n  # rotated weekly\nregion: eu-west-1\n',
      'description: >\n  The password must be at least 12 characters\n  and include a digit.\n',
    ]) {
      expect(redactSecrets(text).findings).toEqual([]);
    }
  });

  it('costs linear time on many indented lines under secret keys', () => {
    const text = Array.from({ length: 20_000 }, (_, index) =>
      index % 10 === 0 ? 'password: "abc' : '  continued line',
    ).join('\n');
    expect(text.length).toBeGreaterThan(200_000);
    expect(redactSecrets(text).text.length).toBeGreaterThan(0);
  });
});
