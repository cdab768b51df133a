import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSessionStore,
  describeSessionId,
  SessionExistsError,
  SessionNotFoundError,
  type SessionStore,
} from './index.js';

/**
 * Attack (reviewer): store errors echo the session id verbatim. Apps derive ids from request data
 * (`getSessionId` reads headers), so an id can be a credential sent in the wrong header; the
 * standards say error messages never echo a secret or a raw input value. Validation errors here
 * already describe by kind (`id: must not contain a NUL character`); not-found and duplicate
 * errors do not.
 */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const secretId = () =>
  `sk_live_${Array.from({ length: 24 }, () => alnum[randomInt(alnum.length)]).join('')}`;

let store: SessionStore;
beforeAll(async () => {
  store = await createSessionStore();
}, 30_000);
afterAll(async () => {
  await store.close();
});

async function messageOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return '(no error)';
  } catch (error) {
    return `${(error as Error).message}\n${JSON.stringify(error)}`;
  }
}

describe('secret-shaped session ids in error messages', () => {
  it('not found, duplicate, append to a missing session: the id is not echoed in clear', async () => {
    const id = secretId();
    const messages = [
      await messageOf(() => store.getSession(id)),
      await messageOf(() => store.appendMessages(id, [{ role: 'user', content: 'x' }])),
      await messageOf(() => store.lineage(id)),
      await messageOf(async () => {
        await store.createSession({ id });
        await store.createSession({ id });
      }),
    ];
    expect(messages.filter((text) => text.includes(id.slice(8)))).toEqual([]);
  });

  it('the errors still identify the id: by description in the message, in full in the field', async () => {
    const id = secretId();
    const notFound = await store.getSession(id).catch((error: unknown) => error);
    expect(SessionNotFoundError.isInstance(notFound)).toBe(true);
    const typedNotFound = notFound as SessionNotFoundError;
    expect(typedNotFound.code).toBe('session_not_found');
    expect(typedNotFound.sessionId).toBe(id);
    expect(typedNotFound.message).toContain(describeSessionId(id));
    await store.createSession({ id });
    const exists = await store.createSession({ id }).catch((error: unknown) => error);
    expect(SessionExistsError.isInstance(exists)).toBe(true);
    const typedExists = exists as SessionExistsError;
    expect(typedExists.code).toBe('session_exists');
    expect(typedExists.sessionId).toBe(id);
    expect(typedExists.message).toContain(describeSessionId(id));
    // Two ids of the same length are told apart.
    expect(describeSessionId(id)).not.toBe(describeSessionId(secretId()));
  });
});
