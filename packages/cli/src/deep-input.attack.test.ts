import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, runCli } from './index.js';
import { captureStream } from './test-utils/capture-stream.js';

const stream = captureStream;

/** A tool loop whose result (or call input) holds `depth` nested arrays or objects. */
function transcript(depth: number, where: 'output' | 'input', brackets: '[]' | '{}'): string {
  const open = brackets === '[]' ? '[' : '{"k":';
  const close = brackets === '[]' ? ']' : '}';
  const deep = `${open.repeat(depth)}${brackets === '[]' ? '' : '1'}${close.repeat(depth)}`;
  const input = where === 'input' ? deep : '{}';
  const output = where === 'output' ? deep : 'null';
  return `[{"role":"user","content":"fix it"},
{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c1","toolName":"t","input":${input}}]},
{"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","toolName":"t","output":{"type":"json","value":${output}}}]},
{"role":"user","content":"next"}]`;
}

describe('values nested past what the pipeline can serialise', () => {
  const folder = mkdtempSync(join(tmpdir(), 'baton-deep-'));

  it('are bad input (exit 2, one line naming the file, nothing written) for count and compact', async () => {
    // Deep enough that JSON.stringify overflows the stack (about 4,500 levels on Node 24).
    for (const depth of [1_001, 20_000, 100_000]) {
      for (const where of ['output', 'input'] as const) {
        for (const brackets of ['[]', '{}'] as const) {
          const file = join(folder, `deep-${depth}-${where}-${brackets.length}.json`);
          writeFileSync(file, transcript(depth, where, brackets));
          for (const args of [
            ['count', file],
            ['compact', file, '--target', '10', '--out', `${file}.out`],
          ]) {
            const stdout = stream();
            const stderr = stream();
            const code = await runCli(args, { stdout, stderr, env: {} });
            expect(code, `${args[0]} ${depth} ${where} ${brackets}: ${stderr.text}`).toBe(
              EXIT_CODES.badInput,
            );
            expect(stderr.text).toBe(
              `baton: ${file}: values nested deeper than 1,000 levels (Baton's limit)\n`,
            );
          }
        }
      }
    }
    expect(readdirSync(folder).filter((name) => name.endsWith('.out'))).toEqual([]);
  });

  it('are read up to the limit', async () => {
    const file = join(folder, 'deep-ok.json');
    // The transcript's own wrapping takes five levels around the value.
    writeFileSync(file, transcript(995, 'output', '[]'));
    const stderr = stream();
    expect(await runCli(['count', file], { stdout: stream(), stderr, env: {} })).toBe(0);
  });
});

describe('a file name shaped like a credential', () => {
  const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const body = (length: number) =>
    fc
      .noBias(fc.array(fc.constantFrom(...alphanumeric), { minLength: length, maxLength: length }))
      .map((characters) => characters.join(''));
  const token = fc.oneof(
    body(36).map((rest) => `ghp_${rest}`),
    body(40).map((rest) => `github_pat_11${rest}`),
    body(48).map((rest) => `sk-proj-${rest}`),
    fc
      .noBias(
        fc.array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'), {
          minLength: 16,
          maxLength: 16,
        }),
      )
      // A run of one character is a placeholder, kept by design (`AKIAAAAA…`).
      .filter((characters) => new Set(characters).size > 4)
      .map((characters) => `AKIA${characters.join('')}`),
  );

  it('is not echoed when the file cannot be read (property)', async () => {
    await fc.assert(
      fc.asyncProperty(token, fc.constantFrom('', '.json', '/x.json'), async (secret, tail) => {
        const stderr = stream();
        // A token glued to a word by `-` (`missing-AKIA…`) is a known gap of the redactor (1 % of
        // AWS key ids), not of the CLI: the name is the token itself here.
        const file = join(tmpdir(), `${secret}${tail}`);
        expect(await runCli(['count', file], { stdout: stream(), stderr, env: {} })).toBe(
          EXIT_CODES.badInput,
        );
        expect(stderr.text).toMatch(/cannot read file: (no such file|a part of the path)/);
        expect(stderr.text).not.toContain(secret);
      }),
      { numRuns: 100 },
    );
  });
});
