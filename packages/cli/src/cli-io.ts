/** A stream the CLI writes to (`process.stdout`/`process.stderr`, or a test double). */
export interface CliStream {
  write(text: string): unknown;
  /** True for a terminal: the progress bar is drawn only then. */
  isTTY?: boolean;
  columns?: number;
}

/** What `runCli` talks to. Each field defaults to the real process's. */
export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  env: Record<string, string | undefined>;
}
