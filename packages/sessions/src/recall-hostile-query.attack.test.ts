import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSessionStore } from './create-session-store.js';
import type { SessionStore } from './types.js';

/**
 * Attack (reviewer): queries built from LIKE, regex and tsquery metacharacters, quotes, NUL, lone
 * surrogates and arbitrary code units. Held: each gives matches or a typed error, and the
 * metacharacters match only themselves.
 */
let store: SessionStore;
beforeAll(async () => {
  store = await createSessionStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '%',
        '_',
        '\\',
        '\\\\',
        '!',
        '&',
        '|',
        '(',
        ')',
        ':*',
        '<->',
        "'",
        '"',
        '\u0000',
        '\ud800',
        '\udfff',
        '*',
        '[',
        '$1',
        ' ',
      ),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((parts) => parts.join(''));

it('hostile queries give a result or a typed error, never a crash', async () => {
  const root = await store.createSession();
  const needle = `n${randomInt(1e9)}`;
  await store.appendMessages(
    root.id,
    [
      { role: 'user', content: `100% done_with \\path ${needle} !& | (x) it's "q"` },
      { role: 'user', content: `1000 doneXwith Xpath ${needle} its q` },
    ],
    { startSequence: 0 },
  );
  await fc.assert(
    fc.asyncProperty(hostile, async (query) => {
      try {
        const result = await store.recall(root.id, { query });
        expect(Array.isArray(result.matches)).toBe(true);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'recall_query' && code !== 'invalid_input') throw error;
      }
    }),
    { numRuns: 150 },
  );
  // LIKE and tsquery metacharacters are literal: `%`, `_`, `\\` match only where they are
  for (const query of ['100%', 'done_with', '\\path', "it's"]) {
    const { matches } = await store.recall(root.id, { query });
    expect(
      matches.map((match) => match.sequence),
      query,
    ).toEqual([0]);
  }
}, 240_000);
