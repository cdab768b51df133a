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

  constructor({
    target,
    reason,
    detail,
    cause,
  }: {
    target: string;
    reason: string | undefined;
    detail: string;
    cause?: unknown;
  }) {
    super({ code: 'store_connection', message: `cannot use ${target}: ${detail}`, cause });
    this.name = 'StoreConnectionError';
    this.target = target;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is StoreConnectionError {
    return BatonError.hasMarker(error, marker);
  }
}
