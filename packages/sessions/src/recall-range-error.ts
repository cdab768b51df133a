import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.recall_range');

/**
 * A `recall` range that names nothing stored: its session is not in the lineage of the session
 * recalled from, or its sequences hold no message of that session.
 */
export class RecallRangeError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  /** The session recalled from. */
  readonly sessionId: string;
  /** The session the range refers to. */
  readonly rangeSessionId: string;
  readonly fromSequence: number;
  readonly toSequence: number;
  /** Messages stored in `rangeSessionId` (`0` when it is outside the lineage). */
  readonly messageCount: number;

  constructor(fields: {
    sessionId: string;
    rangeSessionId: string;
    fromSequence: number;
    toSequence: number;
    messageCount: number;
    outsideLineage: boolean;
    cause?: unknown;
  }) {
    const { sessionId, rangeSessionId, fromSequence, toSequence, messageCount } = fields;
    super({
      code: 'recall_range',
      message: fields.outsideLineage
        ? `session ${rangeSessionId} is not in the lineage of session ${sessionId}`
        : `sequences ${fromSequence}..${toSequence} hold no message of session ${rangeSessionId}, which has ${messageCount} (sequences 0..${messageCount - 1})`,
      cause: fields.cause,
    });
    this.name = 'RecallRangeError';
    this.sessionId = sessionId;
    this.rangeSessionId = rangeSessionId;
    this.fromSequence = fromSequence;
    this.toSequence = toSequence;
    this.messageCount = messageCount;
  }

  static override isInstance(error: unknown): error is RecallRangeError {
    return BatonError.hasMarker(error, marker);
  }
}
