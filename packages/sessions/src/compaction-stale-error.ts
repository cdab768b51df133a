import { BatonError } from '@baton/tokens';
import { describeSessionId, setHiddenField } from './describe-session-id.js';

const marker = Symbol.for('baton.error.compaction_stale');

/**
 * The compaction was computed from an older history of the parent: messages were appended between
 * reading the history and recording its compaction, and the child would silently miss them. Nothing
 * was written; read the history again, compress it again, and record that.
 */
export class CompactionStaleError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  declare readonly parentSessionId: string;
  /** Parent messages the compaction was computed from (`expectedMessageCount`). */
  readonly expectedMessageCount: number;
  /** Parent messages stored when the compaction was recorded. */
  readonly actualMessageCount: number;

  constructor({
    parentSessionId,
    expectedMessageCount,
    actualMessageCount,
    cause,
  }: {
    parentSessionId: string;
    expectedMessageCount: number;
    actualMessageCount: number;
    cause?: unknown;
  }) {
    super({
      code: 'compaction_stale',
      message: `the compaction of session ${describeSessionId(parentSessionId)} was computed from ${expectedMessageCount} messages, but the session now holds ${actualMessageCount}`,
      cause,
    });
    this.name = 'CompactionStaleError';
    setHiddenField(this, 'parentSessionId', parentSessionId);
    this.expectedMessageCount = expectedMessageCount;
    this.actualMessageCount = actualMessageCount;
  }

  static override isInstance(error: unknown): error is CompactionStaleError {
    return BatonError.hasMarker(error, marker);
  }
}
