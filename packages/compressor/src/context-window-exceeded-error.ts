import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.context_window_exceeded');

/**
 * The request cannot be made to fit the model's window: even after compaction the prompt, tool
 * definitions and reserved output need more than the window holds (typically a window too small for
 * the system prompt plus the latest turn). Thrown by `ContextManager.prepare` (the middleware's `transformParams`), before the provider is called.
 */
export class ContextWindowExceededError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the Symbol.for key
  private readonly [marker] = true;
  /** Input tokens the request still needs (prompt and tools, calibrated), after any compaction. */
  readonly requiredTokens: number;
  /** Input tokens the window allows: `contextWindow - reservedOutputTokens`. */
  readonly availableTokens: number;
  readonly contextWindow: number;

  constructor({
    requiredTokens,
    availableTokens,
    contextWindow,
    message,
    cause,
  }: {
    requiredTokens: number;
    availableTokens: number;
    contextWindow: number;
    message?: string;
    cause?: unknown;
  }) {
    super({
      code: 'context_window_exceeded',
      message:
        message ??
        `the request needs ${requiredTokens} input tokens but the ${contextWindow}-token window leaves ${availableTokens} after reserving output`,
      cause,
    });
    this.name = 'ContextWindowExceededError';
    this.requiredTokens = requiredTokens;
    this.availableTokens = availableTokens;
    this.contextWindow = contextWindow;
  }

  static override isInstance(error: unknown): error is ContextWindowExceededError {
    return BatonError.hasMarker(error, marker);
  }
}
