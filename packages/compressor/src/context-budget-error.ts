import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.context_budget');

/**
 * The parts `compress` must keep verbatim (head, latest user ask, latest assistant reply and any
 * trailing tool call) plus the smallest possible handoff do not fit `targetTokens`. No strategy can
 * help; the caller needs a bigger budget or a shorter head.
 */
export class ContextBudgetError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the Symbol.for key
  private readonly [marker] = true;
  readonly targetTokens: number;
  /** Tokens the kept parts need, overhead included. */
  readonly requiredTokens: number;
  readonly headTokens: number;
  /** Tokens of the smallest protected tail (and the pinned latest user ask, if it sits in the middle). */
  readonly protectedTokens: number;

  constructor(options: {
    targetTokens: number;
    requiredTokens: number;
    headTokens: number;
    protectedTokens: number;
  }) {
    super({
      code: 'context_budget',
      message: `cannot fit ${options.targetTokens} tokens: the head (${options.headTokens}) and the protected minimum (${options.protectedTokens}) need ${options.requiredTokens} tokens with overhead`,
    });
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
