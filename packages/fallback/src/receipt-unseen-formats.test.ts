import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';
import { listedFiles } from './test-utils/listed-files.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

// Tool and argument names no agent we know uses: made of random letters, never a word such as
// `edit`, `read` or `path` that a rule could have been written from.
const noise = fc.noBias(fc.stringMatching(/^[bcdfghjklmnpqrstvwxz]{4,9}$/));
const segment = fc.noBias(fc.stringMatching(/^[a-z][a-z0-9_]{1,8}$/));
const extension = fc.constantFrom('ts', 'py', 'rs', 'go', 'md', 'json', 'toml', 'yaml', 'c');
const relativeFile = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), segment, extension)
  .map(([dirs, name, ext]) => `${dirs.join('/')}/${name}.${ext}`);
const bareFile = fc.tuple(segment, extension).map(([name, ext]) => `${name}.${ext}`);

const patches = [
  (file: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-a\n+b\n*** End Patch`,
  (file: string) => `*** Begin Patch\n*** Add File: ${file}\n+b\n*** End Patch`,
  (file: string) => `--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-a\n+b`,
];

describe('receipts on tool formats no rule was written for', () => {
  it('a patch handed to any tool under any key lists its files as edited', () => {
    fc.assert(
      fc.property(
        noise,
        noise,
        fc.uniqueArray(relativeFile, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: patches.length - 1 }),
        (tool, argument, files, shape) => {
          const messages: ModelMessage[] = [
            { role: 'user', content: 'apply it' },
            ...call(tool, { [argument]: files.map(patches[shape]!).join('\n') }, 'applied'),
          ];
          const listed = listedFiles(createReceipt(messages, { maxTokens: 2000 }).sections.files);
          for (const file of files) {
            expect(listed.filter(({ path }) => path === file)).toEqual([
              { path: file, edited: true },
            ]);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('a whole argument that is a file name is listed, whatever the key', () => {
    fc.assert(
      fc.property(noise, noise, bareFile, (tool, argument, file) => {
        const messages: ModelMessage[] = [
          { role: 'user', content: 'look at it' },
          ...call(tool, { [argument]: file }, 'some text'),
        ];
        const listed = listedFiles(createReceipt(messages, { maxTokens: 2000 }).sections.files);
        expect(listed.map(({ path }) => path)).toContain(file);
      }),
      { numRuns: 120 },
    );
  });

  it('dotted words that are not file names are not listed as files', () => {
    fc.assert(
      fc.property(
        noise,
        noise,
        fc.constantFrom(
          'console.log',
          'example.com',
          'gpt-4.1',
          'v1.2.3',
          'os.path.join',
          'e.g.',
          'process.env',
          'mutex.lock',
        ),
        (tool, argument, value) => {
          const messages: ModelMessage[] = [
            { role: 'user', content: 'search' },
            ...call(tool, { [argument]: value }, 'no match'),
          ];
          expect(createReceipt(messages, { maxTokens: 2000 }).sections.files).toBeUndefined();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('every listed file is a literal path of the window, one space-free word, listed once', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            tool: noise,
            argument: noise,
            file: fc.oneof(
              relativeFile,
              relativeFile.map((file) => `/srv/${file}`),
            ),
            where: fc.constantFrom('argument', 'output', 'text'),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.integer({ min: 200, max: 2000 }),
        (steps, maxTokens) => {
          const messages: ModelMessage[] = [{ role: 'user', content: 'go through the code' }];
          for (const { tool, argument, file, where } of steps) {
            if (where === 'text') {
              messages.push({ role: 'assistant', content: `Looking at ${file} next.` });
            } else {
              messages.push(
                ...call(
                  tool,
                  { [argument]: where === 'argument' ? file : 'x' },
                  where === 'output' ? `found in ${file}:3` : 'ok',
                ),
              );
            }
          }
          const window = JSON.stringify(messages);
          const paths = listedFiles(createReceipt(messages, { maxTokens }).sections.files).map(
            ({ path }) => path,
          );
          expect(new Set(paths).size).toBe(paths.length);
          for (const path of paths) {
            expect(path).not.toMatch(/\s/);
            expect(window).toContain(path);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('search hits of code that names errors are not errors; a diagnostic at a position is', () => {
    const codeLines = [
      (word: string) => `const msg = err?.message ?? 'Failed to ${word}'`,
      (word: string) => `console.error('Failed to ${word}', error)`,
      (word: string) => `logger.error(${word})`,
      (word: string) => `  .typeError('${word} must be a number')`,
      (word: string) => `throw new Error('${word} failed')`,
      (word: string) => `if (error) return ${word};`,
    ];
    const diagnostics = [
      (word: string) => `error: ${word} is not defined`,
      (word: string) => `error[E0425]: cannot find value \`${word}\``,
      (word: string) => `TypeError: ${word} is not a function`,
    ];
    fc.assert(
      fc.property(
        noise,
        noise,
        fc.array(fc.tuple(relativeFile, fc.nat(999), fc.nat(codeLines.length - 1), segment), {
          minLength: 1,
          maxLength: 8,
        }),
        relativeFile,
        fc.nat(diagnostics.length - 1),
        segment,
        (tool, argument, hits, failing, diagnostic, name) => {
          const searched = hits
            .map(([file, line, shape, word]) => `${file}:${line + 1}:${codeLines[shape]!(word)}`)
            .join('\n');
          const compiled = `${failing}:12:5: ${diagnostics[diagnostic]!(name)}`;
          const messages: ModelMessage[] = [
            { role: 'user', content: 'find the handlers' },
            ...call(tool, { [argument]: 'error' }, searched),
            ...call(tool, { [argument]: 'build' }, compiled),
          ];
          const blockers = createReceipt(messages, { maxTokens: 2000 }).sections.blockers ?? '';
          expect(blockers.split('\n').filter((line) => line.startsWith('- '))).toEqual([
            `- ${compiled}`,
          ]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an exit status in any wording fails the call and names its code', () => {
    const wordings = [
      (code: number) => `exit code ${code}`,
      (code: number) => `Exit status: ${code}`,
      (code: number) => `Process exited with code ${code}`,
      (code: number) => `exit_code=${code}`,
      (code: number) => `<exit_code>${code}</exit_code>`,
      (code: number) => `<returncode>${code}</returncode>`,
      (code: number) => `Command returned non-zero exit status ${code}.`,
      (code: number) => `[exit code: ${code}]`,
    ];
    fc.assert(
      fc.property(
        noise,
        noise,
        fc.nat(wordings.length - 1),
        fc.integer({ min: 0, max: 255 }),
        fc.array(segment, { maxLength: 4 }),
        fc.boolean(),
        (tool, argument, wording, code, words, first) => {
          const status = wordings[wording]!(code);
          const body = words.join(' ');
          const output = first ? `${status}\n${body}` : `${body}\n${status}`;
          const facts = extractHandoffFacts([
            { role: 'user', content: 'run' },
            ...call(tool, { [argument]: 'make all' }, output),
          ]);
          expect(facts.toolCalls[0]!.outcome).toBe(code === 0 ? 'ok' : `exit ${code}`);
          expect(facts.toolCalls[0]!.failed).toBe(code !== 0);
          expect(facts.errors.length > 0).toBe(code !== 0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
