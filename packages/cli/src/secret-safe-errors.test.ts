import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

/** Secrets of several shapes, new on every run: known vendor prefixes and plain random words. */
function secrets(): string[] {
  const alphanumeric = (length: number) =>
    Array.from(randomBytes(length), (byte) =>
      'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.charAt(byte % 62),
    ).join('');
  const letters = (length: number) =>
    Array.from(randomBytes(length), (byte) => 'abcdefghijklmnopqrstuvwxyz'.charAt(byte % 26)).join(
      '',
    );
  return [
    `sk-proj-${alphanumeric(40)}`,
    `ghp_${alphanumeric(36)}`,
    `AKIA${alphanumeric(16).toUpperCase()}`,
    alphanumeric(24),
    // A password-like word: no shape gives it away, so only never echoing values protects it.
    `${letters(6)}${String(randomBytes(1)[0])}`,
  ];
}

/** No 6-character piece of the secret appears in the output. */
function expectNotEchoed(output: string, secret: string, context: string): void {
  for (let start = 0; start + 6 <= secret.length; start++) {
    expect(output, `${context}: echoed ${secret.slice(start, start + 6)}`).not.toContain(
      secret.slice(start, start + 6),
    );
  }
}

const folder = mkdtempSync(join(tmpdir(), 'baton-secret-errors-'));
const good = join(folder, 'good.json');
writeFileSync(good, JSON.stringify([{ role: 'user', content: 'hello' }]));

describe('one-line errors never print the offending value (built binary)', () => {
  const cases: Array<[string, (secret: string) => string[]]> = [
    ['--window', (secret) => ['compact', good, '--window', secret]],
    ['--target', (secret) => ['compact', good, '--target', secret]],
    ['--keep-last', (secret) => ['compact', good, '--keep-last', secret]],
    ['--strategy', (secret) => ['compact', good, '--strategy', secret]],
    ['--format', (secret) => ['count', good, '--format', secret]],
    ['--output-format', (secret) => ['compact', good, '--output-format', secret]],
    ['--summarizer', (secret) => ['compact', good, '--summarizer', secret]],
    ['--summarizer provider', (secret) => ['compact', good, '--summarizer', `${secret}:model`]],
    ['a command', (secret) => [secret]],
    ['help on a command', (secret) => ['help', secret]],
    ['an option', (secret) => ['compact', good, `--${secret}=1`]],
    ['a lineage id', (secret) => ['lineage', folder, secret]],
  ];
  it.each(cases)('%s', async (name, args) => {
    for (const secret of secrets()) {
      const run = await runBuiltCli(args(secret), { env: { OPENAI_API_KEY: '' } });
      expect(run.code, `${name}: ${run.stderr}`).toBe(2);
      expect(run.stderr.split('\n'), name).toHaveLength(2);
      expectNotEchoed(run.stdout + run.stderr, secret, name);
    }
  });

  it('file contents: a secret in a role, a part type, a tool call, broken JSON or JSONL', async () => {
    for (const secret of secrets()) {
      const files: Record<string, string> = {
        'role.json': JSON.stringify([{ role: secret, content: 'x' }]),
        'part.json': JSON.stringify([{ role: 'user', content: [{ type: secret, text: 'x' }] }]),
        'output.json': JSON.stringify([
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'a',
                toolName: 'b',
                output: { type: secret, value: 'x' },
              },
            ],
          },
        ]),
        'openai.json': JSON.stringify([
          { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: secret }] },
        ]),
        'openai-role.json': JSON.stringify([{ role: secret, content: null, tool_calls: [] }]),
        'broken.json': `{"api_key": ${secret}}`,
        'broken-late.json': `[{"role": "user", "content": "x"}, {"token": ${secret}`,
        'broken.jsonl': `${JSON.stringify({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'hi' } })}\n{"password": ${secret}}\n`,
      };
      for (const [name, text] of Object.entries(files)) {
        const file = join(folder, name);
        writeFileSync(file, text);
        for (const command of ['count', 'compact']) {
          const run = await runBuiltCli([command, file]);
          expect(run.code, `${name}: ${run.stderr}`).toBe(2);
          expect(run.stderr).toContain(file);
          expectNotEchoed(run.stdout + run.stderr, secret, `${command} ${name}`);
        }
      }
    }
  });

  it('an unknown --model is not echoed in the error or the warning', async () => {
    for (const secret of secrets()) {
      const compact = await runBuiltCli(['compact', good, '--model', secret]);
      expect(compact.code).toBe(2);
      expectNotEchoed(compact.stderr, secret, 'compact --model');
      // `count` goes on with the heuristic; the report names the model asked for, stderr does not.
      const count = await runBuiltCli(['count', good, '--model', secret]);
      expect(count.code).toBe(0);
      expect(count.stderr).toMatch(
        /^baton: warning: unknown --model, a \d+-character value \(not shown\)/,
      );
      expectNotEchoed(count.stderr, secret, 'count --model');
    }
  });
});
