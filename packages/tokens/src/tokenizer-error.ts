import { BatonError } from './baton-error.js';

const marker = Symbol.for('baton.error.tokenizer_failed');

/**
 * The exact tokenizer failed on a text (its WASM trapped, or a custom encoder threw). Counting
 * never lets a raw `RuntimeError` out; the message names the encoding and length only, never the
 * text.
 */
export class TokenizerError extends BatonError {
  readonly [marker] = true;

  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ code: 'tokenizer_failed', message, cause });
    this.name = 'TokenizerError';
  }

  static override isInstance(error: unknown): error is TokenizerError {
    return BatonError.hasMarker(error, marker);
  }
}
