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

/**
 * An invalid value named in an error message without its content: a short word (`bot`,
 * `image-url`) is quoted, anything else is described by its type and length. An error must not
 * carry what the caller put in the wrong field, which may be a credential.
 */
export function describeInvalid(value: unknown): string {
  if (typeof value === 'string') {
    return /^[A-Za-z][A-Za-z-]{0,23}$/.test(value)
      ? JSON.stringify(value)
      : `(a string of ${value.length} characters)`;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return '(an array)';
  return `(${typeof value})`;
}

/**
 * Runs `read` over caller-supplied messages and turns anything but a `BatonError` it throws into
 * a `ReceiptInputError`: a getter or a proxy trap in a tool output may throw anything, and only
 * typed errors leave the package. The thrown value is kept as `cause`, never quoted in the message
 * (it may repeat the data it failed on).
 */
export function readingMessages<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    // A thrown proxy may throw again when asked what it is (`has` trap, revoked proxy).
    let typed = false;
    try {
      // An Error too: a plain object carrying the marker is no error of ours.
      typed = BatonError.isInstance(error) && error instanceof Error;
    } catch {
      // Not one of ours.
    }
    if (typed) throw error;
    throw new ReceiptInputError({
      path: 'messages',
      message: 'could not be read: a getter, a proxy or a conversion threw while reading them',
      cause: error,
    });
  }
}
