import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createOpenAICompatibleTestServer,
  type OpenAICompatibleTestServer,
} from '@baton/compressor/test';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const token = () =>
  `ghp_${Array.from({ length: 36 }, () => alphabet[Math.floor(Math.random() * 62)]).join('')}`;
const random = () => Math.random().toString(36).slice(2, 8);
const folder = mkdtempSync(join(tmpdir(), 'baton-summarize-attack-'));
const emptyCache = mkdtempSync(join(tmpdir(), 'baton-summarize-attack-cache-'));
// Escape sequences a terminal acts on: colours, a window title, a clipboard write (OSC 52), a bell.
const controls = [
  '\u001b[31m',
  '\u001b]0;pwned\u0007',
  '\u001b]52;c;cm0gLXJmIH4=\u0007',
  '\u009b2J',
  '\u0007',
];
const terminalControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

async function run(args: string[], env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { BATON_CACHE_DIR: emptyCache, ...env },
  });
  return { code, stdout, stderr };
}

function write(content: string | Buffer) {
  const file = join(folder, `input-${random()}.log`);
  writeFileSync(file, content);
  return file;
}

function log(lines: number, extra: (index: number) => string = () => '') {
  const seed = random();
  return Array.from(
    { length: lines },
    (_, index) => `[${index}] step ${seed} of src/${seed}/main.ts ok${extra(index)}`,
  ).join('\n');
}

describe('baton summarize on hostile files', () => {
  it('a binary file (NUL bytes) is refused with a typed error that echoes none of it', async () => {
    for (let round = 0; round < 4; round++) {
      const secret = token();
      const bytes = Buffer.concat([
        Buffer.from(`${log(5)}\n${secret}\n`),
        randomBytes(3000 + Math.floor(Math.random() * 3000)),
        Buffer.from([0]),
        Buffer.from(`\n${log(60)}\n`),
      ]);
      const result = await run(['summarize', write(bytes)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/binary/);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain(secret.slice(4));
      expect(result.stderr).not.toMatch(terminalControl);
    }
  });

  it('a text with terminal escape sequences: the key lines on stdout never carry them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...controls), async (control) => {
        const text = log(120, (index) =>
          index % 7 === 0 ? ` ${control}Error: failed ${control}` : '',
        );
        const result = await run(['summarize', write(text), '--target', '200']);
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain('Error: failed');
        expect(result.stdout).not.toMatch(terminalControl);
      }),
      { numRuns: 10 },
    );
  });

  describe('a model that replies with escape sequences', () => {
    let server: OpenAICompatibleTestServer;
    let reply = '';
    beforeAll(async () => {
      server = await createOpenAICompatibleTestServer({ reply: () => reply });
    });
    afterAll(() => server.close());

    it('never reaches the terminal with them (text output), and --json keeps them escaped', async () => {
      for (const control of controls) {
        const file = write(log(120));
        reply = `The build ${control}passed${control} in src/main.ts.`;
        const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseURL };
        const text = await run(['summarize', file, '--summarizer', 'openai-compatible:m'], env);
        expect(text.code, text.stderr).toBe(0);
        expect(text.stdout).toContain('passed');
        expect(text.stdout).not.toMatch(terminalControl);
        const json = await run(
          ['summarize', file, '--summarizer', 'openai-compatible:m', '--json'],
          env,
        );
        expect(json.stdout).not.toMatch(terminalControl);
        expect(JSON.parse(json.stdout).summary).toContain('passed');
      }
    });
  });
});
