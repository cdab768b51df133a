import { sql } from 'drizzle-orm';
import { findConnectionProblem } from './database-error.js';
import type { AnyPgDatabase } from './types.js';

/** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
export type TransactionRunner = <Result>(
  work: (tx: AnyPgDatabase) => Promise<Result>,
) => Promise<Result>;

/** The parts of a node-postgres `Pool` and `PoolClient` the runner uses. */
interface PoolClientLike {
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  release(error?: Error | boolean): void;
}
interface PoolLike {
  connect(callback: (error: Error | undefined, client: PoolClientLike | undefined) => void): void;
}

/** drizzle's node-postgres classes, loaded on the first transaction (only a pool-backed store needs them). */
type NodePostgresModule = typeof import('drizzle-orm/node-postgres');
type SessionParameters = ConstructorParameters<NodePostgresModule['NodePgSession']>;

/** Where drizzle's database object keeps what a session over one checked-out client needs. */
interface DatabaseInternals {
  dialect: SessionParameters[1];
  session: { options?: SessionParameters[3] };
  _: { schema: SessionParameters[2] };
}

/**
 * The store's one way into a transaction. Over a node-postgres pool it checks the client out itself
 * rather than through drizzle's `db.transaction`, which leaks the client when `BEGIN` fails (its
 * `release` sits in a `finally` that `BEGIN` is outside of) and hands a client whose `ROLLBACK`
 * failed back to the pool for reuse. A leaked client is never returned: later calls queue for it
 * forever and `pool.end()` (so `close()`) never resolves. Here every path releases the client exactly
 * once, and destroys it (`release(error)`) whenever its state is unknown: `BEGIN`, `COMMIT` or
 * `ROLLBACK` failed, or the connection reported an error while checked out. Other databases (PGlite,
 * postgres.js, a single client) keep drizzle's own `transaction`.
 */
export function createTransactionRunner(db: AnyPgDatabase): TransactionRunner {
  const pool = (db as { $client?: unknown }).$client;
  if (!isNodePostgresPool(pool)) {
    return (work) => db.transaction((tx) => work(tx as unknown as AnyPgDatabase));
  }
  // drizzle's database keeps its dialect (casing), session options (logger) and schema here; a
  // transaction over one checked-out client reuses them, as drizzle's own `transaction` does.
  const internals = db as unknown as DatabaseInternals;
  let loading: Promise<NodePostgresModule> | undefined;
  const run = async <Result>(
    work: (tx: AnyPgDatabase) => Promise<Result>,
    retry: boolean,
  ): Promise<Result> => {
    loading ??= import('drizzle-orm/node-postgres');
    const { NodePgSession, NodePgTransaction } = await loading;
    let broken: Error | undefined;
    // While checked out, pg-pool's own listener is off: an 'error' event with no listener would
    // kill the process. The query in flight rejects on its own; the event only marks the client.
    const onError = (error: Error) => {
      broken ??= error;
    };
    // The callback form: pg-pool calls it synchronously, inside the socket read that completed the
    // connection, so the listener is on before the rest of that read (a FATAL from a backend killed
    // right after its startup) is handled. With `await pool.connect()` it came a microtask late.
    const client = await new Promise<PoolClientLike>((resolve, reject) => {
      pool.connect((error, checkedOut) => {
        if (error !== undefined && error !== null) return reject(error);
        checkedOut!.on('error', onError);
        resolve(checkedOut!);
      });
    });
    try {
      // The checked-out client is a pg `PoolClient`; only the listener methods are typed above.
      const session = new NodePgSession(
        client as unknown as SessionParameters[0],
        internals.dialect,
        internals._.schema,
        internals.session.options,
      );
      const tx = new NodePgTransaction(
        internals.dialect,
        session,
        internals._.schema,
      ) as unknown as AnyPgDatabase;
      try {
        await tx.execute(sql`begin`);
      } catch (error) {
        broken ??= asError(error);
        // An idle pooled connection whose backend was killed (a restart, `pg_terminate_backend`)
        // is handed out before its error event is read: `BEGIN` fails and nothing ran, so one
        // retry on a fresh connection is safe (this client is destroyed in `finally` first).
        if (retry && findConnectionProblem(error) !== undefined) throw new BeganOnDeadConnection();
        throw error;
      }
      let result: Result;
      try {
        result = await work(tx);
      } catch (error) {
        try {
          await tx.execute(sql`rollback`);
        } catch (rollbackError) {
          // On a dead connection ROLLBACK fails too; the caller needs the first error, and the
          // server discards the open transaction with the connection.
          broken ??= asError(rollbackError);
        }
        throw error;
      }
      try {
        await tx.execute(sql`commit`);
      } catch (error) {
        broken ??= asError(error);
        // The connection broke with COMMIT sent: the server may have committed before it went (or
        // the reply was lost on the way). Unlike every earlier failure, this one may have written.
        if (findConnectionProblem(error) !== undefined) throw new CommitOutcomeUnknown(error);
        throw error;
      }
      return result;
    } finally {
      client.off('error', onError);
      // With an error, pg-pool closes the connection instead of pooling it; it opens a fresh one on demand.
      client.release(broken);
    }
  };
  return async (work) => {
    try {
      return await run(work, true);
    } catch (error) {
      if (!(error instanceof BeganOnDeadConnection)) throw error;
      return run(work, false);
    }
  };
}

const commitOutcomeUnknown = Symbol.for('baton.sessions.commitOutcomeUnknown');

/**
 * The connection broke while `COMMIT` was under way: whether the transaction was committed is
 * unknown. The driver's error is the `cause` (so it is still recognised as a connection problem).
 */
class CommitOutcomeUnknown extends Error {
  readonly [commitOutcomeUnknown] = true;
  constructor(cause: unknown) {
    super('the connection broke during COMMIT', { cause });
    this.name = 'CommitOutcomeUnknown';
  }
}

/** True when `error` is a connection failure during `COMMIT`: the transaction may have committed. */
export function isCommitOutcomeUnknown(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[commitOutcomeUnknown] === true
  );
}

/** `BEGIN` failed on a connection that was already dead: nothing ran, try a fresh one. */
class BeganOnDeadConnection extends Error {}

function isNodePostgresPool(value: unknown): value is PoolLike {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  // pg-pool's shape; a single pg.Client has `connect` too but no pool counters.
  return (
    typeof candidate.connect === 'function' &&
    typeof candidate.query === 'function' &&
    'totalCount' in candidate &&
    'idleCount' in candidate &&
    'waitingCount' in candidate
  );
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
