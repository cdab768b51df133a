import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { redactSecrets } from './index.js';
import { oneOf, pronounceableWord, randomValue } from './test-utils/generated-values.js';

// A string literal that ends with a secret word and a separator (`"password:" + id`,
// `'token=' + encodeURIComponent(t)`) is a prefix built in code. Before, the quote closing it was
// read as a value's opening quote and the code after it, to the end of the line, was redacted.
const word = oneOf(['password', 'secret', 'token', 'api_key', 'session']);
const sep = oneOf([':', '=', ': ', '= ']);
const quote = oneOf(['"', "'"]);
const operator = oneOf(['+', ' + ', ' +', '.', ', ']);
const variable = pronounceableWord;

describe('a secret word ending a string literal in code', () => {
  it('leaves the code after the string alone (property)', () => {
    fc.assert(
      fc.property(
        word,
        sep,
        quote,
        operator,
        variable,
        pronounceableWord,
        (name, s, q, op, v, call) => {
          const text = `${call}(${q}${name}${s}${q}${op}${v})`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 800 },
    );
  });

  it('still redacts a literal value after the key (control)', () => {
    fc.assert(
      fc.property(
        oneOf(['password', 'secret', 'client_secret']),
        quote,
        randomValue([alphabets.alnum], 12, 20),
        pronounceableWord,
        (name, q, value, call) => {
          // The key inside a string, its value quoted with the other quote, as in a JSON body.
          const other = q === '"' ? "'" : '"';
          for (const text of [
            `${call}(${q}${name}=${other}${value}${other}${q})`,
            `${name}=${q}${value}${q}`,
            `{${q}${name}${q}: ${q}${value}${q}}`,
            `echo ${q}${name}=${value}${q}`,
          ]) {
            expect(redactSecrets(text).text, text).not.toContain(value);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is not confused by an apostrophe in prose: it's password='…'", () => {
    expect(redactSecrets("it's password='Tiger172@x'").text).not.toContain('Tiger172@x');
  });
});
