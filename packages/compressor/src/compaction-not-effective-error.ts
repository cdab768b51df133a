import { BatonError } from '@baton/tokens';
import type { CompressResult } from './types.js';

const marker = Symbol.for('baton.error.compaction_not_effective');

/**
 * The history was over budget but the requested strategy could not shrink it by the minimum ratio
 * (`minimumSavingsRatio`, 10 % by default). Thrown instead of returning a result that would trigger
 * another compaction on the next turn. `result` holds the best attempt, for callers that still want it.
 */
export class CompactionNotEffectiveError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the Symbol.for key
  private readonly [marker] = true;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly targetTokens: number;
  readonly result: CompressResult;

  constructor(options: { targetTokens: number; result: CompressResult }) {
    const { tokensBefore, tokensAfter, strategy } = options.result;
    super({
      code: 'compaction_not_effective',
      message: `compaction by "${strategy}" only went from ${tokensBefore} to ${tokensAfter} tokens (target ${options.targetTokens})${options.result.shortfallReason === undefined ? '' : `: ${options.result.shortfallReason}`}`,
    });
    this.name = 'CompactionNotEffectiveError';
    this.tokensBefore = tokensBefore;
    this.tokensAfter = tokensAfter;
    this.targetTokens = options.targetTokens;
    this.result = options.result;
  }

  static override isInstance(error: unknown): error is CompactionNotEffectiveError {
    return BatonError.hasMarker(error, marker);
  }
}
