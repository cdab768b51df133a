import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const binPath = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the BUILT `baton` binary (run `pnpm build` first) in a child process. */
export function runBuiltCli(
  args: readonly string[],
  options: {
    env?: Record<string, string | undefined>;
    cwd?: string;
    timeoutMs?: number;
    /** Written to the child's stdin, which is then closed. Default: stdin closed at once. */
    input?: string;
  } = {},
): Promise<CliRun> {
  if (!existsSync(binPath)) throw new Error(`${binPath} is missing: run pnpm build first`);
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [binPath, ...args],
      {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(error);
          return;
        }
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}
