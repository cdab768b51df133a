import { BatonError } from '@baton/tokens';
import { describeSessionId, setHiddenField } from './describe-session-id.js';

const marker = Symbol.for('baton.error.session_ended');

/**
 * The session has ended and takes no more messages. When it ended by compaction, `childSessionId`
 * names the session to continue in.
 */
export class SessionEndedError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  declare readonly sessionId: string;
  readonly endReason: string;
  declare readonly childSessionId: string | undefined;

  constructor({
    sessionId,
    endReason,
    childSessionId,
    cause,
  }: {
    sessionId: string;
    endReason: string;
    childSessionId?: string | undefined;
    cause?: unknown;
  }) {
    super({
      code: 'session_ended',
      message:
        childSessionId === undefined
          ? `session ${describeSessionId(sessionId)} has ended (${endReason})`
          : `session ${describeSessionId(sessionId)} has ended (${endReason}); continue in its child session ${describeSessionId(childSessionId)}`,
      cause,
    });
    this.name = 'SessionEndedError';
    setHiddenField(this, 'sessionId', sessionId);
    this.endReason = endReason;
    setHiddenField(this, 'childSessionId', childSessionId);
  }

  static override isInstance(error: unknown): error is SessionEndedError {
    return BatonError.hasMarker(error, marker);
  }
}
