import type { CliStream } from '../cli-io.js';

/** A non-TTY stream of 80 columns that keeps what is written to it in `text`. */
export function captureStream(): CliStream & { text: string } {
  return {
    text: '',
    isTTY: false,
    columns: 80,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}
