import { isDeepStrictEqual } from 'node:util';
import { BatonError, InvalidInputError } from '@baton/tokens';
import { and, asc, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import { CompactionConflictError } from './compaction-conflict-error.js';
import { CompactionStaleError } from './compaction-stale-error.js';
import { createTransactionRunner, isCommitOutcomeUnknown } from './create-transaction-runner.js';
import {
  findConnectionProblem,
  findDatabaseError,
  isDriverQueryError,
  isUniqueViolation,
  summariseDriverError,
} from './database-error.js';
import { HistoryDivergedError } from './history-diverged-error.js';
import { LineageConflictError } from './lineage-conflict-error.js';
import { messageSearchText } from './message-search-text.js';
import { migrateDatabase, rowsOf } from './migrate-database.js';
import { checkRecallOptions, recallMessages } from './recall-messages.js';
import { compactions, messages, sessions } from './schema.js';
import { SessionEndedError } from './session-ended-error.js';
import { SessionExistsError } from './session-exists-error.js';
import { SessionNotFoundError } from './session-not-found-error.js';
import { StoreClosedError } from './store-closed-error.js';
import { StoreConnectionError } from './store-connection-error.js';
import { StoreDatabaseError } from './store-database-error.js';
import type {
  AnyPgDatabase,
  AppendMessagesResult,
  Compaction,
  CompactionResult,
  GetMessagesOptions,
  MessageTokenCounter,
  RecordCompactionResult,
  ResumeResult,
  Session,
  SessionMessage,
  SessionOrigin,
  SessionStore,
  StoredMessage,
} from './types.js';
import { findNonJson, isPlainObject, validateMessages, walkJson } from './validate-messages.js';

// Rows per INSERT: far below PostgreSQL's 65,535 bind parameters (5 per row), large enough to batch.
const insertChunkSize = 1_000;
const maxIdLength = 200;
/** Sequence numbers, token counts and message counts live in PostgreSQL `integer` (int4) columns. */
export const maxStoredInteger = 2_147_483_647;

type SessionRow = typeof sessions.$inferSelect;
type CompactionRow = typeof compactions.$inferSelect;

export interface SessionStoreInternals {
  db: AnyPgDatabase;
  backend: SessionStore['backend'];
  tokenCounter: MessageTokenCounter | undefined;
  closeConnection: () => Promise<void>;
  /** What the store is connected to, password masked, for connection errors. */
  target: string;
}

/** Builds the store over an open drizzle database. `createSessionStore` is the public way in. */
export function openSessionStore({
  db,
  backend,
  tokenCounter,
  closeConnection,
  target,
}: SessionStoreInternals): SessionStore {
  let closed: Promise<void> | undefined;
  // Every transaction goes through one runner that never leaks a pooled connection (see its file).
  const transaction = createTransactionRunner(db);
  /** Rejecters of the calls under way, settled by close() once the connection is gone. */
  const inFlight = new Set<(error: unknown) => void>();

  const countTokens = (list: readonly SessionMessage[]): (number | null)[] =>
    list.map((message, index) => {
      if (!tokenCounter) return null;
      const count = tokenCounter.countMessage(message);
      if (
        typeof count !== 'number' ||
        !Number.isFinite(count) ||
        count < 0 ||
        Math.round(count) > maxStoredInteger
      ) {
        throw new InvalidInputError({
          path: `tokenCounter.countMessage(messages[${index}])`,
          message: `returned ${String(count)}, not a number from 0 to ${maxStoredInteger}`,
        });
      }
      // The column is an integer; an estimator may return fractions.
      return Math.round(count);
    });

  const store: SessionStore = {
    db,
    backend,

    migrate: () => migrateDatabase(db, undefined, transaction),

    async createSession(given) {
      const options = checkOptions(given);
      const id = options.id === undefined ? crypto.randomUUID() : checkId(options.id, 'id');
      checkOptionalText(options.model, 'model');
      checkOptionalText(options.title, 'title');
      checkMetadata(options.metadata, 'metadata');
      try {
        return await transaction(async (tx) => {
          let rootId = id;
          let origin: SessionOrigin = 'root';
          if (options.parentId !== undefined) {
            const parent = await findSession(tx, checkId(options.parentId, 'parentId'));
            if (!parent) throw new SessionNotFoundError({ sessionId: options.parentId });
            rootId = parent.rootId;
            origin = 'child';
          }
          const row = await insertSession(tx, {
            id,
            parentId: options.parentId ?? null,
            rootId,
            origin,
            // A root or a child starts a line of succession of its own.
            headKey: id,
            model: options.model ?? null,
            title: options.title ?? null,
            metadata: options.metadata ?? null,
          });
          return toSession(row);
        });
      } catch (error) {
        throw rethrowDuplicateId(error, 'id', id);
      }
    },

    async getSession(id) {
      checkId(id, 'id');
      const row = await findSession(db, id);
      if (!row) throw new SessionNotFoundError({ sessionId: id });
      return toSession(row);
    },

    async appendMessages(sessionId, list, given) {
      checkId(sessionId, 'sessionId');
      const valid = validateMessages(list);
      const options = checkOptions(given);
      const { startSequence } = options;
      if (startSequence !== undefined) checkCount(startSequence, 'startSequence');
      const tokenCounts = countTokens(valid);
      return transaction(async (tx): Promise<AppendMessagesResult> => {
        // The row lock orders this append against compactions and other appends of the session.
        const session = await lockSession(tx, sessionId);
        await throwIfEnded(tx, session);
        const next = await nextSequence(tx, sessionId);
        const start = startSequence ?? next;
        if (start > next) {
          throw new InvalidInputError({
            path: 'startSequence',
            message: `${start} would leave a gap: the next free sequence of ${sessionId} is ${next}`,
          });
        }
        // Sequences are contiguous from 0, so everything below `next` is already stored.
        const skipped = Math.min(valid.length, next - start);
        if (options.verifySkipped && skipped > 0) {
          const stored = await readMessages(tx, sessionId, start, skipped);
          stored.forEach((row, index) => {
            // Compare as stored: JSON drops undefined properties and key order does not matter.
            if (!isDeepStrictEqual(row.message, JSON.parse(JSON.stringify(valid[index])))) {
              throw new HistoryDivergedError({ sessionId, sequence: row.sequence });
            }
          });
        }
        const fresh = valid.slice(skipped);
        await insertMessages(tx, sessionId, start + skipped, fresh, tokenCounts.slice(skipped));
        return {
          appended: fresh.length,
          skipped,
          nextSequence: Math.max(next, start + valid.length),
        };
      });
    },

    async getMessages<Message extends SessionMessage = SessionMessage>(
      sessionId: string,
      given?: GetMessagesOptions,
    ) {
      checkId(sessionId, 'sessionId');
      const options = checkOptions(given);
      const fromSequence = options.fromSequence ?? 0;
      checkCount(fromSequence, 'fromSequence');
      if (options.limit !== undefined) checkCount(options.limit, 'limit', Number.MAX_SAFE_INTEGER);
      const rows = await readMessages(db, sessionId, fromSequence, options.limit);
      if (rows.length === 0 && !(await findSession(db, sessionId))) {
        throw new SessionNotFoundError({ sessionId });
      }
      return rows as StoredMessage<Message>[];
    },

    async recordCompaction(parentId, result, given) {
      checkId(parentId, 'parentId');
      const input = checkCompactionResult(result);
      const options = checkOptions(given);
      const { expectedMessageCount } = options;
      if (expectedMessageCount !== undefined) {
        checkCount(expectedMessageCount, 'expectedMessageCount');
      }
      const childId =
        options.childId === undefined ? crypto.randomUUID() : checkId(options.childId, 'childId');
      checkOptionalText(options.model, 'model');
      checkOptionalText(options.title, 'title');
      checkMetadata(options.metadata, 'metadata');
      const tokenCounts = countTokens(input.messages);
      try {
        return await transaction(async (tx): Promise<RecordCompactionResult> => {
          // Concurrent compactions of one parent queue on this lock; the later one then sees it ended.
          const parent = await lockSession(tx, parentId);
          if (parent.endedAt !== null) {
            const winner = await findCompaction(tx, parentId);
            if (winner) {
              throw new CompactionConflictError({
                parentSessionId: parentId,
                childSessionId: winner.childSessionId,
              });
            }
            throw new SessionEndedError({ sessionId: parentId, endReason: parent.endReason ?? '' });
          }
          // Under the row lock no append can slip in between this count and the commit.
          const parentCount = await nextSequence(tx, parentId);
          if (expectedMessageCount !== undefined && expectedMessageCount !== parentCount) {
            throw new CompactionStaleError({
              parentSessionId: parentId,
              expectedMessageCount,
              actualMessageCount: parentCount,
            });
          }
          checkIndexesInRange(input, parentCount);
          // Ended before the child exists: the line never has two open heads, not even inside this
          // transaction (the unique index is checked per statement).
          const [ended] = await tx
            .update(sessions)
            .set({ endedAt: sql`now()`, endReason: 'compaction' })
            .where(eq(sessions.id, parentId))
            .returning();
          const child = await insertSession(tx, {
            id: childId,
            parentId,
            rootId: parent.rootId,
            origin: 'compaction',
            headKey: parent.headKey ?? parent.id,
            model: options.model ?? parent.model,
            title: options.title ?? parent.title,
            metadata: options.metadata ?? parent.metadata,
          });
          await insertMessages(tx, childId, 0, input.messages, tokenCounts);
          const [compaction] = await tx
            .insert(compactions)
            .values({
              id: crypto.randomUUID(),
              parentSessionId: parentId,
              childSessionId: childId,
              strategy: input.strategy,
              stages: input.stages,
              summary: input.summary,
              usedFallback: input.usedFallback,
              fallbackReason: input.fallbackReason,
              tokensBefore: input.tokensBefore,
              tokensAfter: input.tokensAfter,
              removedSequences: input.removedSequences,
              maskedSequences: input.maskedSequences,
              summarizerModel: input.summarizerModel,
              durationMs: input.durationMs,
              event: input.event,
            })
            .returning();
          return {
            parent: toSession(ended!),
            child: toSession(child),
            compaction: toCompaction(compaction!),
          };
        });
      } catch (error) {
        // The row lock makes this unreachable on one database; kept as a backstop should a caller
        // bypass the lock (e.g. a replica promoted mid-flight): the constraint still decides.
        if (isUniqueViolation(error, 'baton_compactions_parent_session_id_key')) {
          const winner = await findCompaction(db, parentId);
          if (winner) {
            throw new CompactionConflictError({
              parentSessionId: parentId,
              childSessionId: winner.childSessionId,
              cause: error,
            });
          }
        }
        throw rethrowDuplicateId(error, 'childId', childId);
      }
    },

    async getCompaction(parentId) {
      checkId(parentId, 'parentId');
      const row = await findCompaction(db, parentId);
      return row ? toCompaction(row) : undefined;
    },

    async recall(sessionId, given) {
      checkId(sessionId, 'sessionId');
      const options = checkRecallOptions(given);
      if (options.rangeSessionId !== undefined) checkId(options.rangeSessionId, 'rangeSessionId');
      const chain = await store.lineage(sessionId);
      return recallMessages(
        db,
        sessionId,
        chain.map((session) => session.id),
        options,
      );
    },

    async lineage(id) {
      checkId(id, 'id');
      // LATERAL ... LIMIT 1 keeps each step a primary-key lookup; a plain join lets the planner pick
      // a hash join that rescans the whole table at every level (quadratic on deep chains).
      const chain = rowsOf(
        await db.execute(sql`
          with recursive chain(id, parent_id, depth) as (
            select id, parent_id, 0 from baton_sessions where id = ${id}
            union all
            select parent.id, parent.parent_id, chain.depth + 1
            from chain cross join lateral (
              select s.id, s.parent_id from baton_sessions s where s.id = chain.parent_id limit 1
            ) parent
          )
          select id from chain order by depth desc`),
      ).map((row) => String(row.id));
      if (chain.length === 0) throw new SessionNotFoundError({ sessionId: id });
      // Sessions are never deleted and ids never change, so the second read finds every link.
      const rows = await db
        .select()
        .from(sessions)
        .where(sql`${sessions.id} = any(${sql.param(chain)}::text[])`);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return chain.map((sessionId) => toSession(byId.get(sessionId)!));
    },

    async resume<Message extends SessionMessage = SessionMessage>(id: string) {
      checkId(id, 'id');
      return transaction(async (tx): Promise<ResumeResult<Message>> => {
        const leaf = rowsOf(
          await tx.execute(sql`
            with recursive chain(id, depth) as (
              select id, 0 from baton_sessions where id = ${id}
              union all
              select next.child_session_id, chain.depth + 1
              from chain cross join lateral (
                select c.child_session_id from baton_compactions c
                where c.parent_session_id = chain.id limit 1
              ) next
            )
            select id from chain order by depth desc limit 1`),
        )[0];
        if (!leaf) throw new SessionNotFoundError({ sessionId: id });
        const session = await findSession(tx, String(leaf.id));
        const rows = await readMessages(tx, String(leaf.id), 0, undefined);
        return {
          session: toSession(session!),
          messages: rows.map((row) => row.message as Message),
        };
      });
    },

    async fork(id, given) {
      checkId(id, 'id');
      const options = checkOptions(given);
      const forkId =
        options.id === undefined ? crypto.randomUUID() : checkId(options.id, 'options.id');
      if (options.throughSequence !== undefined) {
        if (
          !Number.isInteger(options.throughSequence) ||
          options.throughSequence < -1 ||
          options.throughSequence > maxStoredInteger
        ) {
          throw new InvalidInputError({
            path: 'throughSequence',
            message: `must be an integer from -1 (copies no messages) to ${maxStoredInteger}`,
          });
        }
      }
      checkOptionalText(options.model, 'model');
      checkOptionalText(options.title, 'title');
      checkMetadata(options.metadata, 'metadata');
      const { endSource } = options;
      if (endSource !== undefined) checkEndReason(endSource, 'endSource');
      try {
        return await transaction(async (tx) => {
          let source: SessionRow | undefined;
          if (endSource === undefined) {
            source = await findSession(tx, id);
            if (!source) throw new SessionNotFoundError({ sessionId: id });
          } else {
            // Under the source's row lock, like a compaction: of two processes replacing one head,
            // the second finds it ended (and is told where the line went).
            source = await lockSession(tx, id);
            await throwIfEnded(tx, source);
            await tx
              .update(sessions)
              .set({ endedAt: sql`now()`, endReason: endSource })
              .where(eq(sessions.id, id));
          }
          const row = await insertSession(tx, {
            id: forkId,
            parentId: id,
            rootId: source.rootId,
            origin: 'fork',
            headKey: endSource === undefined ? forkId : (source.headKey ?? source.id),
            model: options.model ?? source.model,
            title: options.title ?? source.title,
            metadata: options.metadata ?? source.metadata,
          });
          const through = options.throughSequence ?? maxStoredInteger;
          await tx.execute(sql`
            insert into baton_messages (session_id, sequence, role, message, token_count, search_text)
            select ${forkId}, sequence, role, message, token_count, search_text
            from baton_messages where session_id = ${id} and sequence <= ${through}`);
          return toSession(row);
        });
      } catch (error) {
        throw rethrowDuplicateId(error, 'options.id', forkId);
      }
    },

    async listSessions(given) {
      const options = checkOptions(given);
      const limit = options.limit ?? 100;
      const offset = options.offset ?? 0;
      checkCount(limit, 'limit', Number.MAX_SAFE_INTEGER);
      checkCount(offset, 'offset', Number.MAX_SAFE_INTEGER);
      if (options.rootId !== undefined) checkId(options.rootId, 'rootId');
      const conditions = [
        options.rootId === undefined ? undefined : eq(sessions.rootId, options.rootId),
        options.includeEnded ? undefined : isNull(sessions.endedAt),
      ].filter((condition) => condition !== undefined);
      const rows = await db
        .select()
        .from(sessions)
        .where(conditions.length === 0 ? undefined : and(...conditions))
        .orderBy(desc(sessions.createdAt), desc(sessions.id))
        .limit(limit)
        .offset(offset);
      return rows.map(toSession);
    },

    async endSession(id, reason = 'closed') {
      checkId(id, 'id');
      checkEndReason(reason, 'reason');
      return transaction(async (tx) => {
        const session = await lockSession(tx, id);
        await throwIfEnded(tx, session);
        const [row] = await tx
          .update(sessions)
          .set({ endedAt: sql`now()`, endReason: reason })
          .where(eq(sessions.id, id))
          .returning();
        return toSession(row!);
      });
    },

    close() {
      closed ??= closeConnection().finally(() => {
        // The connection is gone, so whatever is still pending never got a connection (pg-pool leaves
        // requests queued before end() waiting forever) and wrote nothing: reject it.
        for (const reject of inFlight) reject(new StoreClosedError());
        inFlight.clear();
      });
      return closed;
    },
  };

  // Every method: refuse work after close(), and turn a driver's error into a typed one (the raw one
  // can be a bare ENOTFOUND, a "PGlite is closed" from a call racing close(), or drizzle's
  // `Failed query: <sql> params: <every parameter>`, which holds message contents and session ids).
  const typed = (error: unknown): unknown => {
    if (BatonError.isInstance(error)) return error;
    if (closed !== undefined) return new StoreClosedError({ cause: error });
    // A value the checks above let through but the server refuses (SQLSTATE class 22, data
    // exception): typed, and without the driver's message, which quotes the value.
    const refused = findDatabaseError(error);
    if (refused?.code.startsWith('22')) {
      return new InvalidInputError({
        path: 'input',
        message: `the database refused a value (SQLSTATE ${refused.code})`,
        cause: error,
      });
    }
    const problem = findConnectionProblem(error);
    if (problem) {
      return new StoreConnectionError({
        target,
        reason: problem.code,
        detail: problem.detail,
        cause: error,
        outcomeUnknown: isCommitOutcomeUnknown(error),
      });
    }
    // Any other refusal (a privilege, a read-only transaction, a timeout, a deadlock, a trigger,
    // missing tables): typed, named by its SQLSTATE, never with the SQL or its parameters.
    if (isDriverQueryError(error)) {
      return new StoreDatabaseError({
        sqlstate: refused?.code,
        // The SQLSTATE, with the server's words where they hold no values (see the summary).
        detail: summariseDriverError(error).message,
        cause: error,
      });
    }
    return error;
  };
  const translate = (error: unknown): unknown => {
    const result = typed(error);
    if (BatonError.isInstance(result)) scrubCauses(result);
    return result;
  };
  const guarded: Record<string, unknown> = { db, backend };
  for (const [name, value] of Object.entries(store)) {
    if (typeof value !== 'function' || name === 'close') continue;
    const called = value as (...args: unknown[]) => Promise<unknown>;
    // A read outside a transaction takes a pooled connection directly; one whose backend was
    // killed while idle (a server restart) fails before anything ran. Reads change nothing, so one
    // more try runs on a fresh connection (writes go through the transaction runner, which retries
    // only a failed BEGIN for the same reason).
    const method = readMethods.has(name)
      ? (...args: unknown[]) =>
          called(...args).catch((error: unknown) => {
            if (closed !== undefined || findConnectionProblem(error) === undefined) throw error;
            return called(...args);
          })
      : called;
    guarded[name] = (...args: unknown[]) => {
      if (closed !== undefined) return Promise.reject(new StoreClosedError());
      return new Promise((resolve, reject) => {
        inFlight.add(reject);
        method(...args)
          .then(resolve, (error: unknown) => reject(translate(error)))
          .finally(() => inFlight.delete(reject));
      });
    };
  }
  guarded.close = store.close;
  return guarded as unknown as SessionStore;
}

/**
 * Replaces each driver error in a typed error's `cause` chain by `summariseDriverError`'s copy:
 * `util.inspect` (so `console.error`) and many loggers print a cause whole, and drizzle's error holds
 * the SQL and every parameter. Typed errors of the chain stay; only what the driver made is replaced.
 */
function scrubCauses(error: BatonError): void {
  let current: BatonError = error;
  for (let depth = 0; depth < 8; depth++) {
    const cause = (current as { cause?: unknown }).cause;
    if (cause === undefined || cause === null) return;
    if (BatonError.isInstance(cause)) {
      current = cause;
      continue;
    }
    Object.defineProperty(current, 'cause', {
      value: summariseDriverError(cause),
      writable: true,
      configurable: true,
      enumerable: false,
    });
    return;
  }
}

/** The store's methods that only read, each one statement or a few independent ones. */
const readMethods = new Set(['getSession', 'getCompaction', 'recall', 'lineage', 'listSessions']);

/** `undefined` -> `{}`; anything but a plain object is refused (a `null` would fail later as a TypeError). */
function checkOptions<Options extends object>(options: Options | undefined): Partial<Options> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidInputError({ path: 'options', message: 'must be an object or undefined' });
  }
  return options;
}

/** The compressor's indexes point into the parent's history: they must exist there. */
function checkIndexesInRange(
  input: { removedSequences: number[]; maskedSequences: number[]; positions: [string, number][] },
  parentCount: number,
): void {
  for (const [field, value] of input.positions) {
    // A count or a start index may equal the length (an empty tail); never exceed it.
    if (value > parentCount) {
      throw new InvalidInputError({
        path: `result.event.${field}`,
        message: `${value} is out of range: the parent holds ${parentCount} messages`,
      });
    }
  }
  for (const [list, field] of [
    [input.removedSequences, 'removedMessageIndexes'],
    [input.maskedSequences, 'maskedMessageIndexes'],
  ] as const) {
    const outside = list.find((index) => index >= parentCount);
    if (outside !== undefined) {
      throw new InvalidInputError({
        path: `result.event.${field}`,
        message: `index ${outside} is out of range: the parent holds ${parentCount} messages`,
      });
    }
  }
}

async function findSession(db: AnyPgDatabase, id: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  return row;
}

async function lockSession(tx: AnyPgDatabase, id: string): Promise<SessionRow> {
  const [row] = await tx.select().from(sessions).where(eq(sessions.id, id)).for('update');
  if (!row) throw new SessionNotFoundError({ sessionId: id });
  return row;
}

async function findCompaction(
  db: AnyPgDatabase,
  parentId: string,
): Promise<CompactionRow | undefined> {
  const [row] = await db
    .select()
    .from(compactions)
    .where(eq(compactions.parentSessionId, parentId));
  return row;
}

async function throwIfEnded(tx: AnyPgDatabase, session: SessionRow): Promise<void> {
  if (session.endedAt === null) return;
  const compaction = await findCompaction(tx, session.id);
  throw new SessionEndedError({
    sessionId: session.id,
    endReason: session.endReason ?? 'ended',
    childSessionId: compaction?.childSessionId,
  });
}

async function nextSequence(tx: AnyPgDatabase, sessionId: string): Promise<number> {
  const [row] = await tx
    .select({ next: sql<number>`coalesce(max(${messages.sequence}) + 1, 0)`.mapWith(Number) })
    .from(messages)
    .where(eq(messages.sessionId, sessionId));
  return row?.next ?? 0;
}

async function insertSession(
  tx: AnyPgDatabase,
  values: Omit<typeof sessions.$inferInsert, 'createdAt' | 'endedAt' | 'endReason'>,
): Promise<SessionRow> {
  const [row] = await tx.insert(sessions).values(values).returning();
  return row!;
}

async function insertMessages(
  tx: AnyPgDatabase,
  sessionId: string,
  firstSequence: number,
  list: readonly SessionMessage[],
  tokenCounts: readonly (number | null)[],
): Promise<void> {
  for (let offset = 0; offset < list.length; offset += insertChunkSize) {
    const chunk = list.slice(offset, offset + insertChunkSize);
    await tx.insert(messages).values(
      chunk.map((message, index) => ({
        sessionId,
        sequence: firstSequence + offset + index,
        role: message.role,
        // A shallow copy: drizzle inspects column values and trips on null-prototype objects.
        message: { ...message },
        tokenCount: tokenCounts[offset + index] ?? null,
        searchText: messageSearchText(message),
      })),
    );
  }
}

async function readMessages(
  db: AnyPgDatabase,
  sessionId: string,
  fromSequence: number,
  limit: number | undefined,
): Promise<StoredMessage[]> {
  // Only what a StoredMessage holds: the search columns would double what is read.
  const query = db
    .select({
      sessionId: messages.sessionId,
      sequence: messages.sequence,
      role: messages.role,
      message: messages.message,
      tokenCount: messages.tokenCount,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.sessionId, sessionId), gte(messages.sequence, fromSequence)))
    .orderBy(asc(messages.sequence));
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.map((row) => ({
    sessionId: row.sessionId,
    sequence: row.sequence,
    role: row.role,
    message: row.message as SessionMessage,
    tokenCount: row.tokenCount,
    createdAt: row.createdAt,
  }));
}

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    parentId: row.parentId,
    rootId: row.rootId,
    origin: row.origin as SessionOrigin,
    createdAt: row.createdAt,
    endedAt: row.endedAt,
    endReason: row.endReason,
    model: row.model,
    title: row.title,
    metadata: row.metadata ?? null,
  };
}

function toCompaction(row: CompactionRow): Compaction {
  return {
    id: row.id,
    parentSessionId: row.parentSessionId,
    childSessionId: row.childSessionId,
    strategy: row.strategy,
    stages: row.stages,
    summary: row.summary,
    usedFallback: row.usedFallback,
    fallbackReason: row.fallbackReason,
    tokensBefore: row.tokensBefore,
    tokensAfter: row.tokensAfter,
    removedSequences: row.removedSequences,
    maskedSequences: row.maskedSequences,
    summarizerModel: row.summarizerModel,
    durationMs: row.durationMs,
    event: row.event ?? null,
    createdAt: row.createdAt,
  };
}

function rethrowDuplicateId(error: unknown, path: string, sessionId: string): unknown {
  if (isUniqueViolation(error, 'baton_sessions_pkey')) {
    return new SessionExistsError({ sessionId, path, cause: error });
  }
  if (isUniqueViolation(error, 'baton_sessions_open_head_key')) {
    return new LineageConflictError({ sessionId, cause: error });
  }
  return error;
}

function checkEndReason(reason: unknown, path: string): void {
  if (typeof reason !== 'string' || reason.trim() === '' || reason === 'compaction') {
    throw new InvalidInputError({
      path,
      message: 'must be a non-empty string other than `compaction` (use recordCompaction)',
    });
  }
  checkStorableText(reason, path);
}

function checkId(id: unknown, path: string): string {
  if (typeof id !== 'string' || id.length === 0 || id.length > maxIdLength) {
    throw new InvalidInputError({
      path,
      message: `must be a non-empty string of at most ${maxIdLength} characters`,
    });
  }
  checkStorableText(id, path);
  return id;
}

// An unpaired surrogate: a high one not followed by a low one, or a low one not preceded by a high one.
const unpairedSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Text PostgreSQL cannot keep as given. NUL is refused by `text` and `jsonb` columns (the driver's
 * error would carry the SQL and its parameters); an unpaired surrogate becomes U+FFFD on the way to
 * UTF-8, so two different ids would name one row. Messages are exempt: their `json` column keeps both.
 */
function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain a NUL character (U+0000)';
  if (unpairedSurrogate.test(value)) return 'must not contain an unpaired UTF-16 surrogate';
  return undefined;
}

function checkStorableText(value: string, path: string): void {
  const problem = unstorableText(value);
  if (problem !== undefined) throw new InvalidInputError({ path, message: problem });
}

/**
 * The first string (key or value) in plain JSON data that `unstorableText` refuses, or nesting deeper
 * than the store accepts. Iterative (`walkJson`), so deep data is refused with a typed error rather
 * than a stack overflow.
 */
function findUnstorableText(
  value: unknown,
  path: string,
): { path: string; message: string } | undefined {
  return walkJson(value, path, (child) =>
    typeof child === 'string' ? unstorableText(child) : undefined,
  );
}

function checkCount(value: unknown, path: string, max = maxStoredInteger): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > max) {
    throw new InvalidInputError({ path, message: `must be an integer from 0 to ${max}` });
  }
}

function checkOptionalText(value: unknown, path: string): void {
  if (value === undefined) return;
  if (typeof value !== 'string') {
    throw new InvalidInputError({ path, message: 'must be a string' });
  }
  checkStorableText(value, path);
}

function checkMetadata(value: unknown, path: string): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) {
    throw new InvalidInputError({ path, message: 'must be a plain object' });
  }
  // The same rule as messages: what JSON would silently change (Date -> string, NaN -> null) is refused.
  const problem = findNonJson(value, path) ?? findUnstorableText(value, path);
  if (problem) throw new InvalidInputError(problem);
}

/** Deduplicated and sorted; the range check against the parent runs under its row lock. */
function checkIndexes(value: unknown, path: string): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => Number.isSafeInteger(item) && item >= 0)) {
    throw new InvalidInputError({ path, message: 'must be an array of non-negative integers' });
  }
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

function checkCompactionResult(result: CompactionResult<SessionMessage>) {
  if (typeof result !== 'object' || result === null) {
    throw new InvalidInputError({ path: 'result', message: 'must be a compaction result object' });
  }
  const list = validateMessages(result.messages, 'result.messages');
  if (typeof result.strategy !== 'string' || result.strategy === '') {
    throw new InvalidInputError({ path: 'result.strategy', message: 'must be a non-empty string' });
  }
  checkStorableText(result.strategy, 'result.strategy');
  checkCount(result.tokensBefore, 'result.tokensBefore');
  checkCount(result.tokensAfter, 'result.tokensAfter');
  if (typeof result.usedFallback !== 'boolean') {
    throw new InvalidInputError({ path: 'result.usedFallback', message: 'must be a boolean' });
  }
  checkOptionalText(result.summary, 'result.summary');
  checkOptionalText(result.fallbackReason, 'result.fallbackReason');
  const event = result.event;
  if (event !== undefined && (typeof event !== 'object' || event === null)) {
    throw new InvalidInputError({ path: 'result.event', message: 'must be an object' });
  }
  let eventJson: Record<string, unknown> | null = null;
  if (event) {
    try {
      eventJson = JSON.parse(JSON.stringify(event)) as Record<string, unknown>;
    } catch (cause) {
      throw new InvalidInputError({
        path: 'result.event',
        message: 'must be JSON-serialisable',
        cause,
      });
    }
  }
  const stages = event?.stages === undefined ? [result.strategy] : [...event.stages];
  if (!stages.every((stage) => typeof stage === 'string')) {
    throw new InvalidInputError({ path: 'result.event.stages', message: 'must be strings' });
  }
  // The event is jsonb, which refuses what `text` refuses.
  const eventProblem = findUnstorableText(eventJson, 'result.event');
  if (eventProblem) throw new InvalidInputError(eventProblem);
  const durationMs = event?.durationMs;
  if (
    durationMs !== undefined &&
    (typeof durationMs !== 'number' || !Number.isFinite(durationMs))
  ) {
    throw new InvalidInputError({ path: 'result.event.durationMs', message: 'must be a number' });
  }
  checkOptionalText(event?.summarizerModel, 'result.event.summarizerModel');
  const removedSequences = checkIndexes(
    event?.removedMessageIndexes,
    'result.event.removedMessageIndexes',
  );
  const maskedSequences = checkIndexes(
    event?.maskedMessageIndexes,
    'result.event.maskedMessageIndexes',
  );
  // Positions in the parent's history, range-checked under its lock (the compressor's event has them).
  const positions: [string, number][] = [];
  for (const field of ['headMessageCount', 'tailStartIndex'] as const) {
    const value = eventJson?.[field];
    if (value === undefined) continue;
    checkCount(value, `result.event.${field}`);
    positions.push([field, value as number]);
  }
  if (eventJson) {
    // The stored event agrees with the broken-out columns.
    if (event?.removedMessageIndexes !== undefined)
      eventJson.removedMessageIndexes = removedSequences;
    if (event?.maskedMessageIndexes !== undefined) eventJson.maskedMessageIndexes = maskedSequences;
  }
  return {
    messages: list,
    strategy: result.strategy,
    stages,
    summary: result.summary ?? null,
    usedFallback: result.usedFallback,
    fallbackReason: result.fallbackReason ?? null,
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    removedSequences,
    maskedSequences,
    positions,
    summarizerModel: event?.summarizerModel ?? null,
    durationMs: durationMs ?? null,
    event: eventJson,
  };
}
