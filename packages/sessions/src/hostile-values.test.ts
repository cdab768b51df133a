import { BatonError, InvalidInputError } from '@baton/tokens';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from './index.js';
import { maxNestingDepth } from './validate-messages.js';

// Issue 17 item 4 (found by an independent attack; STANDARDS "untrusted input never crashes; errors are typed"):
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

describe('hostile values in the session store (PGlite)', () => {
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

describe('nesting depth limit (property)', () => {
  it('accepts metadata exactly when its nesting is at most maxNestingDepth, whatever mix of arrays and objects', async () => {
    store ??= await createSessionStore();
    await fc.assert(
      fc.asyncProperty(
        // Levels around the limit, each an array or an object, with siblings that add no depth.
        fc.integer({ min: maxNestingDepth - 3, max: maxNestingDepth + 3 }),
        fc.infiniteStream(fc.boolean()),
        fc.nat({ max: 999 }),
        async (levels, arrays, seed) => {
          // `levels` containers in all: the metadata object is the first.
          let value: unknown = `leaf ${seed}`;
          for (let level = 1; level < levels; level++) {
            const iterator = arrays.next();
            value = iterator.value ? [seed, value, 'sibling'] : { before: seed, next: value };
          }
          const metadata = { top: value } as never;
          const outcome = await store.createSession({ metadata }).then(
            (session) => ({ session }),
            (error: unknown) => ({ error }),
          );
          if (levels <= maxNestingDepth) {
            expect('session' in outcome, String((outcome as { error?: unknown }).error)).toBe(true);
            const session = (outcome as { session: { id: string } }).session;
            expect((await store.getSession(session.id)).metadata).toEqual(metadata);
          } else {
            const error = (outcome as { error?: unknown }).error;
            expect(InvalidInputError.isInstance(error), String(error)).toBe(true);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
