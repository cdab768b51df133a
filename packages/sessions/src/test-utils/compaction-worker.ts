import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { workerExecArgv } from './worker-exec-argv.js';

const workerPath = fileURLToPath(new URL('../__fixtures__/compaction-worker.ts', import.meta.url));

/** What a compaction worker answers for one `compact` command. */
export interface CompactionOutcome {
  round: number;
  ok: boolean;
  childId?: string;
  code?: string;
  childSessionId?: string;
  message?: string;
  startedAt: number;
  endedAt: number;
}

/**
 * A long-lived worker process (`__fixtures__/compaction-worker.ts`) holding an open store on
 * `connectionString`, and a way to wait for its report of a given round.
 */
export function startCompactionWorker(connectionString: string) {
  const child = fork(workerPath, [connectionString], {
    execArgv: workerExecArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (outcome: CompactionOutcome) => void>();
  const ready = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`worker exited early with code ${code}`)));
    child.on('message', (message: CompactionOutcome | { type: 'ready' }) => {
      if ('type' in message) resolve();
      else waiting.get(message.round)?.(message);
    });
  });
  return {
    process: child as ChildProcess,
    ready,
    compact(round: number, parentId: string): Promise<CompactionOutcome> {
      const outcome = new Promise<CompactionOutcome>((resolve) => waiting.set(round, resolve));
      child.send({ type: 'compact', round, parentId });
      return outcome;
    },
    close(): Promise<void> {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'close' });
      });
    },
  };
}
