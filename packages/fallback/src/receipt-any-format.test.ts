import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';
import { expectResolvedAfterOpen } from './test-utils/expect-resolved-after-open.js';
import { listedFiles } from './test-utils/listed-files.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

// Receipts over windows shaped like any agent's transcript: tool names, argument names, path forms
// and error formats are drawn at test time, so no property holds for one agent's format only.

const word = fc.noBias(fc.stringMatching(/^[a-z][a-z0-9]{2,7}$/));
// Words that cannot read as an error or a path by themselves.
const plainWord = word.filter((text) => !/err|fail|fatal|panic|exit|denied|timeout/.test(text));
const message = fc.array(plainWord, { minLength: 2, maxLength: 5 }).map((words) => words.join(' '));
const extension = fc.constantFrom('ts', 'py', 'rs', 'go', 'md', 'json', 'ex');
const relativeFile = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), word, extension)
  .map(([dirs, name, ext]) => `${dirs.join('/')}/${name}.${ext}`);
const workingDirectory = fc
  .array(word, { minLength: 1, maxLength: 3 })
  .map((parts) => `/${parts.join('/')}`);
const writers = [
  'Edit',
  'write_file',
  'str_replace_editor',
  'apply_patch',
  'create_file',
  'MultiEdit',
  'replace_in_file',
];
const readers = ['Read', 'read_file', 'view', 'open_file', 'cat_file'];
const pathArguments = [
  'file_path',
  'filePath',
  'path',
  'paths',
  'target_file',
  'filename',
  'notebook_path',
  'absolute_path',
  'relative_path',
];
const cwdMentions = [
  (cwd: string) => `Working directory: ${cwd}`,
  (cwd: string) => `<cwd>${cwd}</cwd>`,
  (cwd: string) => `Current directory is ${cwd}.`,
  (cwd: string) => `cwd: ${cwd}`,
];

describe('files from any agent format', () => {
  it('lists each edited file once, as a path under the working directory, marked written', () => {
    fc.assert(
      fc.property(
        workingDirectory,
        fc.uniqueArray(relativeFile, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: cwdMentions.length - 1 }),
        fc.array(
          fc.record({
            file: fc.nat(),
            writer: fc.constantFrom(...writers),
            reader: fc.constantFrom(...readers),
            argument: fc.constantFrom(...pathArguments),
            form: fc.constantFrom('absolute', 'relative', 'dotted'),
            write: fc.boolean(),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        (cwd, files, mention, calls) => {
          const messages: ModelMessage[] = [
            { role: 'system', content: cwdMentions[mention]!(cwd) },
            { role: 'user', content: 'update the code' },
          ];
          const edited = new Set<string>();
          // Every file is edited at least once; the random calls come on top.
          const all = [...files.map((_, file) => ({ ...calls[0]!, file, write: true })), ...calls];
          for (const step of all) {
            const relative = files[step.file % files.length]!;
            const shown =
              step.form === 'absolute'
                ? `${cwd}/${relative}`
                : step.form === 'dotted'
                  ? `./${relative}`
                  : relative;
            const input = { [step.argument]: step.argument === 'paths' ? [shown] : shown };
            if (step.write) edited.add(relative);
            messages.push(...call(step.write ? step.writer : step.reader, input, 'done'));
          }
          const receipt = createReceipt(messages, { maxTokens: 4000 });
          const listed = listedFiles(receipt.sections.files);
          for (const relative of edited) {
            const naming = listed.filter(
              ({ path }) => path.endsWith(`/${relative}`) || path === relative,
            );
            expect(naming).toHaveLength(1);
            const shownPath = naming[0]!.path;
            // Shown in any form that resolves against the working directory to this file.
            const resolved = shownPath.startsWith(`${cwd}/`)
              ? shownPath.slice(cwd.length + 1)
              : shownPath.replace(/^\.\//, '');
            expect(resolved).toBe(relative);
            expect(naming[0]!.edited).toBe(true);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('a patch handed to a writing tool marks the files it changes as written', () => {
    const patches = [
      (file: string, body: string) =>
        `*** Begin Patch\n*** Update File: ${file}\n@@\n-${body}\n+${body} 2\n*** End Patch`,
      (file: string, body: string) =>
        `*** Begin Patch\n*** Add File: ${file}\n+${body}\n*** End Patch`,
      (file: string, body: string) =>
        `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-${body}\n+${body} 2`,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...patches),
        fc.constantFrom('apply_patch', 'patch', 'ApplyPatch', 'apply_diff'),
        fc.constantFrom('input', 'patch', 'diff', 'content'),
        relativeFile,
        message,
        fc.integer({ min: 0, max: 300 }),
        (patch, tool, argument, file, body, padding) => {
          // Long patches too: a file body is not scanned for paths, its headers still are.
          const text = patch(file, `${body}${' x'.repeat(padding * 10)}`);
          const messages: ModelMessage[] = [
            { role: 'user', content: 'apply the fix' },
            ...call(tool, { [argument]: text }, 'Done!'),
          ];
          const naming = listedFiles(
            createReceipt(messages, { maxTokens: 2000 }).sections.files,
          ).filter(({ path }) => path === file);
          expect(naming).toHaveLength(1);
          expect(naming[0]!.edited).toBe(true);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('a shell command that writes a file marks it written; one that prints it marks it read', () => {
    const writes = [
      (file: string, text: string) => `sed -i 's/${text}/x/' ${file}`,
      (file: string, text: string) => `cat > ${file} <<'EOF'\n${text}\nEOF`,
      (file: string, text: string) => `echo "${text}" >> ${file}`,
      (file: string, text: string) => `printf '${text}' | tee -a ${file}`,
      (file: string, text: string) => `perl -pi -e 's/${text}/x/' ${file}`,
    ];
    const reads = [
      (file: string) => `cat ${file}`,
      (file: string) => `sed -n '1,40p' ${file}`,
      (file: string) => `head -n 20 ${file}`,
      (file: string) => `nl -ba ${file} | tail -n 5`,
    ];
    fc.assert(
      fc.property(
        fc.uniqueArray(relativeFile, { minLength: 3, maxLength: 3 }),
        fc.constantFrom(...writes),
        fc.constantFrom(...reads),
        fc.constantFrom('bash', 'shell', 'exec_command', 'run_terminal_cmd', 'execute_bash'),
        fc.constantFrom('command', 'cmd'),
        fc.boolean(),
        message,
        ([written, read, mentioned], write, print, tool, argument, inDirectory, text) => {
          const prefix = inDirectory ? 'cd /work/repo && ' : '';
          const messages: ModelMessage[] = [
            { role: 'user', content: `see ${mentioned}` },
            ...call(tool, { [argument]: `${prefix}${write(written!, text)}` }, ''),
            ...call(tool, { [argument]: `${prefix}${print(read!)}` }, text),
          ];
          const files = extractHandoffFacts(messages).files;
          const fact = (path: string) => files.find((file) => file.path.endsWith(path));
          expect(fact(written!)?.written).toBe(true);
          expect(fact(read!)?.written).toBe(false);
          expect(fact(read!)?.read).toBe(true);
          expect(fact(mentioned!)?.read).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a pytest node id and a diff header name the file itself', () => {
    fc.assert(
      fc.property(relativeFile, word, (relative, test) => {
        const messages: ModelMessage[] = [
          { role: 'user', content: 'fix the test' },
          ...call('shell', { command: `pytest ${relative}::test_${test}` }, '1 passed'),
          ...call(
            'shell',
            { command: 'git diff' },
            `diff --git a/${relative} b/${relative}\n--- a/${relative}\n+++ b/${relative}\n@@ -1 +1 @@\n-x\n+y`,
          ),
        ];
        const paths = listedFiles(createReceipt(messages, { maxTokens: 2000 }).sections.files).map(
          ({ path }) => path,
        );
        expect(paths.filter((path) => path.includes(relative))).toHaveLength(1);
        expect(paths.some((path) => /^[ab]\//.test(path))).toBe(false);
        expect(paths.some((path) => path.includes('::'))).toBe(false);
      }),
      { numRuns: 80 },
    );
  });
});

describe('file ranking', () => {
  it('lists edited files before files only read or mentioned, even ones named more often', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(relativeFile, { minLength: 6, maxLength: 12 }),
        fc.constantFrom(...writers),
        fc.constantFrom(...readers),
        fc.constantFrom(...pathArguments.filter((name) => name !== 'paths')),
        fc.integer({ min: 2, max: 6 }),
        (files, writer, reader, argument, mentions) => {
          const third = Math.floor(files.length / 3);
          const edited = files.slice(0, third);
          const read = files.slice(third, 2 * third);
          const mentioned = files.slice(2 * third);
          const messages: ModelMessage[] = [{ role: 'user', content: 'tidy up' }];
          for (const file of edited) messages.push(...call(writer, { [argument]: file }, 'done'));
          for (const file of read) messages.push(...call(reader, { [argument]: file }, 'text'));
          // Mentioned more often than the others, but never targeted by a tool.
          for (let round = 0; round < mentions; round++) {
            messages.push(...call('search', { query: 'todo' }, mentioned.join('\n')));
          }
          const order = listedFiles(createReceipt(messages, { maxTokens: 4000 }).sections.files)
            .map(({ path }) => path)
            .filter((path) => files.includes(path));
          expect(order.slice(0, edited.length).sort()).toEqual([...edited].sort());
          expect(order.filter((path) => read.includes(path)).sort()).toEqual([...read].sort());
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('errors in any format', () => {
  it('documentation that talks about errors is not a blocker; an error line is', () => {
    const prose = [
      (text: string) => `- On invalid input, set the status to \`error\` and ${text}.`,
      (text: string) => `## Error handling for ${text}`,
      (text: string) => `> Errors are retried three times before ${text}`,
      (text: string) => `1. Log the failure and ${text}`,
    ];
    fc.assert(
      fc.property(fc.constantFrom(...prose), message, message, (line, text, reason) => {
        const failure = `TypeError: ${reason}`;
        const messages: ModelMessage[] = [
          { role: 'user', content: 'read the plan' },
          ...call('shell', { command: 'show-plan' }, `${line(text)}\n${failure}`),
        ];
        const blockers = createReceipt(messages, { maxTokens: 2000 }).sections.blockers ?? '';
        expect(blockers).toContain(failure);
        expect(blockers).not.toContain(text);
      }),
      { numRuns: 80 },
    );
  });

  const formats = [
    (file: string, text: string) => `FAIL ${file} > ${text}`,
    (_file: string, text: string) => `npm ERR! ${text}`,
    (file: string, text: string) => `${file}:12:5: error: ${text}`,
    (_file: string, text: string) => `error[E0308]: ${text}`,
    (file: string, text: string) => `FAILED ${file}::test_x - AssertionError: ${text}`,
  ];

  it('recognises common error lines in a plain (unflagged) tool output', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...formats),
        relativeFile,
        message,
        message,
        (format, file, text, noise) => {
          const line = format(file, text);
          const messages: ModelMessage[] = [
            { role: 'user', content: 'run the checks' },
            ...call('run_command', { command: 'make check' }, `${noise}\n${line}\n${noise} done`),
          ];
          const blockers = createReceipt(messages, { maxTokens: 2000 }).sections.blockers;
          expect(blockers).toContain(line);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('code echoed by a successful file read is not a blocker; a failed read is', () => {
    const codeLines = [
      (text: string) => `    logger.error("${text}")`,
      (text: string) => `  console.error(\`${text}\`);`,
      (text: string) => `        self.fail("${text}")`,
      (text: string) => `  log.Fatalf("${text}: %v", err)`,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...readers),
        fc.constantFrom(...codeLines),
        relativeFile,
        message,
        (reader, code, file, text) => {
          const content = `first line\n${code(text)}\nlast line`;
          const ok = createReceipt(
            [
              { role: 'user', content: 'look at the file' },
              ...call(reader, { path: file }, content),
            ],
            { maxTokens: 2000 },
          );
          expect(ok.sections.blockers).toBeUndefined();
          const failed = createReceipt(
            [
              { role: 'user', content: 'look at the file' },
              ...call(reader, { path: file }, `cannot open ${file}: ${text}`, true),
            ],
            { maxTokens: 2000 },
          );
          expect(failed.sections.blockers).toContain(text);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('a read that reports its own failure as plain text is a blocker', () => {
    // Agents often answer a failed read with text, not an error output: `Error: …`,
    // `<tool_use_error>…`, `No such file or directory`, `FileNotFoundError: …`.
    const reports = [
      (file: string, text: string) => `Error: ${file}: ${text}`,
      (file: string, text: string) => `<tool_use_error>${text} (${file})</tool_use_error>`,
      (file: string, text: string) => `No such file or directory: ${file} ${text}`,
      (file: string, text: string) => `FileNotFoundError: ${file} ${text}`,
      (file: string, text: string) => `\n  cannot read ${file}: ${text}`,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...readers),
        fc.constantFrom(...reports),
        relativeFile,
        message,
        (reader, report, file, text) => {
          const receipt = createReceipt(
            [
              { role: 'user', content: 'look at the file' },
              ...call(reader, { path: file }, report(file, text)),
            ],
            { maxTokens: 2000 },
          );
          expect(receipt.sections.blockers).toContain(text);
          // A file that merely opens with the word is content, not a failure report.
          const content = createReceipt(
            [
              { role: 'user', content: 'look at the file' },
              ...call(reader, { path: file }, `Error handling in ${text}\n  log.error("${text}")`),
            ],
            { maxTokens: 2000 },
          );
          expect(content.sections.blockers).toBeUndefined();
        },
      ),
      { numRuns: 80 },
    );
  });

  it('marks an error resolved when a later run on the same target succeeds; open errors first', () => {
    fc.assert(
      fc.property(relativeFile, word, message, message, (file, test, text, other) => {
        const failing = `AssertionError: ${text}`;
        const open = `npm ERR! ${other}`;
        const messages: ModelMessage[] = [
          { role: 'user', content: 'make the tests pass' },
          ...call(
            'terminal',
            { cmd: `pytest ${file}::test_${test}` },
            `FAILED ${file}::test_${test}\n${failing}\nexit code 1`,
          ),
          ...call('terminal', { cmd: 'npm run build' }, `${open}\nexit code 1`),
          ...call('terminal', { cmd: `pytest ${file}` }, '3 passed'),
        ];
        expectResolvedAfterOpen(
          createReceipt(messages, { maxTokens: 2000 }).sections.blockers,
          failing,
          open,
        );
      }),
      { numRuns: 80 },
    );
  });
});

describe('tools', () => {
  it('names every tool used in the actions sections even when calls are collapsed', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.noBias(fc.stringMatching(/^[a-z][a-z_]{3,12}$/)), {
          minLength: 8,
          maxLength: 16,
        }),
        fc.array(message, { minLength: 40, maxLength: 40 }),
        (tools, texts) => {
          const messages: ModelMessage[] = [{ role: 'user', content: 'do the work' }];
          texts.forEach((text, index) => {
            const tool = tools[index % tools.length]!;
            messages.push(...call(tool, { query: `${text} ${'detail '.repeat(20)}` }, 'ok'));
          });
          const receipt = createReceipt(messages, { maxTokens: 600 });
          const actions = `${receipt.sections.completedActions ?? ''}\n${receipt.sections.inProgress ?? ''}`;
          for (const tool of tools) {
            expect(actions).toMatch(new RegExp(`(?<![\\w-])${tool}(?![\\w-])`));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
