import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.store_closed');

/** A method was called on a store after `close()`. Open a new store. */
export class StoreClosedError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;

  constructor({ cause }: { cause?: unknown } = {}) {
    super({ code: 'store_closed', message: 'the session store is closed', cause });
    this.name = 'StoreClosedError';
  }

  static override isInstance(error: unknown): error is StoreClosedError {
    return BatonError.hasMarker(error, marker);
  }
}
