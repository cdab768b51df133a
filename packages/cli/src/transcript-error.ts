import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.invalid_transcript');

/**
 * A transcript file that cannot be used: unreadable, not valid JSON, or in no format Baton reads.
 * `file` names the file and `message` starts with it, so the CLI can print the message as its one line.
 */
export class TranscriptError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through `hasMarker`, by symbol.
  private readonly [marker] = true;
  readonly file: string;

  constructor({ file, message, cause }: { file: string; message: string; cause?: unknown }) {
    super({ code: 'invalid_transcript', message: `${file}: ${message}`, cause });
    this.name = 'TranscriptError';
    this.file = file;
  }

  static override isInstance(error: unknown): error is TranscriptError {
    return BatonError.hasMarker(error, marker);
  }
}
