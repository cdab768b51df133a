import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.receipt_input');

/**
 * A message handed to `createReceipt` (or `redactMessages`) that no AI SDK `ModelMessage` can be:
 * a missing role, content of the wrong type, a part without a `type`. `path` names the spot
 * (`messages[3].content[1].output`).
 */
export class ReceiptInputError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through the Symbol.for key in isInstance
  private readonly [marker] = true;
  readonly path: string;

  constructor({ path, message, cause }: { path: string; message: string; cause?: unknown }) {
    super({ code: 'receipt_input', message: `${path}: ${message}`, cause });
    this.name = 'ReceiptInputError';
    this.path = path;
  }

  static override isInstance(error: unknown): error is ReceiptInputError {
    return BatonError.hasMarker(error, marker);
  }
}
