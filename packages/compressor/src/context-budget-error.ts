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
  /**
   * Set when the latest user ask by itself, beside the system messages and the smallest insert,
   * needs more than `targetTokens`: its own tokens. Baton never cuts or summarises that message, so
   * no compaction of the rest can help; split it, or use a larger window.
   */
  readonly latestAskTokens: number | undefined;

  constructor(options: {
    targetTokens: number;
    requiredTokens: number;
    headTokens: number;
    protectedTokens: number;
    headDemoted?: boolean;
    latestAskTokens?: number;
  }) {
    const head = !options.headDemoted
      ? `the head (${options.headTokens})`
      : options.headTokens === 0
        ? 'no system messages (the first exchange already joined the middle)'
        : `the system messages (${options.headTokens}; the first exchange already joined the middle)`;
    const ask = options.latestAskTokens;
    super({
      code: 'context_budget',
      message:
        ask !== undefined
          ? `cannot fit ${options.targetTokens} tokens: the latest user ask alone takes ${ask} tokens, too many beside the system messages and the smallest insert (the kept parts need ${options.requiredTokens}); it is kept verbatim (never cut or summarised), so compacting the rest cannot help: split it or use a larger window`
          : `cannot fit ${options.targetTokens} tokens: ${head} and the protected minimum (latest user ask, the latest assistant reply and trailing calls when they follow it, system messages after the head: ${options.protectedTokens}) need ${options.requiredTokens} tokens with overhead and the smallest insert`,
    });
    this.headDemoted = options.headDemoted ?? false;
    this.latestAskTokens = ask;
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
