import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDir, corpusSkipReason } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));

describe('baton count (built binary)', () => {
  it('counts the Claude Code fixture per message and in total, as JSON', async () => {
    const { code, stdout, stderr } = await runBuiltCli([
      'count',
      join(fixtures, 'claude-code-session.jsonl'),
      '--json',
    ]);
    expect(stderr).toBe('');
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      format: 'claude-code',
      model: 'gpt-4o',
      encoding: 'o200k_base',
      exact: true,
    });
    expect(report.messages).toHaveLength(7);
    const sum = report.messages.reduce(
      (total: number, row: { tokens: number }) => total + row.tokens,
      0,
    );
    expect(report.total).toBeGreaterThan(sum); // reply priming on top
    expect(report.total - sum).toBeLessThan(10);
  });

  it('prints a table with the total', async () => {
    const { code, stdout, stderr } = await runBuiltCli([
      'count',
      join(fixtures, 'openai-chat.json'),
      '-m',
      'gpt-4',
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/openai-chat, 5 messages\) gpt-4: cl100k_base\n/);
    expect(stdout).toMatch(/^ {4}2 {2}assistant .* tool-call x2$/m);
    expect(stdout).toMatch(/^total \d+ tokens/m);
  });

  describe.skipIf(corpusSkipReason !== undefined)('on the corpus', () => {
    it('matches @baton/tokens on a real transcript', async () => {
      const file = join(
        corpusDir()!,
        'transcripts',
        'dev',
        'mini-swe-agent__gemini-3-pro__django__django-11163.json',
      );
      const { code, stdout, stderr } = await runBuiltCli([
        'count',
        file,
        '--json',
        '--model',
        'gpt-4o',
      ]);
      expect(code, stderr).toBe(0);
      const counter = createTokenCounter({ model: 'gpt-4o' });
      const messages = JSON.parse(readFileSync(file, 'utf8'));
      const report = JSON.parse(stdout);
      expect(report.total).toBe(counter.countMessages(messages));
      expect(report.messages.map((row: { tokens: number }) => row.tokens)).toEqual(
        messages.map((message: never) => counter.countMessage(message)),
      );
      counter.dispose();
    });
  });
});
