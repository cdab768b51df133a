/** A stream whose write errors arrive as 'error' events (`process.stdout`, `process.stderr`). */
export interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

// What a write to a pipe whose reader has gone away fails with, and what writes to the stream
// fail with after that (Node destroys it on the first error).
const closedCodes = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * Lets `baton` finish its run when the reader of `stream` goes away (`baton count s.json | head -1`,
 * a pager quit early, a log collector that died). The next write then fails with EPIPE, emitted as
 * an 'error' event: unhandled, it killed the process with Node's stack trace and exit 1, and on
 * stderr (a warning printed before compacting) before the output file was written. What nobody
 * reads any more is dropped; files are still written and the exit code is the run's. Any other
 * error of the stream is thrown as before.
 */
export function ignoreClosedPipe(stream: ErrorEmitter): void {
  stream.on('error', (error) => {
    if (closedCodes.has((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  });
}
