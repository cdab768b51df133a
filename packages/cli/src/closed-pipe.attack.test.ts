import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath } from './test-utils/run-built-cli.js';

// Attack: a reader that closes its end of a pipe early (`baton count s.json | head -1`, a pager
// quit, a log collector that died) makes the next write fail with EPIPE, emitted as an 'error'
// event on process.stdout/stderr. Unhandled, it killed `baton` with Node's stack trace and exit 1;
// on stderr (a warning written before the compaction) it killed the run before the output file was
// written.

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built binary with stdout or stderr a pipe whose reading end the parent closes at once
 * (`closed`), or with both read to the end (`closed` undefined: the control).
 */
function runWithClosedReader(
  args: readonly string[],
  cwd: string,
  closed: 'stdout' | 'stderr' | undefined,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    if (closed === 'stdout') child.stdout.destroy();
    else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    if (closed === 'stderr') child.stderr.destroy();
    else child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('attack: the reader of stdout or stderr goes away', () => {
  const folder = mkdtempSync(join(tmpdir(), 'baton-closed-pipe-'));
  // Many messages: `count` prints one line each, far more than a pipe's 64 KB buffer.
  const messages = Array.from({ length: 12_000 }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `turn ${index} ${'lorem ipsum dolor '.repeat(8)}`,
  }));
  writeFileSync(join(folder, 's.json'), JSON.stringify(messages));
  // An unknown --model with --window: a warning goes to stderr before anything is compacted.
  const compactArgs = (out: string) => [
    'compact',
    's.json',
    '--model',
    'not-a-known-model-xyz',
    '--window',
    '16k',
    '--out',
    out,
  ];

  it('stderr closed: the compaction still runs, writes its output and exits 0', async () => {
    expect(existsSync(binPath)).toBe(true);
    // Control: with stderr read, the run writes a warning there (the write that fails when closed).
    const control = await runWithClosedReader(compactArgs('control.json'), folder, undefined);
    expect(control.code).toBe(0);
    expect(control.stderr).toMatch(/warning: unknown --model/);
    expect(existsSync(join(folder, 'control.json'))).toBe(true);

    const run = await runWithClosedReader(compactArgs('out.json'), folder, 'stderr');
    expect(run.code).toBe(0);
    expect(existsSync(join(folder, 'out.json'))).toBe(true);
    // The same compaction (the receipt's record id is random: compare the messages' roles).
    const roles = (file: string) =>
      (JSON.parse(readFileSync(join(folder, file), 'utf8')) as Array<{ role: string }>).map(
        (message) => message.role,
      );
    expect(roles('out.json')).toEqual(roles('control.json'));
    expect(run.stdout).toContain('written');
  });

  it('stdout closed: no stack trace, no EPIPE on stderr, the exit code is the run’s', async () => {
    // Control: the whole report is larger than a pipe's buffer, so a closed reader must meet EPIPE.
    const control = await runWithClosedReader(['count', 's.json'], folder, undefined);
    expect(control.code).toBe(0);
    expect(control.stdout.length).toBeGreaterThan(4 * 65_536);

    for (const args of [
      ['count', 's.json'],
      ['count', 's.json', '--json'],
      ['compact', 's.json', '--window', '16k', '--out', '-'],
    ]) {
      const run = await runWithClosedReader(args, folder, 'stdout');
      expect(run.stderr, args.join(' ')).not.toMatch(/EPIPE|Unhandled|node:events|\n {4}at /);
      expect(run.code, args.join(' ')).toBe(0);
    }
  });
});
