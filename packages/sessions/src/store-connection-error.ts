import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.store_connection');

/**
 * The database could not be reached or refused the connection (unknown host, nothing listening,
 * authentication, missing database). `target` is the connection string with its password masked;
 * `cause` is the driver's error.
 */
export class StoreConnectionError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  readonly target: string;
  /** The driver's error code (`ECONNREFUSED`, `ENOTFOUND`, `28P01`, `3D000`, ...), when it has one. */
  readonly reason: string | undefined;
  /**
   * True when the connection broke during the call's `COMMIT`: the server may have committed it, so
   * the call may have been written after all. Read back before acting on the failure (a retried
   * append with `startSequence` skips what is stored; a compaction retried with the same `childId`
   * fails with `CompactionConflictError` naming that child when the first one was written). False
   * for every other failure: nothing of the call was written.
   */
  readonly outcomeUnknown: boolean;

  constructor({
    target,
    reason,
    detail,
    cause,
    outcomeUnknown = false,
  }: {
    target: string;
    reason: string | undefined;
    detail: string;
    cause?: unknown;
    outcomeUnknown?: boolean;
  }) {
    super({
      code: 'store_connection',
      message: `cannot use ${target}: ${detail}${outcomeUnknown ? '; the connection broke during COMMIT, so the call may have been written: read back before retrying' : ''}`,
      cause,
    });
    this.name = 'StoreConnectionError';
    this.target = target;
    this.reason = reason;
    this.outcomeUnknown = outcomeUnknown;
  }

  static override isInstance(error: unknown): error is StoreConnectionError {
    return BatonError.hasMarker(error, marker);
  }
}
