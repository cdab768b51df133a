import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';
import { listedFiles } from './test-utils/listed-files.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';
import { buildUnseenTranscript, scoreUnseenReceipt } from './test-utils/unseen-transcript.js';

const word = fc.noBias(fc.stringMatching(/^[a-z]{3,9}$/));
const words = fc.array(word, { minLength: 2, maxLength: 6 }).map((list) => list.join(' '));
const extension = fc.constantFrom('ts', 'py', 'rs', 'go', 'c', 'json', 'md');
const relativeFile = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), word, extension)
  .map(([dirs, name, ext]) => `${dirs.join('/')}/${name}.${ext}`);

// Lines that read as failures wherever a run prints them.
const failureLine = fc.oneof(
  words.map((text) => `Error: ${text}`),
  fc
    .tuple(word, words)
    .map(([name, text]) => `${name[0]!.toUpperCase()}${name.slice(1)}Error: ${text}`),
  words.map((text) => `error: could not ${text}`),
  words.map((text) => `FAILED ${text}`),
);

describe('receipts on harness shapes the generator does not draw', () => {
  it('lines of a diff hunk are file content, not errors; the same lines printed by a failed run are', () => {
    fc.assert(
      fc.property(
        relativeFile,
        failureLine,
        fc.constantFrom('-', '+', ' '),
        fc.boolean(),
        (file, line, mark, inHunk) => {
          const diff = `diff --git a/${file} b/${file}\nindex 3f2a1b0..9c8d7e6 100644\n--- a/${file}\n+++ b/${file}\n@@ -4,3 +4,3 @@\n context\n${mark}${line}\n+other\n`;
          const output = inHunk ? `${diff}exit code: 0` : `${line}\nexit code: 1`;
          const messages: ModelMessage[] = [
            { role: 'user', content: 'look at the change' },
            ...call('shell', { command: `git diff ${file}` }, output),
          ];
          const errors = extractHandoffFacts(messages).errors.map((error) => error.line);
          // Control: outside a hunk, the line is the run's failure.
          expect(errors.some((error) => error.includes(line))).toBe(!inHunk);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("PowerShell 7's `Line |` block yields its message as an error line", () => {
    const verb = fc.constantFrom('Get', 'Set', 'Remove', 'Import', 'Invoke', 'Copy');
    fc.assert(
      fc.property(
        verb,
        word,
        words,
        fc.integer({ min: 1, max: 90 }),
        fc.boolean(),
        (v, noun, message, row, block) => {
          const cmdlet = `${v}-${noun[0]!.toUpperCase()}${noun.slice(1)}`;
          const sentence = `Cannot ${message} because it does not exist.`;
          // Control: the same words as a cell of a Markdown table are no error.
          const output = block
            ? `${cmdlet}: C:\\work\\scripts\\run.ps1:${row}\nLine |\n${String(row).padStart(4)} |  ${cmdlet} -Path x\n     |  ~~~~~~~~~~~~~~~~\n     | ${sentence}\n`
            : `| name | note |\n| ---- | ---- |\n| ${noun} | ${sentence} |\n`;
          const messages: ModelMessage[] = [
            { role: 'user', content: 'run the script' },
            ...call('powershell', { command: 'pwsh -File scripts/run.ps1' }, output),
          ];
          const errors = extractHandoffFacts(messages).errors.map((error) => error.line);
          expect(errors.some((error) => error.includes(sentence))).toBe(block);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('paths a run prints after `cd <dir>` are read under that directory', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 3 }).map((dirs) => dirs.join('/')),
        relativeFile,
        fc.boolean(),
        (dir, file, entered) => {
          fc.pre(!file.startsWith(`${dir}/`) && file !== dir);
          const command = entered ? `cd ${dir} && make check` : 'make check';
          const messages: ModelMessage[] = [
            { role: 'system', content: 'Working directory: /home/dev/repo' },
            { role: 'user', content: 'run the checks' },
            ...call('bash', { command }, `${file}:3:5: error: expected ';'\nexit code: 2`),
          ];
          const listed = listedFiles(createReceipt(messages, { maxTokens: 2000 }).sections.files);
          const want = entered ? `${dir}/${file}` : file;
          const names = listed.map(({ path }) => path.replace(/^\/home\/dev\/repo\//, ''));
          expect(names).toContain(want);
          // Control: the file is not also listed at the top of the repository.
          if (entered) expect(names).not.toContain(file);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a .NET stack frame names its file (`in <path>:line N`)', () => {
    fc.assert(
      fc.property(relativeFile, fc.boolean(), fc.boolean(), (file, windows, located) => {
        const path = windows ? `C:\\src\\app\\${file.replace(/\//g, '\\')}` : `/src/app/${file}`;
        // Control: a frame without its location names no file.
        const frame = `   at App.Worker.Run()${located ? ` in ${path}:line 42` : ''}`;
        const files = extractHandoffFacts([{ role: 'user', content: frame }]).files;
        expect(files.map((f) => f.path)).toEqual(located ? [path] : []);
      }),
      { numRuns: 100 },
    );
  });

  it('one error line printed by several commands is resolved when each was re-run with success', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(relativeFile, { minLength: 2, maxLength: 4 }),
        failureLine,
        fc.nat(),
        fc.boolean(),
        (tests, line, pick, allFixed) => {
          // Control: one command is never re-run with success, so the line stays open.
          const unfixed = allFixed ? -1 : pick % tests.length;
          const messages: ModelMessage[] = [{ role: 'user', content: 'fix the tests' }];
          tests.forEach((test, at) => {
            messages.push(...call('shell', { command: `pytest ${test}` }, `${line}\nexit code: 1`));
            messages.push(...call('edit', { path: `src/${at}.py` }, 'ok'));
            if (at !== unfixed) {
              messages.push(
                ...call('shell', { command: `pytest ${test}` }, 'passed\nexit code: 0'),
              );
            }
          });
          const error = extractHandoffFacts(messages).errors.find((e) => e.line === line);
          expect(error?.resolved).toBe(allFixed);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('on held-out harness transcripts, marks, order, numbering and internals hold in every receipt', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const truth = buildUnseenTranscript(seed);
      for (const maxTokens of [1000, 2000]) {
        const text = createReceipt(truth.messages, { maxTokens }).text;
        const { measures } = scoreUnseenReceipt(text, truth);
        const context = `seed ${seed} at ${maxTokens}`;
        expect(measures.resolvedMarks ?? 1, context).toBe(1);
        expect(measures.openFirst ?? 1, context).toBe(1);
        expect(measures.actionsNumbered ?? 1, context).toBe(1);
        expect(measures.internalsShown, context).toBe(0);
        expect(measures.notErrorsShown, context).toBe(0);
      }
    }
  });
});
