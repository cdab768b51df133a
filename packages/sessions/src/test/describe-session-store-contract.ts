import type { ModelMessage } from '@ai-sdk/provider-utils';
import { BatonError, InvalidInputError } from '@baton/tokens';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../database-error.js';
import {
  CompactionConflictError,
  type CompactionResult,
  CompactionStaleError,
  createSessionStore,
  describeSessionId,
  HistoryDivergedError,
  MessageValidationError,
  SessionEndedError,
  SessionExistsError,
  type SessionMessage,
  SessionNotFoundError,
  type SessionStore,
} from '../index.js';
import { maxNestingDepth } from '../validate-messages.js';
import { compactResult } from './compact-result.js';
import { userMessages } from './user-messages.js';

/** `ai` and its test model, or undefined when the AI SDK is not installed. */
async function loadAi() {
  try {
    const [ai, aiTest] = await Promise.all([import('ai'), import('ai/test')]);
    return { ...ai, MockLanguageModelV4: aiTest.MockLanguageModelV4 };
  } catch {
    return undefined;
  }
}

async function expectError<T>(
  promise: Promise<unknown>,
  isInstance: (error: unknown) => error is T,
): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'expected the call to throw').toBeDefined();
  if (!isInstance(error)) throw error;
  expect(BatonError.isInstance(error)).toBe(true);
  return error;
}

/** A transcript the contract stores, compacts and recovers, message for message. */
export interface ContractTranscript {
  name: string;
  messages: readonly SessionMessage[];
}

export interface SessionStoreContractOptions {
  /**
   * Real transcripts for the "nothing lost" case: each is stored in four parts with a compaction
   * between them, then recovered whole from the lineage. Default: none (that case is skipped).
   */
  transcripts?: () => readonly ContractTranscript[];
  /**
   * More cases to run inside the suite on the same store (`getStore` returns it once `open` has
   * resolved). Default: none.
   */
  extend?: (getStore: () => SessionStore) => void;
}

/**
 * The behaviour every session store must show, as a vitest suite: run it against a store over your
 * own database to check it before you rely on it. `open` returns a migrated store; it is called
 * once (a PGlite cold open takes seconds), each case works on sessions of its own, and the store is
 * closed after the suite. One case runs a tool loop through the AI SDK and is skipped when `ai` is
 * not installed.
 */
export function describeSessionStoreContract(
  label: string,
  open: () => Promise<SessionStore>,
  { transcripts, extend }: SessionStoreContractOptions = {},
): void {
  describe(`session store contract (${label})`, () => {
    let store: SessionStore;
    beforeAll(async () => {
      store = await open();
    }, 60_000);
    afterAll(async () => {
      await store?.close();
    });

    describe('createSession and getSession', () => {
      it('opens a root session with defaults and reads it back', async () => {
        const session = await store.createSession();
        expect(session.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(session).toMatchObject({
          parentId: null,
          rootId: session.id,
          origin: 'root',
          endedAt: null,
          endReason: null,
          model: null,
          title: null,
          metadata: null,
        });
        expect(session.createdAt).toBeInstanceOf(Date);
        expect(await store.getSession(session.id)).toEqual(session);
      });

      it('keeps id, model, title and metadata, and roots a child under its parent', async () => {
        const id = `custom-${crypto.randomUUID()}`;
        const parent = await store.createSession({
          id,
          model: 'gpt-test',
          title: 'Parent',
          metadata: { project: 'baton', nested: { tags: ['a', 'b'] } },
        });
        expect(parent).toMatchObject({ id, model: 'gpt-test', title: 'Parent' });
        expect(parent.metadata).toEqual({ project: 'baton', nested: { tags: ['a', 'b'] } });
        const child = await store.createSession({ parentId: id });
        expect(child).toMatchObject({ parentId: id, rootId: id, origin: 'child' });
      });

      it('refuses an unknown parent, a duplicate id and bad ids', async () => {
        const missing = await expectError(
          store.createSession({ parentId: 'no-such-session' }),
          SessionNotFoundError.isInstance,
        );
        expect(missing.sessionId).toBe('no-such-session');
        const existing = await store.createSession();
        const duplicate = await expectError(
          store.createSession({ id: existing.id }),
          SessionExistsError.isInstance,
        );
        // A conflict is not bad input: it has its own code.
        expect(duplicate).toMatchObject({
          code: 'session_exists',
          sessionId: existing.id,
          path: 'id',
        });
        await expectError(store.createSession({ id: '' }), InvalidInputError.isInstance);
        await expectError(store.getSession(''), InvalidInputError.isInstance);
      });

      it('throws SessionNotFoundError for an unknown id everywhere', async () => {
        const id = `missing-${crypto.randomUUID()}`;
        const calls: Array<() => Promise<unknown>> = [
          () => store.getSession(id),
          () => store.getMessages(id),
          () => store.appendMessages(id, userMessages(1)),
          () => store.recordCompaction(id, compactResult(userMessages(3))),
          () => store.lineage(id),
          () => store.resume(id),
          () => store.fork(id),
          () => store.endSession(id),
        ];
        for (const call of calls) {
          const error = await expectError(call(), SessionNotFoundError.isInstance);
          expect(error.sessionId).toBe(id);
          expect(error.code).toBe('session_not_found');
        }
      });
      it('refuses NUL and unpaired surrogates in ids, text fields and metadata with a typed error that shows no SQL and no value', async () => {
        const parent = await store.createSession();
        await store.appendMessages(parent.id, userMessages(2));
        const marker = `m${crypto.randomUUID().slice(0, 8)}`;
        // Built at run time: NUL, a lone high and a lone low surrogate, in the middle of a marker.
        const bad = [0x0, 0xd800, 0xdc00].map((code) => `${marker}${String.fromCharCode(code)}x`);
        for (const value of bad) {
          const calls: Array<[string, () => Promise<unknown>]> = [
            ['createSession.id', () => store.createSession({ id: value })],
            ['createSession.title', () => store.createSession({ title: value })],
            ['createSession.model', () => store.createSession({ model: value })],
            ['createSession.metadata value', () => store.createSession({ metadata: { a: value } })],
            [
              'createSession.metadata key',
              () => store.createSession({ metadata: { nested: { [value]: 1 } } }),
            ],
            ['getSession', () => store.getSession(value)],
            ['appendMessages', () => store.appendMessages(value, userMessages(1))],
            ['fork.id', () => store.fork(parent.id, { id: value })],
            ['fork.title', () => store.fork(parent.id, { title: value })],
            ['endSession.reason', () => store.endSession(parent.id, value)],
            [
              'recordCompaction.model',
              () =>
                store.recordCompaction(parent.id, compactResult(userMessages(2)), { model: value }),
            ],
            [
              'recordCompaction.metadata',
              () =>
                store.recordCompaction(parent.id, compactResult(userMessages(2)), {
                  metadata: { a: value },
                }),
            ],
            ['listSessions.rootId', () => store.listSessions({ rootId: value })],
          ];
          for (const [what, call] of calls) {
            const error = await call().then(
              () => undefined,
              (caught: unknown) => caught,
            );
            expect(InvalidInputError.isInstance(error), `${what}: ${String(error)}`).toBe(true);
            const message = (error as Error).message;
            expect(message, what).not.toMatch(/select|insert|update|params|Failed query/i);
            expect(message, what).not.toContain(marker);
          }
        }
        // Nothing was written and the parent is still open.
        expect((await store.getSession(parent.id)).endedAt).toBeNull();
        expect(await store.listSessions({ rootId: parent.id, includeEnded: true })).toHaveLength(1);
      });

      it('never maps two different ids to one session', async () => {
        const base = crypto.randomUUID();
        // Two ids a UTF-8 encoder would both turn into U+FFFD, and their well-formed neighbour.
        const ids = [`${base}\ud800`, `${base}\udc00`, `${base}\ufffd`];
        const created = new Map<string, string>();
        for (const id of ids) {
          const outcome = await store.createSession({ id }).then(
            (session) => session.id,
            (error: unknown) => {
              expect(InvalidInputError.isInstance(error), String(error)).toBe(true);
              return undefined;
            },
          );
          if (outcome !== undefined) created.set(id, outcome);
        }
        for (const [id, storedId] of created) {
          expect(storedId).toBe(id);
          expect((await store.getSession(id)).id).toBe(id);
        }
      });

      it('refuses metadata JSON would silently change, as it does for messages', async () => {
        const parent = await store.createSession();
        await store.appendMessages(parent.id, userMessages(2));
        const cases: [Record<string, unknown>, string][] = [
          [{ when: new Date(0) }, 'metadata.when'],
          [{ nested: { ratio: Number.NaN } }, 'metadata.nested.ratio'],
          [{ list: [1, undefined] }, 'metadata.list[1]'],
          [{ big: 1n as unknown }, 'metadata.big'],
        ];
        for (const [metadata, path] of cases) {
          const created = await expectError(
            store.createSession({ metadata }),
            InvalidInputError.isInstance,
          );
          expect(created.path).toBe(path);
          await expectError(
            store.recordCompaction(parent.id, compactResult(userMessages(2)), { metadata }),
            InvalidInputError.isInstance,
          );
          await expectError(store.fork(parent.id, { metadata }), InvalidInputError.isInstance);
        }
        await expectError(
          store.createSession({ metadata: new Map() as unknown as Record<string, unknown> }),
          InvalidInputError.isInstance,
        );
        expect((await store.getSession(parent.id)).endedAt).toBeNull();
        expect(await store.listSessions({ rootId: parent.id, includeEnded: true })).toHaveLength(1);
        // Plain data round-trips unchanged; an undefined property is absent, as in messages.
        const kept = await store.createSession({
          metadata: { at: '1970-01-01', n: 1, gone: undefined },
        });
        expect((await store.getSession(kept.id)).metadata).toEqual({ at: '1970-01-01', n: 1 });
      });
    });

    describe('appendMessages and getMessages', () => {
      it('numbers messages from 0 and reads them back in order', async () => {
        const session = await store.createSession();
        expect(await store.getMessages(session.id)).toEqual([]);
        const first = await store.appendMessages(session.id, userMessages(3, 'a'));
        expect(first).toEqual({ appended: 3, skipped: 0, nextSequence: 3 });
        const second = await store.appendMessages(session.id, userMessages(2, 'b'));
        expect(second).toEqual({ appended: 2, skipped: 0, nextSequence: 5 });
        const stored = await store.getMessages(session.id);
        expect(stored.map((row) => row.sequence)).toEqual([0, 1, 2, 3, 4]);
        expect(stored.map((row) => row.message)).toEqual([
          ...userMessages(3, 'a'),
          ...userMessages(2, 'b'),
        ]);
        expect(stored.every((row) => row.sessionId === session.id && row.role === 'user')).toBe(
          true,
        );
        expect(stored[0]!.tokenCount).toBeNull();
        const page = await store.getMessages(session.id, { fromSequence: 1, limit: 2 });
        expect(page.map((row) => row.sequence)).toEqual([1, 2]);
      });

      it('is idempotent by sequence number: a retried batch is skipped, an overlap only adds the rest', async () => {
        const session = await store.createSession();
        const batch = userMessages(4);
        expect(await store.appendMessages(session.id, batch, { startSequence: 0 })).toEqual({
          appended: 4,
          skipped: 0,
          nextSequence: 4,
        });
        expect(await store.appendMessages(session.id, batch, { startSequence: 0 })).toEqual({
          appended: 0,
          skipped: 4,
          nextSequence: 4,
        });
        const more = userMessages(6);
        expect(await store.appendMessages(session.id, more.slice(2), { startSequence: 2 })).toEqual(
          {
            appended: 2,
            skipped: 2,
            nextSequence: 6,
          },
        );
        expect((await store.getMessages(session.id)).map((row) => row.message)).toEqual(more);
      });

      it('a retry after a lost acknowledgement is harmless with startSequence, and duplicates without', async () => {
        const session = await store.createSession();
        await store.appendMessages(session.id, userMessages(2, 'earlier'), { startSequence: 0 });
        const batch = userMessages(3, 'turn');
        // The first attempt commits but its acknowledgement never reaches the caller...
        await store.appendMessages(session.id, batch, { startSequence: 2 });
        // ...so the caller sends the very same call again.
        expect(await store.appendMessages(session.id, batch, { startSequence: 2 })).toEqual({
          appended: 0,
          skipped: 3,
          nextSequence: 5,
        });
        const stored = (await store.getMessages(session.id)).map((row) => row.message);
        expect(stored).toEqual([...userMessages(2, 'earlier'), ...batch]);

        // The documented rule: a plain append is not idempotent.
        const plain = await store.createSession();
        await store.appendMessages(plain.id, batch);
        await store.appendMessages(plain.id, batch);
        expect(await store.getMessages(plain.id)).toHaveLength(6);
      });

      it('refuses sequence numbers beyond the integer column and null options with InvalidInputError', async () => {
        const session = await store.createSession();
        await store.appendMessages(session.id, userMessages(1));
        for (const call of [
          () => store.appendMessages(session.id, userMessages(1), { startSequence: 2 ** 31 }),
          () => store.getMessages(session.id, { fromSequence: 2 ** 31 }),
          () => store.fork(session.id, { throughSequence: 2 ** 31 }),
        ]) {
          await expectError(call(), InvalidInputError.isInstance);
        }
        const nullOptions = null as never;
        for (const call of [
          () => store.createSession(nullOptions),
          () => store.appendMessages(session.id, userMessages(1), nullOptions),
          () => store.getMessages(session.id, nullOptions),
          () => store.recordCompaction(session.id, compactResult(userMessages(1)), nullOptions),
          () => store.fork(session.id, nullOptions),
          () => store.listSessions(nullOptions),
        ]) {
          const error = await expectError(call(), InvalidInputError.isInstance);
          expect(error.path).toBe('options');
        }
        expect(await store.getMessages(session.id)).toHaveLength(1);
        expect((await store.getSession(session.id)).endedAt).toBeNull();
      });

      it('refuses a token counter result beyond the integer column with InvalidInputError', async () => {
        const counting = await createSessionStore({
          db: store.db,
          migrate: false,
          tokenCounter: { countMessage: () => 2 ** 31 },
        });
        const session = await counting.createSession();
        const error = await expectError(
          counting.appendMessages(session.id, userMessages(1)),
          InvalidInputError.isInstance,
        );
        expect(error.path).toBe('tokenCounter.countMessage(messages[0])');
        expect(await counting.getMessages(session.id)).toEqual([]);
        await counting.close();
      });

      it('on request, verifies skipped messages and refuses a diverged history, writing nothing', async () => {
        const session = await store.createSession();
        const original: SessionMessage[] = [
          { role: 'user', content: 'first', providerOptions: { a: { x: 1, y: 2 } } },
          { role: 'assistant', content: [{ type: 'text', text: 'second' }] },
        ];
        await store.appendMessages(session.id, original);
        // Same content, other key order, an undefined property: the same message once stored.
        const same: SessionMessage[] = [
          {
            providerOptions: { a: { y: 2, x: 1 } },
            content: 'first',
            role: 'user',
            extra: undefined,
          },
          original[1]!,
          { role: 'user', content: 'third' },
        ];
        expect(
          await store.appendMessages(session.id, same, { startSequence: 0, verifySkipped: true }),
        ).toEqual({
          appended: 1,
          skipped: 2,
          nextSequence: 3,
        });
        const edited = [
          original[0]!,
          { role: 'assistant', content: [{ type: 'text', text: 'edited' }] },
          ...userMessages(1),
        ];
        const error = await expectError(
          store.appendMessages(session.id, edited, { startSequence: 0, verifySkipped: true }),
          HistoryDivergedError.isInstance,
        );
        expect(error).toMatchObject({
          sessionId: session.id,
          sequence: 1,
          code: 'history_diverged',
        });
        expect(await store.getMessages(session.id)).toHaveLength(3);
        // Without verification the same call is a plain idempotent skip.
        expect(await store.appendMessages(session.id, edited, { startSequence: 0 })).toMatchObject({
          skipped: 3,
        });
      });

      it('stores a batch once when the same retry arrives several times at the same moment', async () => {
        const session = await store.createSession();
        const batch = userMessages(5, 'retried');
        const results = await Promise.all(
          Array.from({ length: 5 }, () =>
            store.appendMessages(session.id, batch, { startSequence: 0 }),
          ),
        );
        expect(results.map((result) => result.appended).sort()).toEqual([0, 0, 0, 0, 5]);
        expect(results.every((result) => result.appended + result.skipped === 5)).toBe(true);
        expect((await store.getMessages(session.id)).map((row) => row.message)).toEqual(batch);
        // Plain appends racing each other all land, each under its own sequence numbers.
        await Promise.all(
          Array.from({ length: 5 }, (_, index) =>
            store.appendMessages(session.id, userMessages(2, `racer ${index}`)),
          ),
        );
        const stored = await store.getMessages(session.id);
        expect(stored.map((row) => row.sequence)).toEqual(
          Array.from({ length: 15 }, (_, index) => index),
        );
      });

      it('refuses a start sequence that would leave a gap, writing nothing', async () => {
        const session = await store.createSession();
        await store.appendMessages(session.id, userMessages(2));
        const error = await expectError(
          store.appendMessages(session.id, userMessages(1), { startSequence: 3 }),
          InvalidInputError.isInstance,
        );
        expect(error.path).toBe('startSequence');
        await expectError(
          store.appendMessages(session.id, userMessages(1), { startSequence: -1 }),
          InvalidInputError.isInstance,
        );
        expect(await store.getMessages(session.id)).toHaveLength(2);
      });

      it('names the index of a malformed message and writes nothing of the batch', async () => {
        const session = await store.createSession();
        await store.appendMessages(session.id, userMessages(1));
        const cases: Array<[unknown[], number, string]> = [
          [[{ role: 'user', content: 'ok' }, { content: 'no role' }], 1, 'messages[1].role'],
          [[{ role: 'robot', content: 'x' }], 0, 'messages[0].role'],
          [[{ role: 'user', content: 'ok' }, { role: 'user' }], 1, 'messages[1].content'],
          [[{ role: 'system', content: [{ type: 'text', text: 'x' }] }], 0, 'messages[0].content'],
          [
            [
              { role: 'user', content: 'ok' },
              ...userMessages(2),
              { role: 'assistant', content: [{}] },
            ],
            3,
            'messages[3].content[0]',
          ],
          [
            [{ role: 'user', content: [{ type: 'file', data: new Uint8Array([1, 2]) }] }],
            0,
            'messages[0].content[0].data',
          ],
          [
            [{ role: 'user', content: 'x', providerOptions: { n: Number.NaN } }],
            0,
            'messages[0].providerOptions.n',
          ],
          [['just a string'], 0, 'messages[0]'],
          [[null], 0, 'messages[0]'],
        ];
        for (const [batch, index, path] of cases) {
          const error = await expectError(
            store.appendMessages(session.id, batch as SessionMessage[]),
            MessageValidationError.isInstance,
          );
          expect(error.index).toBe(index);
          expect(error.path).toBe(path);
          expect(error.code).toBe('message_validation');
        }
        const circular: Record<string, unknown> = { role: 'user', content: 'x' };
        circular.self = circular;
        await expectError(
          store.appendMessages(session.id, [circular as SessionMessage]),
          MessageValidationError.isInstance,
        );
        await expectError(
          store.appendMessages(session.id, 'nope' as unknown as SessionMessage[]),
          MessageValidationError.isInstance,
        );
        expect(await store.getMessages(session.id)).toHaveLength(1);
      });

      it('stores text jsonb would refuse: NUL characters and lone surrogates', async () => {
        const session = await store.createSession();
        const odd: SessionMessage[] = [
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'c1',
                toolName: 'read',
                output: { type: 'text', value: `bin\u0000ary` },
              },
            ],
          },
          { role: 'user', content: `half a pair: \ud83d and \udc4d` },
        ];
        await store.appendMessages(session.id, odd);
        expect((await store.getMessages(session.id)).map((row) => row.message)).toEqual(odd);
      });

      it('keeps data nested to the depth limit and refuses deeper with a typed error, never a stack overflow', async () => {
        const marker = `leaf-${crypto.randomUUID().slice(0, 8)}`;
        // `levels` arrays and objects, alternating, around a marker string.
        const nested = (levels: number): unknown => {
          let value: unknown = marker;
          for (let level = 0; level < levels; level++) value = level % 2 ? [value] : { k: value };
          return value;
        };
        // A message is 1 level, its content array 2, a part 3, the output 4; the value starts at 5.
        const toolMessage = (valueLevels: number): SessionMessage => ({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'read',
              output: { type: 'json', value: nested(valueLevels) as never },
            },
          ],
        });
        const session = await store.createSession();
        const deepest = toolMessage(maxNestingDepth - 4);
        await store.appendMessages(session.id, [deepest]);
        expect((await store.getMessages(session.id)).map((row) => row.message)).toEqual([deepest]);
        const metadata = { deep: nested(maxNestingDepth - 1) } as never;
        const kept = await store.createSession({ metadata });
        expect((await store.getSession(kept.id)).metadata).toEqual(metadata);

        for (const extra of [1, 50_000]) {
          const tooDeep = await expectError(
            store.appendMessages(session.id, [toolMessage(maxNestingDepth - 4 + extra)]),
            MessageValidationError.isInstance,
          );
          expect(tooDeep.path).toMatch(/^messages\[0\]\.content\[0\]\.output\.value/);
          expect(tooDeep.message).not.toContain(marker);
          const compactionTooDeep = await expectError(
            store.recordCompaction(session.id, {
              ...compactResult([deepest]),
              messages: [toolMessage(maxNestingDepth - 4 + extra)],
            }),
            MessageValidationError.isInstance,
          );
          expect(compactionTooDeep.path).toMatch(/^result\.messages\[0\]/);
          const deepMetadata = { deep: nested(maxNestingDepth - 1 + extra) } as never;
          const calls: Array<[string, () => Promise<unknown>]> = [
            ['createSession', () => store.createSession({ metadata: deepMetadata })],
            ['fork', () => store.fork(session.id, { metadata: deepMetadata })],
            [
              'recordCompaction.metadata',
              () =>
                store.recordCompaction(session.id, compactResult([deepest]), {
                  metadata: deepMetadata,
                }),
            ],
            [
              'recordCompaction.event',
              () =>
                store.recordCompaction(session.id, {
                  ...compactResult([deepest]),
                  event: { deep: nested(maxNestingDepth - 1 + extra) } as never,
                }),
            ],
          ];
          for (const [what, call] of calls) {
            const error = await call().then(
              () => undefined,
              (caught: unknown) => caught,
            );
            expect(InvalidInputError.isInstance(error), `${what}: ${String(error)}`).toBe(true);
            expect((error as Error).message, what).not.toContain(marker);
          }
        }
        // Nothing of the refused calls was written.
        expect(await store.getMessages(session.id)).toHaveLength(1);
        expect((await store.getSession(session.id)).endedAt).toBeNull();
        expect(await store.listSessions({ rootId: session.id, includeEnded: true })).toHaveLength(
          1,
        );
      });

      it('reads back any JSON message content deep-equal (property)', async () => {
        const session = await store.createSession();
        let next = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.record({
                role: fc.constantFrom('user', 'assistant', 'tool'),
                content: fc.oneof(
                  fc.string({ unit: 'binary' }),
                  fc.array(
                    fc.record({ type: fc.constantFrom('text', 'json'), value: fc.jsonValue() }),
                    { maxLength: 3 },
                  ),
                ),
                providerOptions: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), {
                  nil: undefined,
                }),
              }),
              { minLength: 1, maxLength: 4 },
            ),
            async (batch) => {
              const result = await store.appendMessages(session.id, batch, { startSequence: next });
              expect(result.appended).toBe(batch.length);
              const stored = await store.getMessages(session.id, { fromSequence: next });
              next += batch.length;
              // Stored as JSON: the expectation is the JSON reading of the input (-0 becomes 0).
              expect(stored.map((row) => row.message)).toEqual(JSON.parse(JSON.stringify(batch)));
            },
          ),
          { numRuns: 40 },
        );
      });

      it('stores what the AI SDK produces (a tool loop from generateText) and reads it back deep-equal', async (context) => {
        // Optional: a store is usable without the AI SDK; its shapes are checked when it is there.
        const ai = await loadAi();
        if (ai === undefined) return context.skip('the AI SDK (`ai`) is not installed');
        const { generateText, jsonSchema, MockLanguageModelV4, stepCountIs, tool } = ai;
        const usage = {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        };
        const model = new MockLanguageModelV4({
          doGenerate: [
            {
              content: [
                { type: 'reasoning', text: 'Need the file first.' },
                {
                  type: 'tool-call',
                  toolCallId: 'call-1',
                  toolName: 'readFile',
                  input: '{"path":"a.ts"}',
                },
              ],
              finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
              usage,
              warnings: [],
            },
            {
              content: [{ type: 'text', text: 'a.ts exports one function.' }],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage,
              warnings: [],
            },
          ],
        });
        const prompt: ModelMessage[] = [{ role: 'user', content: 'What is in a.ts?' }];
        const result = await generateText({
          model,
          messages: prompt,
          tools: {
            readFile: tool({
              inputSchema: jsonSchema<{ path: string }>({
                type: 'object',
                properties: { path: { type: 'string' } },
                required: ['path'],
              }),
              execute: async ({ path }) => ({ path, text: 'export const a = 1;' }),
            }),
          },
          stopWhen: stepCountIs(3),
        });
        // v7: the messages of every step are `responseMessages` (v5's `response.messages`).
        const conversation: ModelMessage[] = [...prompt, ...result.responseMessages];
        expect(conversation.map((message) => message.role)).toEqual([
          'user',
          'assistant',
          'tool',
          'assistant',
        ]);
        const session = await store.createSession();
        await store.appendMessages(session.id, conversation);
        const stored = await store.getMessages<ModelMessage>(session.id);
        expect(stored.map((row) => row.message)).toEqual(JSON.parse(JSON.stringify(conversation)));
        expect((await store.resume<ModelMessage>(session.id)).messages).toEqual(
          stored.map((row) => row.message),
        );
      });

      it('counts tokens with the injected counter', async () => {
        const counted = await createSessionStore({
          db: store.db,
          migrate: false,
          tokenCounter: { countMessage: (message) => JSON.stringify(message.content).length },
        });
        const session = await counted.createSession();
        await counted.appendMessages(session.id, [{ role: 'user', content: 'four' }]);
        expect((await counted.getMessages(session.id))[0]!.tokenCount).toBe(6);
        const rounding = await createSessionStore({
          db: store.db,
          migrate: false,
          tokenCounter: { countMessage: () => 2.6 },
        });
        await rounding.appendMessages(session.id, [{ role: 'user', content: 'x' }]);
        expect((await rounding.getMessages(session.id))[1]!.tokenCount).toBe(3);
        const broken = await createSessionStore({
          db: store.db,
          migrate: false,
          tokenCounter: { countMessage: () => Number.NaN },
        });
        await expect(
          broken.appendMessages(session.id, [{ role: 'user', content: 'x' }]),
        ).rejects.toSatisfy(InvalidInputError.isInstance);
        expect(await store.getMessages(session.id)).toHaveLength(2);
        await counted.close();
        // Closing a store over a borrowed db leaves that db usable.
        expect((await store.getMessages(session.id))[0]!.tokenCount).toBe(6);
        await rounding.close();
        await broken.close();
      });
    });

    describe('recordCompaction', () => {
      it('ends the parent, opens the child with the compacted messages and records the compaction', async () => {
        const parent = await store.createSession({ model: 'm1', title: 'T', metadata: { a: 1 } });
        const history = userMessages(10);
        await store.appendMessages(parent.id, history);
        const result = compactResult(history, 3);
        const recorded = await store.recordCompaction(parent.id, result);
        expect(recorded.parent).toMatchObject({ id: parent.id, endReason: 'compaction' });
        expect(recorded.parent.endedAt).toBeInstanceOf(Date);
        expect(recorded.child).toMatchObject({
          parentId: parent.id,
          rootId: parent.id,
          origin: 'compaction',
          endedAt: null,
          model: 'm1',
          title: 'T',
          metadata: { a: 1 },
        });
        expect(recorded.compaction).toMatchObject({
          parentSessionId: parent.id,
          childSessionId: recorded.child.id,
          strategy: 'summarize',
          stages: ['mask', 'summarize'],
          summary: result.summary,
          usedFallback: false,
          fallbackReason: null,
          tokensBefore: 100,
          tokensAfter: 50,
          removedSequences: [1, 2, 3, 4, 5, 6],
          maskedSequences: [],
          summarizerModel: 'mock-summarizer',
          durationMs: 12.5,
        });
        expect(recorded.compaction.event).toMatchObject({ tailStartIndex: 7 });
        expect(await store.getCompaction(parent.id)).toEqual(recorded.compaction);
        expect(await store.getCompaction(recorded.child.id)).toBeUndefined();
        expect((await store.getMessages(recorded.child.id)).map((row) => row.message)).toEqual(
          result.messages,
        );
        // The parent's raw history is untouched.
        expect((await store.getMessages(parent.id)).map((row) => row.message)).toEqual(history);
        expect(await store.getSession(parent.id)).toEqual(recorded.parent);
      });

      it('lets the caller name the child and override its model, title and metadata', async () => {
        const parent = await store.createSession({ model: 'm1' });
        await store.appendMessages(parent.id, userMessages(4));
        const childId = `child-${crypto.randomUUID()}`;
        const { child } = await store.recordCompaction(parent.id, compactResult(userMessages(4)), {
          childId,
          model: 'm2',
          title: 'Continued',
          metadata: { b: 2 },
        });
        expect(child).toMatchObject({
          id: childId,
          model: 'm2',
          title: 'Continued',
          metadata: { b: 2 },
        });
      });

      it('compacts a parent at most once: the second attempt names the first child and writes nothing', async () => {
        const parent = await store.createSession();
        await store.appendMessages(parent.id, userMessages(5));
        const { child } = await store.recordCompaction(parent.id, compactResult(userMessages(5)));
        const error = await expectError(
          store.recordCompaction(parent.id, compactResult(userMessages(5)), {
            childId: `x-${crypto.randomUUID()}`,
          }),
          CompactionConflictError.isInstance,
        );
        expect(error.childSessionId).toBe(child.id);
        expect(error.parentSessionId).toBe(parent.id);
        expect(error.code).toBe('compaction_conflict');
        const family = await store.listSessions({ rootId: parent.id, includeEnded: true });
        expect(family.map((session) => session.id).sort()).toEqual([parent.id, child.id].sort());
      });

      it('has exactly one winner when compactions of one parent race', async () => {
        const parent = await store.createSession();
        await store.appendMessages(parent.id, userMessages(5));
        const attempts = await Promise.allSettled(
          Array.from({ length: 4 }, () =>
            store.recordCompaction(parent.id, compactResult(userMessages(5))),
          ),
        );
        const winners = attempts.filter((attempt) => attempt.status === 'fulfilled');
        expect(winners).toHaveLength(1);
        const winnerChild = (winners[0] as PromiseFulfilledResult<{ child: { id: string } }>).value
          .child.id;
        for (const attempt of attempts) {
          if (attempt.status === 'rejected') {
            expect(CompactionConflictError.isInstance(attempt.reason)).toBe(true);
            expect((attempt.reason as CompactionConflictError).childSessionId).toBe(winnerChild);
          }
        }
        expect(await store.listSessions({ rootId: parent.id, includeEnded: true })).toHaveLength(2);
      });

      it('refuses malformed results and closed parents, leaving the parent open and childless', async () => {
        const parent = await store.createSession();
        await store.appendMessages(parent.id, userMessages(3));
        const bad = compactResult(userMessages(3));
        const error = await expectError(
          store.recordCompaction(parent.id, {
            ...bad,
            messages: [...bad.messages, { role: 'user', content: 42 } as unknown as SessionMessage],
          }),
          MessageValidationError.isInstance,
        );
        expect(error.path).toBe(`result.messages[${bad.messages.length}].content`);
        await expectError(
          store.recordCompaction(parent.id, { ...bad, tokensBefore: -1 }),
          InvalidInputError.isInstance,
        );
        await expectError(
          store.recordCompaction(parent.id, {
            ...bad,
            event: { ...bad.event, removedMessageIndexes: [1.5] },
          }),
          InvalidInputError.isInstance,
        );
        await expectError(
          store.recordCompaction(parent.id, null as unknown as CompactionResult),
          InvalidInputError.isInstance,
        );
        expect((await store.getSession(parent.id)).endedAt).toBeNull();
        expect(await store.getCompaction(parent.id)).toBeUndefined();
        expect(await store.listSessions({ rootId: parent.id })).toHaveLength(1);

        await store.endSession(parent.id);
        const ended = await expectError(
          store.recordCompaction(parent.id, bad),
          SessionEndedError.isInstance,
        );
        expect(ended.endReason).toBe('closed');
        expect(ended.childSessionId).toBeUndefined();
      });

      it('refuses a compaction computed before a message was appended (expectedMessageCount)', async () => {
        const parent = await store.createSession();
        await store.appendMessages(parent.id, userMessages(10));
        const history = (await store.getMessages(parent.id)).map((row) => row.message);
        const result = compactResult(history, 3);
        // Appended after the history was read, before the compaction is recorded.
        const late = { role: 'user', content: 'appended while compacting' };
        await store.appendMessages(parent.id, [late]);
        const error = await expectError(
          store.recordCompaction(parent.id, result, { expectedMessageCount: history.length }),
          CompactionStaleError.isInstance,
        );
        expect(error).toMatchObject({
          code: 'compaction_stale',
          parentSessionId: parent.id,
          expectedMessageCount: 10,
          actualMessageCount: 11,
        });
        expect(error.message).toContain('10');
        expect(error.message).toContain('11');
        // Nothing written: the parent is open, childless, and still resumes with the late message.
        expect((await store.getSession(parent.id)).endedAt).toBeNull();
        expect(await store.getCompaction(parent.id)).toBeUndefined();
        expect(await store.listSessions({ rootId: parent.id, includeEnded: true })).toHaveLength(1);
        expect((await store.resume(parent.id)).messages.at(-1)).toEqual(late);

        // Recomputed from the current history, it records; the late message reaches the child.
        const current = (await store.getMessages(parent.id)).map((row) => row.message);
        const { child } = await store.recordCompaction(parent.id, compactResult(current, 3), {
          expectedMessageCount: current.length,
        });
        const resumed = await store.resume(parent.id);
        expect(resumed.session.id).toBe(child.id);
        expect(resumed.messages.at(-1)).toEqual(late);
        await expectError(
          store.recordCompaction(parent.id, result, { expectedMessageCount: -1 }),
          InvalidInputError.isInstance,
        );
      });

      it('checks the event indexes against the parent: deduplicated, sorted, in range', async () => {
        const single = await store.createSession();
        await store.appendMessages(single.id, userMessages(1));
        const base = compactResult(userMessages(1), 1);
        const error = await expectError(
          store.recordCompaction(single.id, {
            ...base,
            event: { ...base.event, removedMessageIndexes: [5, 999, 5] },
          }),
          InvalidInputError.isInstance,
        );
        expect(error.path).toBe('result.event.removedMessageIndexes');
        expect(error.message).toContain('1 messages');
        await expectError(
          store.recordCompaction(single.id, {
            ...base,
            event: { ...base.event, maskedMessageIndexes: [1] },
          }),
          InvalidInputError.isInstance,
        );
        const tail = await expectError(
          store.recordCompaction(single.id, {
            ...base,
            event: { ...base.event, tailStartIndex: 2 } as CompactionResult['event'],
          }),
          InvalidInputError.isInstance,
        );
        expect(tail.path).toBe('result.event.tailStartIndex');
        expect((await store.getSession(single.id)).endedAt).toBeNull();
        expect(await store.getCompaction(single.id)).toBeUndefined();

        const parent = await store.createSession();
        const history = userMessages(6);
        await store.appendMessages(parent.id, history);
        const result = compactResult(history, 2);
        const { compaction } = await store.recordCompaction(parent.id, {
          ...result,
          event: {
            ...result.event,
            removedMessageIndexes: [3, 1, 3, 2],
            maskedMessageIndexes: [5, 5],
          },
        });
        expect(compaction.removedSequences).toEqual([1, 2, 3]);
        expect(compaction.maskedSequences).toEqual([5]);
        expect(compaction.event).toMatchObject({
          removedMessageIndexes: [1, 2, 3],
          maskedMessageIndexes: [5],
        });
      });

      it('refuses token counts beyond the integer columns with InvalidInputError, writing nothing', async () => {
        const parent = await store.createSession();
        await store.appendMessages(parent.id, userMessages(3));
        const result = compactResult(userMessages(3));
        for (const field of ['tokensBefore', 'tokensAfter'] as const) {
          const error = await expectError(
            store.recordCompaction(parent.id, { ...result, [field]: 2 ** 31 }),
            InvalidInputError.isInstance,
          );
          expect(error.path).toBe(`result.${field}`);
        }
        expect((await store.getSession(parent.id)).endedAt).toBeNull();
        const { compaction } = await store.recordCompaction(parent.id, {
          ...result,
          tokensBefore: 2 ** 31 - 1,
        });
        expect(compaction.tokensBefore).toBe(2 ** 31 - 1);
      });

      it('refuses appends to a compacted session, naming the child', async () => {
        const parent = await store.createSession();
        await store.appendMessages(parent.id, userMessages(3));
        const { child } = await store.recordCompaction(parent.id, compactResult(userMessages(3)));
        const error = await expectError(
          store.appendMessages(parent.id, userMessages(1, 'late')),
          SessionEndedError.isInstance,
        );
        expect(error.childSessionId).toBe(child.id);
        expect(error.endReason).toBe('compaction');
        // Named by its description: error messages never hold an id (it may be a credential).
        expect(error.message).toContain(describeSessionId(child.id));
        expect(error.message).not.toContain(child.id);
        expect(await store.getMessages(parent.id)).toHaveLength(3);
        // Retrying an already stored batch against the ended parent still fails: it is ended.
        await expectError(
          store.appendMessages(parent.id, userMessages(3), { startSequence: 0 }),
          SessionEndedError.isInstance,
        );
      });
    });

    describe('lineage and resume', () => {
      it('walks root..id through a chain of compactions and resumes at the newest', async () => {
        const root = await store.createSession();
        await store.appendMessages(root.id, userMessages(4, 'gen0'));
        const chain = [root.id];
        let current = root.id;
        for (let generation = 1; generation <= 5; generation++) {
          const history = (await store.getMessages(current)).map((row) => row.message);
          const { child } = await store.recordCompaction(
            current,
            compactResult(history, 2, `summary ${generation}`),
          );
          await store.appendMessages(child.id, userMessages(2, `gen${generation}`));
          chain.push(child.id);
          current = child.id;
        }
        const lineage = await store.lineage(current);
        expect(lineage.map((session) => session.id)).toEqual(chain);
        expect(lineage.every((session) => session.rootId === root.id)).toBe(true);
        expect(lineage.slice(0, -1).every((session) => session.endReason === 'compaction')).toBe(
          true,
        );
        expect((await store.lineage(chain[2]!)).map((session) => session.id)).toEqual(
          chain.slice(0, 3),
        );
        expect((await store.lineage(root.id)).map((session) => session.id)).toEqual([root.id]);

        const expected = (await store.getMessages(current)).map((row) => row.message);
        for (const id of [root.id, chain[3]!, current]) {
          const resumed = await store.resume(id);
          expect(resumed.session.id).toBe(current);
          expect(resumed.messages).toEqual(expected);
        }
        expect(expected.at(-1)).toEqual(userMessages(2, 'gen5')[1]);
      });

      it('resumes an uncompacted session as itself and does not follow forks', async () => {
        const session = await store.createSession();
        await store.appendMessages(session.id, userMessages(2));
        const fork = await store.fork(session.id);
        const resumed = await store.resume(session.id);
        expect(resumed.session.id).toBe(session.id);
        expect(resumed.messages).toEqual(userMessages(2));
        expect((await store.resume(fork.id)).session.id).toBe(fork.id);
      });
    });

    describe('fork', () => {
      it('copies the history into a new open session on the same lineage, leaving the source open', async () => {
        const source = await store.createSession({
          model: 'm',
          title: 'src',
          metadata: { k: 'v' },
        });
        await store.appendMessages(source.id, userMessages(5));
        const fork = await store.fork(source.id, { title: 'forked' });
        expect(fork).toMatchObject({
          parentId: source.id,
          rootId: source.rootId,
          origin: 'fork',
          model: 'm',
          title: 'forked',
          metadata: { k: 'v' },
          endedAt: null,
        });
        expect((await store.getMessages(fork.id)).map((row) => row.message)).toEqual(
          userMessages(5),
        );
        await store.appendMessages(fork.id, userMessages(1, 'only in fork'));
        expect(await store.getMessages(source.id)).toHaveLength(5);
        expect((await store.getSession(source.id)).endedAt).toBeNull();

        const partial = await store.fork(source.id, {
          throughSequence: 1,
          id: `fork-${crypto.randomUUID()}`,
        });
        expect((await store.getMessages(partial.id)).map((row) => row.message)).toEqual(
          userMessages(2),
        );
        const empty = await store.fork(source.id, { throughSequence: -1 });
        expect(await store.getMessages(empty.id)).toEqual([]);
        await expectError(store.fork(source.id, { id: source.id }), SessionExistsError.isInstance);
        await expectError(
          store.fork(source.id, { throughSequence: 0.5 }),
          InvalidInputError.isInstance,
        );
        expect((await store.lineage(fork.id)).map((session) => session.id)).toEqual([
          source.id,
          fork.id,
        ]);
      });

      it('forks an ended session', async () => {
        const source = await store.createSession();
        await store.appendMessages(source.id, userMessages(2));
        await store.endSession(source.id, 'done');
        const fork = await store.fork(source.id);
        expect((await store.getMessages(fork.id)).map((row) => row.message)).toEqual(
          userMessages(2),
        );
      });
    });

    describe('listSessions and endSession', () => {
      it('lists a lineage newest first, hiding ended sessions unless asked, with paging', async () => {
        const root = await store.createSession({ title: 'list-root' });
        const a = await store.createSession({ parentId: root.id });
        const b = await store.createSession({ parentId: root.id });
        await store.endSession(a.id, 'abandoned');
        const open = await store.listSessions({ rootId: root.id });
        expect(open.map((session) => session.id).sort()).toEqual([root.id, b.id].sort());
        const all = await store.listSessions({ rootId: root.id, includeEnded: true });
        expect(all).toHaveLength(3);
        for (let i = 1; i < all.length; i++) {
          expect(all[i - 1]!.createdAt.getTime()).toBeGreaterThanOrEqual(
            all[i]!.createdAt.getTime(),
          );
        }
        const page = await store.listSessions({
          rootId: root.id,
          includeEnded: true,
          limit: 1,
          offset: 1,
        });
        expect(page).toEqual([all[1]]);
        expect((await store.listSessions({ limit: 2 })).length).toBeLessThanOrEqual(2);
        await expectError(store.listSessions({ limit: -1 }), InvalidInputError.isInstance);
      });

      it('ends a session once, with a reason; compaction is reserved', async () => {
        const session = await store.createSession();
        await expectError(store.endSession(session.id, 'compaction'), InvalidInputError.isInstance);
        const ended = await store.endSession(session.id, 'user-closed');
        expect(ended).toMatchObject({ endReason: 'user-closed' });
        expect(ended.endedAt).toBeInstanceOf(Date);
        const again = await expectError(store.endSession(session.id), SessionEndedError.isInstance);
        expect(again.endReason).toBe('user-closed');
        await expectError(
          store.appendMessages(session.id, userMessages(1)),
          SessionEndedError.isInstance,
        );
      });
    });

    describe('one open head per lineage (a fleet of processes)', () => {
      it('creating one id from many callers at once: one creates it, the others get SessionExistsError', async () => {
        const id = `fleet-${crypto.randomUUID()}`;
        const outcomes = await Promise.allSettled(
          Array.from({ length: 8 }, () => store.createSession({ id })),
        );
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === 'fulfilled') continue;
          expect(SessionExistsError.isInstance(outcome.reason), String(outcome.reason)).toBe(true);
          expect((outcome.reason as SessionExistsError).code).toBe('session_exists');
        }
        expect(await store.listSessions({ rootId: id, includeEnded: true })).toHaveLength(1);
      });

      it('fork with endSource replaces the head in one transaction; racing replacements: one wins', async () => {
        const root = await store.createSession();
        await store.appendMessages(root.id, userMessages(4));
        const outcomes = await Promise.allSettled(
          Array.from({ length: 6 }, (_, index) =>
            store.fork(root.id, { throughSequence: 1, endSource: 'branched', title: `b${index}` }),
          ),
        );
        const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        expect(won).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') {
            expect(SessionEndedError.isInstance(outcome.reason), String(outcome.reason)).toBe(true);
          }
        }
        const branch = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof store.fork>>>)
          .value;
        expect((await store.getSession(root.id)).endReason).toBe('branched');
        expect((await store.getMessages(branch.id)).map((row) => row.message)).toEqual(
          userMessages(2),
        );
        const open = await store.listSessions({ rootId: root.id });
        expect(open.map((session) => session.id)).toEqual([branch.id]);
        // The branch continues the line: compacting it leaves one open head again.
        const { child } = await store.recordCompaction(branch.id, compactResult(userMessages(2)));
        expect(
          (await store.listSessions({ rootId: root.id })).map((session) => session.id),
        ).toEqual([child.id]);
        // An ended source cannot be replaced; the error names where the line went.
        const late = await expectError(
          store.fork(branch.id, { endSource: 'branched' }),
          SessionEndedError.isInstance,
        );
        expect(late.childSessionId).toBe(child.id);
        await expectError(
          store.fork(child.id, { endSource: 'compaction' }),
          InvalidInputError.isInstance,
        );
        // A plain fork still starts a line of its own beside the head (the documented behaviour).
        const side = await store.fork(child.id);
        expect((await store.listSessions({ rootId: root.id })).map((s) => s.id).sort()).toEqual(
          [child.id, side.id].sort(),
        );
      });

      it('the database itself refuses a second open head of a line', async () => {
        const root = await store.createSession();
        await store.appendMessages(root.id, userMessages(3));
        const { child } = await store.recordCompaction(root.id, compactResult(userMessages(3)));
        // Written around the store, as a buggy or older writer would: the unique index refuses it.
        const error = await store.db
          .execute(
            sql`insert into baton_sessions (id, root_id, origin, head_key)
                values (${`rogue-${crypto.randomUUID()}`}, ${root.id}, 'fork', ${root.id})`,
          )
          .then(
            () => undefined,
            (caught: unknown) => caught,
          );
        expect(error, 'a second open head was accepted').toBeDefined();
        expect(isUniqueViolation(error, 'baton_sessions_open_head_key'), String(error)).toBe(true);
        expect((await store.listSessions({ rootId: root.id })).map((s) => s.id)).toEqual([
          child.id,
        ]);
      });
    });

    describe.skipIf(transcripts === undefined)('nothing lost (transcripts)', () => {
      it('keeps every raw message of every ancestor retrievable and deep-equal after repeated compactions', async () => {
        const given = transcripts?.() ?? [];
        expect(given.length).toBeGreaterThan(0);
        let compactionsRecorded = 0;
        for (const transcript of given) {
          const raw = transcript.messages as SessionMessage[];
          // Feed the transcript in four parts, compacting between them as a live agent would.
          const cut = (part: number) => Math.round((raw.length * part) / 4);
          const expectedBySession = new Map<string, SessionMessage[]>();
          // How many leading messages of each session came from a compaction rather than the transcript.
          const compactedCount = new Map<string, number>();
          const root = await store.createSession({ title: transcript.name });
          let current = root.id;
          await store.appendMessages(current, raw.slice(0, cut(1)));
          expectedBySession.set(current, raw.slice(0, cut(1)));
          compactedCount.set(current, 0);
          for (let part = 1; part < 4; part++) {
            const history = expectedBySession.get(current)!;
            const result = compactResult(
              history,
              4,
              `summary of part ${part} of ${transcript.name}`,
            );
            const { child } = await store.recordCompaction(current, result);
            compactionsRecorded++;
            const added = raw.slice(cut(part), cut(part + 1));
            await store.appendMessages(child.id, added, { startSequence: result.messages.length });
            expectedBySession.set(child.id, [...result.messages, ...added]);
            compactedCount.set(child.id, result.messages.length);
            current = child.id;
          }
          const lineage = await store.lineage(current);
          expect(lineage.map((session) => session.id)).toEqual([...expectedBySession.keys()]);
          const originals: SessionMessage[] = [];
          for (const session of lineage) {
            const stored = (await store.getMessages(session.id)).map((row) => row.message);
            expect(stored).toEqual(expectedBySession.get(session.id));
            originals.push(...stored.slice(compactedCount.get(session.id)));
          }
          // The transcript, message for message, is recoverable from the lineage's raw histories.
          expect(originals).toEqual(raw);
          expect((await store.resume(root.id)).messages).toEqual(expectedBySession.get(current));
        }
        expect(compactionsRecorded).toBe(given.length * 3);
      }, 120_000);
    });

    extend?.(() => store);
  });
}
