import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createOpenAICompatibleTestServer,
  type OpenAICompatibleTestServer,
} from '@baton/compressor/test';
import { resolveModelPath } from '@baton/local-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { runBuiltCli } from './test-utils/run-built-cli.js';

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A secret-shaped token made at run time, different on every call. */
const token = () =>
  `ghp_${Array.from({ length: 36 }, () => alphabet[Math.floor(Math.random() * 62)]).join('')}`;
const random = () => Math.random().toString(36).slice(2, 8);
const folder = mkdtempSync(join(tmpdir(), 'baton-summarize-'));
/** A cache folder with no model in it. */
const emptyCache = mkdtempSync(join(tmpdir(), 'baton-summarize-cache-'));

/** A generated build log of `lines` lines, with an error, a path and a secret in the middle. */
function buildLog(secret: string, lines = 200) {
  const seed = random();
  const path = `src/${seed}/build-step.ts`;
  const error = `Error: module ${seed}-core failed to compile`;
  const body = Array.from({ length: lines }, (_, index) =>
    index === Math.floor(lines / 2)
      ? `${error} (${path}:12:4) using token ${secret}`
      : `[${index}] compiling chunk ${index} of ${seed} ... ok`,
  );
  return { text: `${body.join('\n')}\n`, path, error, seed };
}

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

function write(name: string, text: string) {
  const file = join(folder, `${name}-${random()}.log`);
  writeFileSync(file, text);
  return file;
}

describe('baton summarize', () => {
  it('gives a short text back unchanged, without a model call', async () => {
    const text = `short note ${random()}\nsecond line`;
    const result = await run(['summarize', write('short', text)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${text}\n`);
    expect(result.stderr).toContain('unchanged');
  });

  it('without any model: the key lines, redacted, and the output says so and how to get a model', async () => {
    for (let round = 0; round < 3; round++) {
      const secret = token();
      const log = buildLog(secret);
      const file = write('log', log.text);
      const text = await run(['summarize', file, '--target', '200']);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(log.error);
      expect(text.stdout).toContain(log.path);
      expect(text.stdout + text.stderr).not.toContain(secret);
      expect(text.stderr).toContain('key lines');
      expect(text.stderr).toContain('baton-fetch-model');
      const json = await run(['summarize', file, '--json']);
      expect(json.code).toBe(0);
      const document = JSON.parse(json.stdout);
      expect(document).toMatchObject({
        summarizer: { kind: 'none', name: 'key lines' },
        strategy: 'key-lines',
      });
      expect(document.note).toContain('baton-fetch-model');
      expect(document.tokensAfter).toBeLessThanOrEqual(500);
      expect(json.stdout).not.toContain(secret);
    }
  });

  it('typed usage errors that never echo the value given', async () => {
    const secret = token();
    const file = write('log', buildLog(token()).text);
    const cases: Array<[string[], RegExp]> = [
      [['summarize'], /missing <file>/],
      [['summarize', file, file], /exactly one <file>/],
      [['summarize', file, '--detail', secret], /--detail: expected one of/],
      [['summarize', file, '--summarizer', secret], /--summarizer: expected provider:model/],
      [['summarize', file, '--timeout', '0'], /--timeout/],
      [
        ['summarize', file, '--summarizer', 'openai:x', '--model-path', `/tmp/${secret}.gguf`],
        /give one summariser/,
      ],
      [['summarize', file, '--model-path', `/nowhere/${secret}.gguf`], /--model-path: no model/],
      [['summarize', file, '--summarizer', 'openai:gpt-4o-mini'], /needs OPENAI_API_KEY/],
    ];
    // The file name is the user's own argument, named in the error (as every command does).
    const missing = await run(['summarize', join(folder, `missing-${random()}.log`)]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file/);
    for (const [args, message] of cases) {
      const result = await run(args, { OPENAI_API_KEY: undefined });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain(secret.slice(4));
      expect(result.stdout).toBe('');
    }
  });

  describe('with an OpenAI-compatible endpoint (loopback server)', () => {
    let server: OpenAICompatibleTestServer;
    let baseUrl = '';
    let reply = '';
    const bodies = () => server.requests.map((request) => JSON.stringify(request));
    beforeAll(async () => {
      server = await createOpenAICompatibleTestServer({ reply: () => reply });
      baseUrl = server.baseURL;
    });
    afterAll(() => server.close());

    it('summarises with it, says which, and redacts what it sends and what it prints', async () => {
      const secret = token();
      const echoed = token();
      const log = buildLog(secret);
      reply = `The build of ${log.seed} failed in ${log.path}; a credential ${echoed} appeared.`;
      server.requests.length = 0;
      const result = await run(
        ['summarize', write('log', log.text), '--summarizer', 'openai-compatible:mock', '--json'],
        { OPENAI_COMPATIBLE_BASE_URL: baseUrl },
      );
      expect(result.code, result.stderr).toBe(0);
      const document = JSON.parse(result.stdout);
      expect(document).toMatchObject({
        summarizer: { kind: 'endpoint', name: 'openai-compatible:mock' },
        strategy: 'summarize',
      });
      expect(document.summary).toContain(log.path);
      expect(bodies().length).toBeGreaterThan(0);
      expect(bodies().join('')).toContain(log.seed);
      expect(bodies().join('')).not.toContain(secret);
      // The model echoed a secret: it never reaches the output.
      expect(result.stdout).not.toContain(echoed);
    });

    it('reads stdin with - (built binary)', async () => {
      const log = buildLog(token());
      reply = `Compilation of ${log.seed} failed at ${log.path}.`;
      const result = await runBuiltCli(['summarize', '-', '--summarizer', 'openai-compatible:m'], {
        input: log.text,
        env: { OPENAI_COMPATIBLE_BASE_URL: baseUrl, BATON_CACHE_DIR: emptyCache },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(log.path);
      expect(result.stderr).toContain('summarised by openai-compatible:m');
    });
  });

  let modelPath: string | undefined;
  try {
    modelPath = resolveModelPath();
  } catch {
    modelPath = undefined;
  }
  it.skipIf(modelPath === undefined)(
    'with the real local model (--model-path): a summary or the key lines, and the output names which',
    async () => {
      const log = buildLog(token(), 55);
      const result = await run([
        'summarize',
        write('log', log.text),
        '--model-path',
        modelPath!,
        '--target',
        '80',
        '--json',
      ]);
      expect(result.code, result.stderr).toBe(0);
      const document = JSON.parse(result.stdout);
      expect(document.summarizer.kind).toBe('local');
      expect(document.summarizer.name).toMatch(/smollm/i);
      if (document.strategy === 'key-lines') expect(document.fallbackReason).toBeTruthy();
      else expect(document.strategy).toBe('summarize');
      expect(document.tokensAfter).toBeLessThanOrEqual(100);
    },
    180_000,
  );
});
