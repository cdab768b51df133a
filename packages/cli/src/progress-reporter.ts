import type { CliStream } from './cli-io.js';

/** Progress of a multi-file run on stderr: a redrawn bar on a terminal, plain lines otherwise. */
export interface ProgressReporter {
  /** A file is about to be processed. */
  start(index: number, file: string): void;
  /** That file is done; `summary` is a short outcome (`12,000 -> 3,000 tokens`). */
  done(index: number, file: string, summary: string): void;
  /** Clears the bar. */
  finish(): void;
}

const silent: ProgressReporter = { start() {}, done() {}, finish() {} };

/**
 * A reporter for `total` files. Single-file runs get none (the report says it all); with `plain:
 * false` (the `--json` mode) non-terminal runs get none either, so machines read only stdout.
 */
export function createProgressReporter(
  stream: CliStream,
  total: number,
  options: { plain: boolean },
): ProgressReporter {
  if (total < 2) return silent;
  if (stream.isTTY !== true) {
    if (!options.plain) return silent;
    return {
      start() {},
      done(index, file, summary) {
        stream.write(`[${index + 1}/${total}] ${file}: ${summary}\n`);
      },
      finish() {},
    };
  }
  // A terminal that does not say its width gets the whole name: a guess would cut it (`…on.json`).
  const columns =
    stream.columns !== undefined && stream.columns > 0 ? Math.max(40, stream.columns) : undefined;
  const draw = (completed: number, label: string) => {
    const width = 24;
    const filled = Math.round((completed / total) * width);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
    const head = `[${bar}] ${completed}/${total} `;
    const room = columns === undefined ? Number.POSITIVE_INFINITY : columns - head.length - 1;
    const text = label.length > room ? `…${label.slice(label.length - room + 1)}` : label;
    stream.write(`\r\x1b[2K${head}${text}`);
  };
  return {
    start(index, file) {
      draw(index, file);
    },
    done(index, file) {
      draw(index + 1, file);
    },
    finish() {
      stream.write('\r\x1b[2K');
    },
  };
}
