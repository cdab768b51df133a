import { BatonError } from '@baton/tokens';
import { describeSessionId, setHiddenField } from './describe-session-id.js';

const marker = Symbol.for('baton.error.lineage_conflict');

/**
 * The write would leave two open heads in one line of succession (the database's
 * `baton_sessions_open_head_key` index refused it): another process moved the line on meanwhile.
 * Nothing was written; read the line's current head (`resume`, `listSessions({ rootId })`) and retry.
 */
export class LineageConflictError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  declare readonly sessionId: string;

  constructor({ sessionId, cause }: { sessionId: string; cause?: unknown }) {
    super({
      code: 'lineage_conflict',
      message: `session ${describeSessionId(sessionId)} would be a second open head of its lineage`,
      cause,
    });
    this.name = 'LineageConflictError';
    setHiddenField(this, 'sessionId', sessionId);
  }

  static override isInstance(error: unknown): error is LineageConflictError {
    return BatonError.hasMarker(error, marker);
  }
}
