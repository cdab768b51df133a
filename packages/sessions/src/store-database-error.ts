import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.store_database');

/**
 * The database refused the call for a reason that is neither bad input nor a lost connection: a
 * missing privilege (42501), a read-only transaction after a failover (25006), a statement or lock
 * timeout (57014, 55P03), a serialization failure or deadlock (40001, 40P01), a full disk (53100),
 * tables not migrated (42P01), an application's trigger or constraint. `sqlstate` is the server's
 * code when there is one. The message names it, with the server's own words when that kind of
 * message holds no values; it never holds the SQL, its parameters or the row (`detail`), and `cause`
 * is a summary of the driver's error with only those safe fields.
 */
export class StoreDatabaseError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  /** The SQLSTATE (`42501`, `25006`, ...), or undefined when the driver failed without one. */
  readonly sqlstate: string | undefined;

  constructor({
    sqlstate,
    detail,
    cause,
  }: {
    sqlstate: string | undefined;
    detail: string;
    cause?: unknown;
  }) {
    super({ code: 'store_database', message: `the database refused the call: ${detail}`, cause });
    this.name = 'StoreDatabaseError';
    this.sqlstate = sqlstate;
  }

  static override isInstance(error: unknown): error is StoreDatabaseError {
    return BatonError.hasMarker(error, marker);
  }
}
