import { BatonError } from './baton-error.js';

const marker = Symbol.for('baton.error.invalid_input');

/**
 * Bad input handed to a Baton API: a non-string where text was expected, a malformed message, an
 * option out of range. `path` names where the problem is (`messages[3].content[1].text`).
 */
export class InvalidInputError extends BatonError {
  readonly [marker] = true;
  readonly path: string;

  constructor({ path, message, cause }: { path: string; message: string; cause?: unknown }) {
    super({ code: 'invalid_input', message: `${path}: ${message}`, cause });
    this.name = 'InvalidInputError';
    this.path = path;
  }

  static override isInstance(error: unknown): error is InvalidInputError {
    return BatonError.hasMarker(error, marker);
  }
}
