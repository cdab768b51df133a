import { BatonError } from '@baton/tokens';
import { redactSecrets } from './peer-api.js';

const marker = Symbol.for('baton.error.summarizer');

export type SummarizerFailureKind =
  | 'error'
  | 'timeout'
  | 'aborted'
  | 'rate_limited'
  | 'empty'
  | 'garbage'
  | 'too_long'
  | 'input_too_large';

/**
 * A summariser call that failed. `compress` catches it, retries, and falls back to the receipt; its
 * message becomes `fallbackReason`. Exported so custom summarisers can throw it with a kind.
 */
export class SummarizerError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the Symbol.for key
  private readonly [marker] = true;
  readonly kind: SummarizerFailureKind;
  /** Milliseconds the provider asked to wait (rate limits), when known. */
  readonly retryAfterMs: number | undefined;
  /** Summariser calls made before giving up (set by the compressor). */
  attempts = 0;
  /** Time spent in those calls, in ms (set by the compressor). */
  durationMs = 0;

  constructor(options: {
    kind: SummarizerFailureKind;
    message: string;
    cause?: unknown;
    retryAfterMs?: number;
  }) {
    // Provider errors quote what they were sent or given (an API key in a 401, a prompt excerpt);
    // the message becomes `fallbackReason`, which the lineage store persists.
    super({
      code: 'summarizer',
      message: redactSecrets(options.message).text,
      cause: options.cause,
    });
    this.name = 'SummarizerError';
    this.kind = options.kind;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** Whether another attempt can help (input that cannot fit, or the caller's abort, cannot). */
  get retryable(): boolean {
    return this.kind !== 'aborted' && this.kind !== 'input_too_large';
  }

  static override isInstance(error: unknown): error is SummarizerError {
    return BatonError.hasMarker(error, marker);
  }
}
