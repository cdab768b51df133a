const batonErrorMarker = Symbol.for('baton.error');

export interface BatonErrorOptions {
  /** Stable, machine-readable identifier of the failure, e.g. `invalid_input`. */
  code: string;
  message: string;
  cause?: unknown;
}

/**
 * Base class of every error Baton throws. Check with `BatonError.isInstance(error)` (or a subclass's
 * `isInstance`) rather than `instanceof`: the check goes through a `Symbol.for` marker, so it holds
 * when two copies of a Baton package end up in one dependency tree.
 */
export class BatonError extends Error {
  readonly [batonErrorMarker] = true;
  readonly code: string;

  constructor({ code, message, cause }: BatonErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'BatonError';
    this.code = code;
  }

  static isInstance(error: unknown): error is BatonError {
    return BatonError.hasMarker(error, batonErrorMarker);
  }

  /** For subclasses: true when `error` carries `marker`, set by the subclass as a class field. */
  protected static hasMarker(error: unknown, marker: symbol): boolean {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
