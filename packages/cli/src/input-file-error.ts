import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.invalid_input_file');

/**
 * A file or folder named on the command line that cannot be used: an unreadable transcript, invalid
 * JSON, a transcript in no format Baton reads, a folder that is not a session store.
 * `file` names the file and `message` starts with it, so the CLI can print the message as its one line.
 */
export class InputFileError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through `hasMarker`, by symbol.
  private readonly [marker] = true;
  readonly file: string;

  constructor({ file, message, cause }: { file: string; message: string; cause?: unknown }) {
    super({ code: 'invalid_input_file', message: `${file}: ${message}`, cause });
    this.name = 'InputFileError';
    this.file = file;
  }

  static override isInstance(error: unknown): error is InputFileError {
    return BatonError.hasMarker(error, marker);
  }
}
