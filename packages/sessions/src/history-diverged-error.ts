import { BatonError } from '@baton/tokens';
import { describeSessionId, setHiddenField } from './describe-session-id.js';

const marker = Symbol.for('baton.error.history_diverged');

/**
 * A verified retry (`appendMessages(..., { verifySkipped: true })`) re-sent a message that differs from
 * the one already stored under that sequence number: the caller's history and the store's diverged
 * (an edited earlier message, a miscounted offset). Nothing of the call was written; fork the session
 * at `sequence - 1` to keep both versions.
 */
export class HistoryDivergedError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  declare readonly sessionId: string;
  readonly sequence: number;

  constructor({
    sessionId,
    sequence,
    cause,
  }: { sessionId: string; sequence: number; cause?: unknown }) {
    super({
      code: 'history_diverged',
      message: `message ${sequence} of session ${describeSessionId(sessionId)} differs from the one already stored`,
      cause,
    });
    this.name = 'HistoryDivergedError';
    setHiddenField(this, 'sessionId', sessionId);
    this.sequence = sequence;
  }

  static override isInstance(error: unknown): error is HistoryDivergedError {
    return BatonError.hasMarker(error, marker);
  }
}
