import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { englishWords } from './test-utils/code-identifiers.js';
import { drawn } from './test-utils/drawn.js';
import {
  credentialId,
  ordinaryMember,
  pathOrdinary,
  variant,
} from './test-utils/environment-assignments.js';

const collections = [
  'tokens',
  'token',
  'keys',
  'secrets',
  'api-keys',
  'access_tokens',
  'passwords',
];
const collection = fc.constantFrom(...collections);
// Generated values with letters and digits (a run of letters alone may spell a name; short hex is
// left to the keyed judgement, as under `token=`).
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const credential = drawn(`${alnum}-_`, 20, 64).filter(
  (value) => /\d/.test(value) && /[A-Za-z]/.test(value) && !/^[-_]|[-_]$/.test(value),
);
const fileName = fc
  .noBias(fc.array(fc.constantFrom(...englishWords), { minLength: 2, maxLength: 4 }))
  .map((words) => words.join('_'));
const places = [
  (name: string, value: string) => `DELETE https://api.example.com/v1/${name}/${value}`,
  (name: string, value: string) =>
    `curl -s https://vault.internal:8200/v1/auth/${name}/${value}/revoke`,
  (name: string, value: string) => `GET /v1/${name}/${value} 200`,
  (name: string, value: string) => `see https://example.com/api/${name}/${value}?verbose=1`,
];

describe('a credential right after the path segment naming its collection', () => {
  it('is redacted in a URL or an API path; ids, routes, names and files there are kept', () => {
    fc.assert(
      fc.property(collection, credential, fc.nat(places.length - 1), (name, value, at) => {
        const text = places[at]!(name, value);
        expect(redactSecrets(text).text).not.toContain(value);
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.oneof(ordinaryMember, credentialId), variant, (member, pick) => {
        const text = pathOrdinary['URL path, ordinary member']!(member, pick);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 400 },
    );
    // `/run/secrets/<file>` names a file.
    fc.assert(
      fc.property(collection, fileName, (name, file) => {
        const text = `cat /run/${name}/${file}`;
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
