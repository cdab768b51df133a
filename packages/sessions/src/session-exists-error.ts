import { BatonError } from '@baton/tokens';
import { describeSessionId, setHiddenField } from './describe-session-id.js';

const marker = Symbol.for('baton.error.session_exists');

/**
 * A session with this id already exists (`createSession`, `fork` or `recordCompaction` with a given
 * id). Nothing was written. Usually a race between processes creating the same conversation: read the
 * existing session (`getSession`, `resume`) instead.
 */
export class SessionExistsError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  declare readonly sessionId: string;
  /** The option that named the id: `id`, `options.id` or `childId`. */
  readonly path: string;

  constructor({ sessionId, path, cause }: { sessionId: string; path: string; cause?: unknown }) {
    super({
      code: 'session_exists',
      message: `${path}: session ${describeSessionId(sessionId)} already exists`,
      cause,
    });
    this.name = 'SessionExistsError';
    setHiddenField(this, 'sessionId', sessionId);
    this.path = path;
  }

  static override isInstance(error: unknown): error is SessionExistsError {
    return BatonError.hasMarker(error, marker);
  }
}
