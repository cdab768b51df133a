import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';
import { ordinaryMember, pathOrdinary, variant } from './test-utils/environment-assignments.js';

const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const credential = drawn(`${alnum}-_`, 16, 64).filter(
  (value) => /\d/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value) && !/^[-_]/.test(value),
);
const name = fc.constantFrom(
  'secret_key',
  'apiToken',
  'DB_PASSWORD',
  'client_secret',
  'access_token',
  'password',
  'STRIPE_SECRET_KEY',
);
const sentences = [
  (key: string, value: string) => `use ${key} ${value} to log in`,
  (key: string, value: string) => `The ${key} ${value} expired yesterday.`,
  (key: string, value: string) => `- ${key} ${value}`,
  (key: string, value: string) => `with ${key} ${value}, then retry`,
];

describe('a value written after its name with a space, in a sentence or a list', () => {
  it('is redacted when it is generated; words, names, numbers and flags there are kept', () => {
    fc.assert(
      fc.property(name, credential, fc.nat(sentences.length - 1), (key, value, at) => {
        const { text } = redactSecrets(sentences[at]!(key, value));
        expect(text).not.toContain(value);
        expect(text).toContain(key);
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(ordinaryMember, variant, (word, pick) => {
        const text = pathOrdinary['prose, ordinary word after the name']!(word, pick);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 400 },
    );
  });
});
