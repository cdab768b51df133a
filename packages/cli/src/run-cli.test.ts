import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CliStream, EXIT_CODES, runCli } from './index.js';

const fixture = fileURLToPath(new URL('./__fixtures__/openai-chat.json', import.meta.url));

function stream(options: { isTTY?: boolean } = {}): CliStream & { text: string } {
  return {
    text: '',
    isTTY: options.isTTY ?? false,
    columns: 60,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

describe('runCli (in process)', () => {
  it('prints help and the package version', async () => {
    const stdout = stream();
    expect(await runCli(['--help'], { stdout, stderr: stream() })).toBe(EXIT_CODES.ok);
    expect(stdout.text).toMatch(/^Usage: baton <command>/);
    for (const command of ['compact', 'count', 'lineage', 'recall', 'sessions']) {
      const out = stream();
      expect(await runCli([command, '--help'], { stdout: out })).toBe(0);
      expect(out.text).toMatch(new RegExp(`^Usage: baton ${command} `));
    }
    const version = stream();
    await runCli(['-v'], { stdout: version });
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(version.text).toBe(`${manifest.version}\n`);
  });

  it('draws a progress bar on a terminal and clears it at the end', async () => {
    const stdout = stream();
    const stderr = stream({ isTTY: true });
    const code = await runCli(['compact', fixture, fixture, fixture], { stdout, stderr, env: {} });
    expect(code).toBe(0);
    expect(stderr.text).toContain('\r\x1b[2K[------------------------] 0/3 ');
    expect(stderr.text).toContain('\r\x1b[2K[########################] 3/3 ');
    expect(stderr.text.endsWith('\r\x1b[2K')).toBe(true);
    expect(stdout.text).toMatch(/^total: 3 files, 0 failed/m);
  });

  it('keeps stderr silent in --json mode off a terminal, so machines read stdout alone', async () => {
    const stdout = stream();
    const stderr = stream();
    expect(await runCli(['compact', fixture, fixture, '--json'], { stdout, stderr, env: {} })).toBe(
      0,
    );
    expect(stderr.text).toBe('');
    expect(JSON.parse(stdout.text).files).toHaveLength(2);
  });

  it('returns 2 with one line for bad input and 1 for other failures', async () => {
    const stderr = stream();
    expect(await runCli(['count', '/nonexistent/x.json'], { stdout: stream(), stderr })).toBe(
      EXIT_CODES.badInput,
    );
    expect(stderr.text).toBe('baton: /nonexistent/x.json: cannot read file: no such file\n');
    const usage = stream();
    expect(
      await runCli(['compact', fixture, fixture, '--out', '-'], {
        stdout: stream(),
        stderr: usage,
        env: {},
      }),
    ).toBe(2);
    expect(usage.text).toBe(
      'baton: --out - takes one input file; give a folder for several (see baton --help)\n',
    );
    // An output that cannot be written (its folder is a file): a failure, not bad input.
    const failing = stream();
    const code = await runCli(['compact', fixture, '--out', `${fixture}/x/out.json`], {
      stdout: stream(),
      stderr: failing,
      env: {},
    });
    expect(code).toBe(EXIT_CODES.failure);
  });

  it('returns 3 when the verbatim parts cannot fit the target: reported, not a failure', async () => {
    const stdout = stream();
    const code = await runCli(['compact', fixture, '--window', '100', '--strategy', 'truncate'], {
      stdout,
      stderr: stream(),
      env: {},
    });
    expect(code).toBe(EXIT_CODES.cannotFit);
    expect(stdout.text).toMatch(
      /^ {2}cannot fit .*the latest turn \([\d,]+\) needs? [\d,]+ tokens with the smallest insert, over the target 50; nothing written \(raise --target or --window\)$/m,
    );
  });
});
