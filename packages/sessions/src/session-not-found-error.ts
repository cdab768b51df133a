import { BatonError } from '@baton/tokens';
import { describeSessionId, setHiddenField } from './describe-session-id.js';

const marker = Symbol.for('baton.error.session_not_found');

/** No session has this id. */
export class SessionNotFoundError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  declare readonly sessionId: string;

  constructor({ sessionId, cause }: { sessionId: string; cause?: unknown }) {
    super({
      code: 'session_not_found',
      message: `session ${describeSessionId(sessionId)} not found`,
      cause,
    });
    this.name = 'SessionNotFoundError';
    setHiddenField(this, 'sessionId', sessionId);
  }

  static override isInstance(error: unknown): error is SessionNotFoundError {
    return BatonError.hasMarker(error, marker);
  }
}
