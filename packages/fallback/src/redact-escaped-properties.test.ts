import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

const value = fc.stringMatching(/^[A-HJ-NP-Za-km-z2-9]{14,24}$/);
const word = fc.stringMatching(/^[bcdfghjklmnpqrstvwz]{2}[aeiou][bcdfghjklmnpqrstvwz]{2}$/);
// Text built from the forms the escaped-view scan, subscripts and passphrases handle, nested in
// JSON strings 0-3 times: the secret must go, and redacting again must find nothing more.
const piece = fc.oneof(
  value.map((v) => ({ text: `config["db_password"] = "${v}"`, secret: v })),
  value.map((v) => ({ text: `{"user":"bob","client_secret":"${v}"}`, secret: v })),
  fc.array(word, { minLength: 2, maxLength: 5 }).map((words) => ({
    text: `password: ${words.join(' ')}\nport: 5432`,
    secret: words.join(' '),
  })),
  fc.constantFrom('ok', 'let token = Key::from_slice(&raw);', 'PORT=5432').map((text) => ({
    text,
    secret: undefined,
  })),
);

describe('redaction of escaped and nested text (properties)', () => {
  it('removes every secret at any nesting depth, is idempotent, and reports ordered findings', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 3 }),
        (pieces, depth) => {
          let text = pieces.map((item) => item.text).join('\n');
          for (let level = 0; level < depth; level++) text = JSON.stringify({ stdout: text });
          const once = redactSecrets(text);
          for (const item of pieces) {
            if (item.secret !== undefined) expect(once.text).not.toContain(item.secret);
          }
          expect(once.text.split('5432').length).toBe(text.split('5432').length);
          let previousEnd = 0;
          for (const finding of once.findings) {
            expect(finding.start).toBeGreaterThanOrEqual(previousEnd);
            expect(finding.end).toBeLessThanOrEqual(text.length);
            previousEnd = finding.end;
          }
          expect(redactSecrets(once.text)).toEqual({ text: once.text, findings: [] });
        },
      ),
      { numRuns: 300 },
    );
  });
});
