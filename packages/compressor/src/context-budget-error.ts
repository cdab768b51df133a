import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.context_budget');

/**
 * The parts `compress` must keep verbatim (system messages, the latest user ask, the latest assistant
 * reply and any trailing tool call when they follow that ask: a tool round trip before it is not kept) plus the smallest possible insert (handoff or notice) do not fit
 * `targetTokens`, even after the first exchange gave up its place in the head (`headDemoted`). No
 * strategy can help; the caller needs a bigger budget or shorter system messages or latest turn.
 */
export class ContextBudgetError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the Symbol.for key
  private readonly [marker] = true;
  readonly targetTokens: number;
  /** Tokens the kept parts need, overhead included. */
  readonly requiredTokens: number;
  readonly headTokens: number;
  /**
   * Tokens of the smallest protected tail, the pinned latest user ask (if it sits in the middle) and
   * the system messages between the head and that tail (kept verbatim wherever they sit).
   */
  readonly protectedTokens: number;
  /** True when `headTokens` is already only the system messages (the first exchange was demoted). */
  readonly headDemoted: boolean;

  constructor(options: {
    targetTokens: number;
    requiredTokens: number;
    headTokens: number;
    protectedTokens: number;
    headDemoted?: boolean;
  }) {
    const head = !options.headDemoted
      ? `the head (${options.headTokens})`
      : options.headTokens === 0
        ? 'no system messages (the first exchange already joined the middle)'
        : `the system messages (${options.headTokens}; the first exchange already joined the middle)`;
    super({
      code: 'context_budget',
      message: `cannot fit ${options.targetTokens} tokens: ${head} and the protected minimum (latest user ask, the latest assistant reply and trailing calls when they follow it, system messages after the head: ${options.protectedTokens}) need ${options.requiredTokens} tokens with overhead and the smallest insert`,
    });
    this.headDemoted = options.headDemoted ?? false;
    this.name = 'ContextBudgetError';
    this.targetTokens = options.targetTokens;
    this.requiredTokens = options.requiredTokens;
    this.headTokens = options.headTokens;
    this.protectedTokens = options.protectedTokens;
  }

  static override isInstance(error: unknown): error is ContextBudgetError {
    return BatonError.hasMarker(error, marker);
  }
}
