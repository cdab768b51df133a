import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.usage');

/** The command line itself is wrong: an unknown command or flag, a missing argument, a bad value. */
export class UsageError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through `hasMarker`, by symbol.
  private readonly [marker] = true;

  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ code: 'usage', message, cause });
    this.name = 'UsageError';
  }

  static override isInstance(error: unknown): error is UsageError {
    return BatonError.hasMarker(error, marker);
  }
}
