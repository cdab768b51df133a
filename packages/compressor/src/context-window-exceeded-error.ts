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
  /**
   * Set when the latest user ask by itself (with the system messages and the smallest insert) does
   * not fit: its tokens. Baton keeps that message verbatim and never cuts or summarises it, so the
   * caller must split it or use a larger window.
   */
  readonly latestAskTokens: number | undefined;

  constructor({
    requiredTokens,
    availableTokens,
    contextWindow,
    message,
    cause,
    latestAskTokens,
  }: {
    requiredTokens: number;
    availableTokens: number;
    contextWindow: number;
    message?: string;
    cause?: unknown;
    latestAskTokens?: number;
  }) {
    super({
      code: 'context_window_exceeded',
      message:
        message ??
        (latestAskTokens !== undefined
          ? `the latest user message alone takes ${latestAskTokens} tokens, more than the ${contextWindow}-token window leaves (${availableTokens} after reserving output) beside the system messages; Baton keeps it verbatim, so split it or use a larger window`
          : undefined) ??
        `the request needs ${requiredTokens} input tokens but the ${contextWindow}-token window leaves ${availableTokens} after reserving output`,
      cause,
    });
    this.name = 'ContextWindowExceededError';
    this.requiredTokens = requiredTokens;
    this.availableTokens = availableTokens;
    this.contextWindow = contextWindow;
    this.latestAskTokens = latestAskTokens;
  }

  static override isInstance(error: unknown): error is ContextWindowExceededError {
    return BatonError.hasMarker(error, marker);
  }
}
