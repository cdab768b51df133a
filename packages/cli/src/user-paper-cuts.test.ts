import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CliStream, runCli } from './index.js';
import { runBuiltCli } from './test-utils/run-built-cli.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const session = join(fixtures, 'claude-code-session.jsonl');
const openAI = join(fixtures, 'openai-chat.json');

describe('what a new user meets (issue 16)', () => {
  it('`baton` with no arguments is a usage error (exit 2)', async () => {
    const run = await runBuiltCli([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'baton: missing command (expected compact, count, lineage, recall, sessions or summarize) (see baton --help)\n',
    );
  });

  it('`baton count` on a compacted Claude Code session says it counts only after the last boundary', async () => {
    const run = await runBuiltCli(['count', session]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      'baton: warning: Claude Code compacted this session once: counting only what the model sees now (its summary and the turns after the last compaction); --full-history counts every recorded turn\n',
    );
    const full = await runBuiltCli(['count', session, '--full-history']);
    expect(full.stderr).toBe('');
    const json = await runBuiltCli(['count', session, '--json']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout).warnings).toEqual([expect.stringMatching(/--full-history/)]);
    // A session never compacted gets no such line.
    const plain = await runBuiltCli(['count', openAI]);
    expect(plain.stderr).toBe('');
  });

  it('never prints -0%', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'baton-zero-'));
    const copy = join(folder, 'again.json');
    copyFileSync(openAI, copy);
    const one = await runBuiltCli(['compact', openAI]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/^ {2}tokens {5}([\d,]+) -> \1 \(0%\)$/m);
    const table = await runBuiltCli(['compact', openAI, copy]);
    expect(table.stdout).toMatch(/^openai-chat\.json +[\d,]+ +[\d,]+ +0% +none /m);
    for (const run of [one, table]) expect(run.stdout + run.stderr).not.toContain('-0%');
  });

  it('draws whole file names on a terminal that does not say its width', async () => {
    const folder = mkdtempSync(
      join(tmpdir(), 'baton-a-folder-with-a-rather-long-name-for-the-bar-'),
    );
    const files = [
      'first-transcript-with-a-long-name.json',
      'second-transcript-with-a-long-name.json',
    ].map((name) => {
      copyFileSync(openAI, join(folder, name));
      return join(folder, name);
    });
    const capture = (columns: number | undefined): CliStream & { text: string } => ({
      text: '',
      isTTY: true,
      ...(columns === undefined ? {} : { columns }),
      write(chunk: string) {
        this.text += chunk;
        return true;
      },
    });
    const unknownWidth = capture(undefined);
    expect(
      await runCli(['compact', ...files], { stdout: capture(80), stderr: unknownWidth, env: {} }),
    ).toBe(0);
    for (const file of files) expect(unknownWidth.text).toContain(file);
    expect(unknownWidth.text).not.toContain('…');
    // A terminal that gives its width still gets a bar that fits it.
    const narrow = capture(60);
    await runCli(['compact', ...files], { stdout: capture(80), stderr: narrow, env: {} });
    for (const line of narrow.text.split('\r\x1b[2K')) expect(line.length).toBeLessThanOrEqual(60);
  });
});
