import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { redactSecrets } from './index.js';
import { oneOf, randomValue } from './test-utils/generated-values.js';

// YAML may start a key's plain or quoted scalar on the next, more-indented line (`password:` /
// `    <value>`). Before, only a value on the key's own line (or a block scalar) was read: a password
// there was left every time, a hex API key too.
// A password under a password-strength key; a 32-40 hex key under any secret-named key (a
// token-named key needs a random value, and short typed ones are a documented gap).
const strongKey = oneOf(['password', 'client_secret', 'db_password', 'secret_key']);
const anyKey = oneOf([
  'password',
  'api_key',
  'client_secret',
  'db_password',
  'secret_key',
  'token',
]);
const indent = oneOf(['', '  ', '    ']);
const deeper = oneOf(['  ', '    ']);
const quote = oneOf(['', '"', "'"]);
const keyed = fc.oneof(
  fc.tuple(
    strongKey,
    fc
      .tuple(randomValue([alphabets.alnum], 12, 20), oneOf(['!', '%', '#', '@', '^']))
      .map(([body, symbol]) => body.slice(0, 4) + symbol + body.slice(4)),
  ),
  fc.tuple(anyKey, randomValue([alphabets.hex], 32, 40)),
);
const value = keyed.map(([, literal]) => literal);
const document = (lead: string, name: string, inner: string, q: string, literal: string) =>
  `${lead}service: api\n${lead}${name}:\n${lead}${inner}${q}${literal}${q}\n${lead}timeout: 30\n`;

describe('a YAML value on the line after its secret-named key', () => {
  it('is redacted, and the keys around it stay (property)', () => {
    fc.assert(
      fc.property(indent, keyed, deeper, quote, (lead, [name, literal], inner, q) => {
        const text = document(lead, name, inner, q, literal);
        // Premise: the value's own line alone holds no finding.
        expect(redactSecrets(`${inner}${q}${literal}${q}`).text).toContain(literal);
        const output = redactSecrets(text).text;
        expect(output).not.toContain(literal);
        expect(output).toContain(`${lead}service: api\n${lead}${name}:\n`);
        expect(output).toContain(`${lead}timeout: 30\n`);
      }),
      { numRuns: 800 },
    );
  });

  it('is kept under a key that names no secret (control)', () => {
    fc.assert(
      fc.property(indent, deeper, quote, value, (lead, inner, q, literal) => {
        const text = document(lead, 'region_hint', inner, q, literal);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves mappings, lists, templates, paths and prose below a secret-named key', () => {
    for (const text of [
      'password:\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password\n',
      'spec:\n  token:\n    path: /var/run/secrets/x\n    ttl: 3600\n',
      'x:\n  password:\n    - a\n    - b\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template in the text under test
      'secrets:\n  db_password:\n    ${DB_PASSWORD}\n',
      'keys:\n  ssh_key:\n    ~/.ssh/id_rsa\n',
      'password:\n  must be 12 characters\n',
      'token:\n  { name: ci, scope: repo }\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template in the text under test
      'env:\n  api_key:\n    ${{ secrets.API_KEY }}\n',
    ]) {
      expect(redactSecrets(text).text).toBe(text);
    }
  });
});
