import { BatonError } from '@baton/tokens';
import { describeSessionId, setHiddenField } from './describe-session-id.js';

const marker = Symbol.for('baton.error.compaction_conflict');

/**
 * Someone else compacted this parent first (another process, another request). Nothing of this
 * attempt was written; `childSessionId` is the winner's child, the session to continue in.
 */
export class CompactionConflictError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  declare readonly parentSessionId: string;
  declare readonly childSessionId: string;

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
      message: `session ${describeSessionId(parentSessionId)} was already compacted into ${describeSessionId(childSessionId)}`,
      cause,
    });
    this.name = 'CompactionConflictError';
    setHiddenField(this, 'parentSessionId', parentSessionId);
    setHiddenField(this, 'childSessionId', childSessionId);
  }

  static override isInstance(error: unknown): error is CompactionConflictError {
    return BatonError.hasMarker(error, marker);
  }
}
