import fc from 'fast-check';
import { expect, it } from 'vitest';
import { redactSecrets } from './index.js';

/**
 * A slot named in words between square brackets (`[password]`, `[YOUR API KEY]`) is a template to
 * fill in, as `<your-key>` and `{password}` are; a bracketed literal with digits or symbols is not.
 */
const word = fc.constantFrom(
  'password',
  'db',
  'your',
  'api',
  'key',
  'token',
  'secret',
  'pass',
  'here',
);
const places = [
  (value: string) => `postgres://admin:${value}@db.internal:5432/app`,
  (value: string) => `password: ${value}`,
  (value: string) => JSON.stringify({ db_password: value }),
  (value: string) => `export DB_PASSWORD="${value}"`,
];

it('leaves a bracketed slot named in words alone', () => {
  // Words joined by `_` or `-`: unquoted, a space ends the value before the closing bracket.
  const slot = fc
    .tuple(
      fc.noBias(fc.array(word, { minLength: 1, maxLength: 3 })),
      fc.constantFrom('_', '-'),
      fc.boolean(),
    )
    .map(([words, joiner, upper]) => {
      const name = words.join(joiner);
      return `[${upper ? name.toUpperCase() : name}]`;
    });
  // Every slot in every place: the places are few.
  for (const value of fc.sample(slot, 100)) {
    for (const place of places) expect(redactSecrets(place(value)).text).toBe(place(value));
  }
});

it('still redacts a bracketed literal holding digits or symbols in the same places', () => {
  const literal = fc
    .noBias(fc.stringMatching(/^[A-Za-z]{6,10}[0-9]{2,4}[!#%&*]{1,2}$/))
    .map((password) => `[${password}]`);
  fc.assert(
    fc.property(literal, fc.nat(places.length - 1), (value, at) => {
      expect(redactSecrets(places[at]!(value)).text).not.toContain(value.slice(1, -1));
    }),
    { numRuns: 300 },
  );
});
