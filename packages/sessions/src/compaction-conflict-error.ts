import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.compaction_conflict');

/**
 * Someone else compacted this parent first (another process, another request). Nothing of this
 * attempt was written; `childSessionId` is the winner's child, the session to continue in.
 */
export class CompactionConflictError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  readonly parentSessionId: string;
  readonly childSessionId: string;

  constructor({
    parentSessionId,
    childSessionId,
    cause,
  }: {
    parentSessionId: string;
    childSessionId: string;
    cause?: unknown;
  }) {
    super({
      code: 'compaction_conflict',
      message: `session ${parentSessionId} was already compacted into ${childSessionId}`,
      cause,
    });
    this.name = 'CompactionConflictError';
    this.parentSessionId = parentSessionId;
    this.childSessionId = childSessionId;
  }

  static override isInstance(error: unknown): error is CompactionConflictError {
    return BatonError.hasMarker(error, marker);
  }
}
