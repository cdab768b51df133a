import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.message_validation');

/**
 * A message handed to the store is malformed. `index` is its position in the array passed in, `path`
 * the offending field (`messages[3].content[1].type`). Nothing of the call was written.
 */
export class MessageValidationError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  readonly index: number;
  readonly path: string;

  constructor({
    index,
    path,
    message,
    cause,
  }: {
    index: number;
    path: string;
    message: string;
    cause?: unknown;
  }) {
    super({ code: 'message_validation', message: `${path}: ${message}`, cause });
    this.name = 'MessageValidationError';
    this.index = index;
    this.path = path;
  }

  static override isInstance(error: unknown): error is MessageValidationError {
    return BatonError.hasMarker(error, marker);
  }
}
