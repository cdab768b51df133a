import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.session_not_found');

/** No session has this id. */
export class SessionNotFoundError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  readonly sessionId: string;

  constructor({ sessionId, cause }: { sessionId: string; cause?: unknown }) {
    super({ code: 'session_not_found', message: `session ${sessionId} not found`, cause });
    this.name = 'SessionNotFoundError';
    this.sessionId = sessionId;
  }

  static override isInstance(error: unknown): error is SessionNotFoundError {
    return BatonError.hasMarker(error, marker);
  }
}
