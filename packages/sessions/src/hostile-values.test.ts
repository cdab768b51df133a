import { BatonError } from '@baton/tokens';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from './index.js';

// Attack (issue 17 item 4, STANDARDS "untrusted input never crashes; errors are typed"):
// values the authors did not write the code from. Every refusal must be a BatonError with a code,
// and nothing may be stored that the store cannot give back as given.
let store: SessionStore;
afterAll(async () => {
  await store?.close();
});

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let index = 0; index < depth; index++) value = { a: value };
  return value;
}

describe('attack: hostile values in the session store (PGlite)', () => {
  it('deeply nested metadata is refused with a typed error or stored, never a RangeError', async () => {
    store = await createSessionStore();
    const error = await caught(
      store.createSession({ metadata: { deep: nested(50_000) } as never }),
    );
    if (error !== undefined) {
      expect(error).not.toBeInstanceOf(RangeError);
      expect(BatonError.isInstance(error)).toBe(true);
    }
  });

  it('deeply nested message content is refused with a typed error or stored, never a RangeError', async () => {
    store ??= await createSessionStore();
    const session = await store.createSession();
    const message = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 't',
          output: { type: 'json', value: nested(50_000) },
        },
      ],
    };
    const error = await caught(store.appendMessages(session.id, [message as never]));
    if (error !== undefined) {
      expect(error).not.toBeInstanceOf(RangeError);
      expect(BatonError.isInstance(error)).toBe(true);
    }
  });
});
