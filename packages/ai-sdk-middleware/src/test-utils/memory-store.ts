import { createSessionStore, type SessionStore } from '@baton/sessions';
import { afterAll, beforeAll } from 'vitest';

/**
 * An in-memory PGlite store opened before the file's tests and closed after them; call at the top
 * level of a test file and read the store through the returned function.
 */
export function memoryStore(): () => SessionStore {
  let store: SessionStore | undefined;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });
  return () => {
    if (store === undefined) throw new Error('the memory store is opened in beforeAll');
    return store;
  };
}
