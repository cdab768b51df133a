import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath } from './test-utils/run-built-cli.js';

// Attack (issue 17 item 7): `-` reads stdin, and stdin can be the very file named by --out.
// `refuseInputs` skips `-`, so the transcript is replaced by its compacted form: the raw history is lost.
const turns = Array.from({ length: 30 }, (_, index) => [
  { role: 'user', content: `question ${index} ${'lorem ipsum '.repeat(40)}` },
  { role: 'assistant', content: `answer ${index} ${'dolor sit amet '.repeat(40)}` },
]).flat();
const original = `${JSON.stringify(turns)}\n`;

function runWithStdinFrom(file: string, args: string[], cwd: string) {
  const fd = openSync(file, 'r');
  try {
    return spawnSync(process.execPath, [binPath, ...args], {
      cwd,
      stdio: [fd, 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: 60_000,
    });
  } finally {
    closeSync(fd);
  }
}

describe('attack: stdin redirected from the output file', () => {
  it('baton compact - --out s.json < s.json refuses (exit 2) and leaves s.json intact', () => {
    const folder = mkdtempSync(join(tmpdir(), 'baton-attack-stdin-'));
    const file = join(folder, 's.json');
    writeFileSync(file, original);
    const run = runWithStdinFrom(
      file,
      ['compact', '-', '--out', 's.json', '--target', '2000'],
      folder,
    );
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(run.status).toBe(2);
  });

  it('baton compact - --out dir/ < dir/stdin.json refuses and leaves dir/stdin.json intact', () => {
    const folder = mkdtempSync(join(tmpdir(), 'baton-attack-stdin-'));
    mkdirSync(join(folder, 'out'));
    const file = join(folder, 'out', 'stdin.json');
    writeFileSync(file, original);
    const run = runWithStdinFrom(
      file,
      ['compact', '-', '--out', 'out/', '--target', '2000'],
      folder,
    );
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(run.status).toBe(2);
  });
});
