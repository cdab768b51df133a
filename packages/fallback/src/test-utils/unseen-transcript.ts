import type { ModelMessage } from '@ai-sdk/provider-utils';
import { mulberry32 } from './mulberry32.js';

/**
 * Transcripts in harness shapes that generate-agent-transcript.ts does not draw, written apart from
 * it as a held-out check of the receipt's promises. Each transcript strings together episodes
 * (one harness habit each) with their truth known by construction. Self-contained (types only) so
 * that benches run it with Node directly.
 */
export interface UnseenError {
  /** A part of the error line a reader must find (whitespace collapsed). */
  line: string;
  /** A later call on the same target succeeded after its last occurrence. */
  resolved: boolean;
  episode: string;
}

export interface UnseenTranscript {
  cwd: string;
  windows: boolean;
  messages: ModelMessage[];
  errors: UnseenError[];
  /** cwd-relative, `/`-separated path -> references, and the episode that made them. */
  files: Map<string, { references: number; episode: string }>;
  /** Runtime and library files named in traces only. */
  internals: string[];
  /** Lines that look like errors but are not (diff lines, code read back). */
  notErrors: string[];
  tools: string[];
  asks: string[];
}

export const unseenEpisodes = [
  'json-exit',
  'recurring',
  'other-file-fix',
  'apply-patch',
  'nested-args',
  'multi-part',
  'notebook',
  'non-english',
  'powershell7',
  'monorepo-cd',
  'diff',
  'runtime-frames',
] as const;
type Episode = (typeof unseenEpisodes)[number];

const syllables = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tu',
  'sa',
  'vor',
  'pel',
  'dri',
  'no',
  'qua',
  'zet',
  'bim',
  'os',
];

class Rand {
  private readonly next: () => number;
  constructor(next: () => number) {
    this.next = next;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  word(): string {
    let word = '';
    for (let n = this.int(2, 3); n > 0; n--) word += this.pick(syllables);
    return word;
  }
  camel(): string {
    const w = this.word();
    return w[0]!.toUpperCase() + w.slice(1) + this.pick(['Service', 'Store', 'View', 'Parser']);
  }
}

interface Build {
  r: Rand;
  cwd: string;
  windows: boolean;
  messages: ModelMessage[];
  truth: UnseenTranscript;
  ids: number;
}

function ref(b: Build, rel: string, episode: string, form?: 'abs' | 'rel'): string {
  const entry = b.truth.files.get(rel) ?? { references: 0, episode };
  entry.references++;
  b.truth.files.set(rel, entry);
  const choice = form ?? b.r.pick(['abs', 'rel'] as const);
  if (b.windows) {
    const win = rel.replace(/\//g, '\\');
    return choice === 'abs' ? `${b.cwd.replace(/\//g, '\\')}\\${win}` : win;
  }
  return choice === 'abs' ? `${b.cwd}/${rel}` : rel;
}

function call(b: Build, toolName: string, input: unknown, output: unknown): void {
  const toolCallId = `${b.r.pick(['call_', 'toolu_', 'fc_'])}${b.ids++}x${b.r.int(1000, 9999)}`;
  if (!b.truth.tools.includes(toolName)) b.truth.tools.push(toolName);
  b.messages.push({
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId, toolName, input }],
  });
  b.messages.push({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId, toolName, output: output as never }],
  });
}

function ask(b: Build, text: string): void {
  b.truth.asks.push(text);
  b.messages.push({ role: 'user', content: text });
}

const exitJson = (r: Rand, code: number, stdout: string, stderr: string) =>
  r.pick([
    () => ({ type: 'json', value: { exit_code: code, stdout, stderr } }),
    () => ({ type: 'json', value: { result: { exitCode: code, output: `${stdout}${stderr}` } } }),
    () => ({
      type: 'text',
      value: JSON.stringify({ returncode: code, stdout, stderr, duration_ms: r.int(10, 9000) }),
    }),
  ])();

function srcFile(b: Build, ext: string): string {
  return `${b.r.pick(['src', 'lib', 'app'])}/${b.r.word()}/${b.r.word()}.${ext}`;
}

function episode(b: Build, kind: Episode): void {
  const { r } = b;
  switch (kind) {
    case 'json-exit':
    case 'recurring':
    case 'other-file-fix': {
      const mod = `${r.word()}_${r.word()}`;
      const test = `tests/test_${mod}.py`;
      const source = `src/${r.word()}/${mod}.py`;
      const value = r.int(2, 99);
      const headline = `AssertionError: assert ${value - 1} == ${value}`;
      const command = `python -m pytest ${ref(b, test, kind)} -q`;
      const failing = `F.\n=== FAILURES ===\n___ test_${mod} ___\n    def test_${mod}():\n>       assert ${mod}.total() == ${value}\nE       ${headline}\n\n${ref(b, test, kind, 'rel')}:${r.int(3, 60)}: AssertionError\nFAILED ${test}::test_${mod} - ${headline}\n1 failed, 1 passed in 0.${r.int(10, 99)}s\n`;
      const tool = r.pick(['run_command', 'exec', 'terminal']);
      call(b, tool, { command }, exitJson(r, 1, failing, ''));
      if (kind === 'other-file-fix' || kind === 'recurring') {
        call(
          b,
          r.pick(['edit_file', 'replace_in_file']),
          { path: ref(b, source, kind), old_string: 'return 0', new_string: `return ${value}` },
          { type: 'text', value: 'The file has been updated.' },
        );
      }
      const fixed = kind !== 'json-exit' || r.chance(0.5);
      if (fixed) call(b, tool, { command }, exitJson(r, 0, '2 passed in 0.2s\n', ''));
      let resolved = fixed;
      if (kind === 'recurring') {
        call(
          b,
          r.pick(['edit_file', 'replace_in_file']),
          { path: ref(b, source, kind), old_string: `return ${value}`, new_string: 'return 0' },
          { type: 'text', value: 'The file has been updated.' },
        );
        call(b, tool, { command }, exitJson(r, 1, failing, ''));
        resolved = false;
      }
      b.truth.errors.push({ line: headline, resolved, episode: kind });
      return;
    }
    case 'apply-patch': {
      const file = srcFile(b, 'rs');
      const added = `${r.word()}/${r.word()}.rs`;
      const patch = `*** Begin Patch\n*** Update File: ${ref(b, file, kind, 'rel')}\n@@ fn ${r.word()}()\n-    let x = 1;\n+    let x = 2;\n*** Add File: ${ref(b, `src/${added}`, kind, 'rel')}\n+pub fn ${r.word()}() {}\n*** End Patch`;
      call(b, 'apply_patch', r.chance(0.5) ? { input: patch } : { patch }, {
        type: 'text',
        value: `Success. Updated the following files:\nM ${file}\nA src/${added}`,
      });
      b.truth.files.get(file)!.references++;
      b.truth.files.get(`src/${added}`)!.references++;
      return;
    }
    case 'nested-args': {
      const file = srcFile(b, 'ts');
      call(
        b,
        r.pick(['workspace_edit', 'code_action']),
        {
          edits: [
            {
              target: { location: { path: ref(b, file, kind) } },
              change: { kind: 'replace', range: { start: 3, end: 5 }, text: 'x' },
            },
          ],
          options: { dryRun: false },
        },
        { type: 'json', value: { ok: true, applied: 1 } },
      );
      return;
    }
    case 'multi-part': {
      const file = srcFile(b, 'ts');
      const name = r.camel();
      const headline = `TypeError: Cannot read properties of undefined (reading '${r.word()}')`;
      const parts = [
        { type: 'text', text: `$ node dist/${r.word()}.js\n` },
        {
          type: 'text',
          text: `${headline}\n    at ${name}.load (${ref(b, file, kind, 'abs')}:${r.int(2, 80)}:${r.int(2, 30)})\n    at Module._compile (node:internal/modules/cjs/loader:1376:14)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n`,
        },
        { type: 'text', text: `exit code: 1` },
      ];
      b.truth.internals.push(
        'node:internal/modules/cjs/loader',
        'node:internal/process/task_queues',
      );
      call(
        b,
        r.pick(['shell', 'bash']),
        { command: `node dist/${r.word()}.js` },
        {
          type: 'content',
          value: parts,
        },
      );
      b.truth.errors.push({ line: headline, resolved: false, episode: kind });
      return;
    }
    case 'notebook': {
      const nb = `notebooks/${r.word()}_${r.word()}.ipynb`;
      const column = r.word();
      call(
        b,
        'NotebookEdit',
        {
          notebook_path: ref(b, nb, kind, 'abs'),
          cell_id: `cell-${r.int(1, 20)}`,
          new_source: `df['${column}'].mean()`,
        },
        { type: 'text', value: `Updated cell` },
      );
      const headline = `KeyError: '${column}'`;
      const site = '/opt/conda/lib/python3.11/site-packages/pandas/core/frame.py';
      b.truth.internals.push(site);
      call(
        b,
        r.pick(['run_cell', 'execute_cell']),
        { notebook: { path: nb, cell: r.int(1, 20) } },
        {
          type: 'json',
          value: {
            outputs: [
              {
                output_type: 'error',
                ename: 'KeyError',
                evalue: `'${column}'`,
                traceback: [
                  '\u001b[0;31m---------------------------------------------------------------------------\u001b[0m',
                  '\u001b[0;31mKeyError\u001b[0m                                  Traceback (most recent call last)',
                  `File \u001b[0;32m${site}:3805\u001b[0m, in \u001b[0;36mDataFrame.__getitem__\u001b[0;34m(self, key)\u001b[0m`,
                  `\u001b[0;31m${headline}\u001b[0m`,
                ],
              },
            ],
          },
        },
      );
      b.truth.files.get(nb)!.references++;
      b.truth.errors.push({ line: headline, resolved: false, episode: kind });
      return;
    }
    case 'non-english': {
      const file = srcFile(b, 'c');
      const sym = r.word();
      const [word, message] = r.pick([
        ['Fehler', `»${sym}« wurde in diesem Gültigkeitsbereich nicht definiert`],
        ['erreur', `« ${sym} » non déclaré (première utilisation dans cette fonction)`],
        ['error', `'${sym}' no se declaró aquí (primer uso en esta función)`],
        ['ошибка', `«${sym}» не был объявлен в этой области видимости`],
        ['错误', `‘${sym}’未声明(在此函数内第一次使用)`],
      ] as const);
      const line = `${ref(b, file, kind, 'rel')}:${r.int(2, 90)}:${r.int(1, 30)}: ${word}: ${message}`;
      const command = `make -C build ${r.word()}`;
      call(
        b,
        r.pick(['shell', 'run_command']),
        { command },
        exitJson(
          r,
          2,
          '',
          `${line}\nmake: *** [Makefile:12: ${r.word()}.o] ${word === 'Fehler' ? 'Fehler 1' : 'Error 1'}\n`,
        ),
      );
      b.truth.errors.push({
        line: line.replace(/^.*?: (?=\S+: )/, ''),
        resolved: false,
        episode: kind,
      });
      return;
    }
    case 'powershell7': {
      const file = `scripts/${r.word()}.ps1`;
      const missing = `${r.word()}.json`;
      const message = `Cannot find path '${b.windows ? `${b.cwd.replace(/\//g, '\\')}\\${missing}` : `${b.cwd}/${missing}`}' because it does not exist.`;
      const output = `Get-Content: ${ref(b, file, kind, 'abs')}:${r.int(2, 40)}\nLine |\n  ${r.int(2, 40)} |  $cfg = Get-Content ${missing} | ConvertFrom-Json\n     |         ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n     | ${message}\n`;
      call(b, 'powershell', { command: `pwsh -File ${file}` }, exitJson(r, 1, '', output));
      b.truth.errors.push({ line: message, resolved: false, episode: kind });
      return;
    }
    case 'monorepo-cd': {
      const pkg = `packages/${r.word()}`;
      const test = `src/${r.word()}.test.ts`;
      const name = r.word();
      const headline = `AssertionError: expected '${name}' to be '${r.word()}'`;
      const output = ` FAIL  ${test} > ${name} renders\n${headline}\n ❯ ${test}:${r.int(2, 40)}:${r.int(2, 20)}\n\n Test Files  1 failed (1)\n      Tests  1 failed | 3 passed (4)\n`;
      ref(b, `${pkg}/${test}`, kind);
      b.truth.files.get(`${pkg}/${test}`)!.references++;
      call(
        b,
        'bash',
        { command: `cd ${pkg} && pnpm vitest run ${test}` },
        exitJson(r, 1, output, ''),
      );
      b.truth.errors.push({ line: headline, resolved: false, episode: kind });
      return;
    }
    case 'diff': {
      const file = srcFile(b, 'py');
      const old = `raise ValueError("${r.word()} must be positive")`;
      const diff = `diff --git a/${file} b/${file}\nindex 3f2a1b0..9c8d7e6 100644\n--- a/${ref(b, file, kind, 'rel')}\n+++ b/${file}\n@@ -10,7 +10,7 @@ def ${r.word()}(x):\n     if x < 0:\n-        ${old}\n+        return 0\n`;
      b.truth.notErrors.push(old);
      b.truth.files.get(file)!.references++;
      call(
        b,
        r.pick(['shell', 'run_command']),
        { command: `git diff ${file}` },
        exitJson(r, 0, diff, ''),
      );
      return;
    }
    case 'runtime-frames': {
      const lang = r.int(0, 3);
      const file = srcFile(b, ['go', 'java', 'cs', 'rs'][lang]!);
      const at = ref(b, file, kind, 'abs');
      const frames = [
        [
          `panic: runtime error: index out of range [${r.int(3, 9)}] with length ${r.int(0, 2)}`,
          `goroutine 1 [running]:\nmain.${r.word()}(...)\n\t${at}:${r.int(2, 90)}\nruntime.main()\n\t/usr/local/go/src/runtime/proc.go:271 +0x29e`,
          '/usr/local/go/src/runtime/proc.go',
        ],
        [
          `Exception in thread "main" java.lang.IndexOutOfBoundsException: Index ${r.int(3, 9)} out of bounds for length 2`,
          `\tat java.base/jdk.internal.util.Preconditions.outOfBounds(Preconditions.java:100)\n\tat com.example.${r.camel()}.run(${file.split('/').pop()}:${r.int(2, 90)})\n${at}`,
          'jdk.internal.util.Preconditions',
        ],
        [
          `Unhandled exception. System.InvalidOperationException: Sequence contains no elements`,
          `   at System.Linq.ThrowHelper.ThrowNoElementsException()\n   at App.${r.camel()}.Run() in ${at}:line ${r.int(2, 90)}`,
          'System.Linq.ThrowHelper',
        ],
        [
          `thread 'main' panicked at ${file}:${r.int(2, 90)}:${r.int(2, 9)}:\ncalled \`Option::unwrap()\` on a \`None\` value`,
          `stack backtrace:\n   0: rust_begin_unwind\n             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5\n   1: ${r.word()}::main\n             at ./${file}:${r.int(2, 90)}:${r.int(2, 9)}`,
          '/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs',
        ],
      ][lang]!;
      b.truth.internals.push(frames[2]!);
      if (lang === 3) b.truth.files.get(file)!.references += 2;
      call(
        b,
        r.pick(['shell', 'run_command']),
        { command: `./run.sh ${r.word()}` },
        exitJson(r, r.pick([1, 2, 101, 134]), '', `${frames[0]}\n${frames[1]}\n`),
      );
      b.truth.errors.push({ line: frames[0]!.split('\n')[0]!, resolved: false, episode: kind });
      return;
    }
  }
}

/** Reads of ordinary files between episodes, so that the window outgrows small budgets. */
function filler(b: Build): void {
  const file = srcFile(b, b.r.pick(['ts', 'py', 'go']));
  const lines: string[] = [];
  for (let n = b.r.int(10, 40); n > 0; n--)
    lines.push(`  const ${b.r.word()} = ${b.r.word()}(${b.r.int(0, 99)});`);
  call(
    b,
    b.r.pick(['read_file', 'view']),
    { path: ref(b, file, 'filler') },
    { type: 'text', value: lines.join('\n') },
  );
}

export function buildUnseenTranscript(seed: number): UnseenTranscript {
  const r = new Rand(mulberry32(seed * 7919 + 17));
  const windows = r.chance(0.3);
  const user = r.word();
  const cwd = windows
    ? `${r.pick(['C', 'D'])}:/Users/${user}/${r.pick(['source', 'dev'])}/${r.word()}`
    : r.pick([
        `/home/${user}/${r.word()}`,
        `/workspace/${r.word()}`,
        `/Users/${user}/code/${r.word()}`,
      ]);
  const truth: UnseenTranscript = {
    cwd,
    windows,
    messages: [],
    errors: [],
    files: new Map(),
    internals: [],
    notErrors: [],
    tools: [],
    asks: [],
  };
  const b: Build = { r, cwd, windows, messages: truth.messages, truth, ids: 0 };
  const shownCwd = windows ? cwd.replace(/\//g, '\\') : cwd;
  b.messages.push({
    role: 'system',
    content: `You are a coding agent.\n<env>\nWorking directory: ${shownCwd}\nPlatform: ${windows ? 'win32' : 'linux'}\n</env>`,
  });
  ask(b, `Please ${r.word()} the ${r.word()} module and make the tests pass (${r.int(1, 999)}).`);
  const episodes = r.int(4, 8);
  for (let n = 0; n < episodes; n++) {
    for (let m = r.int(0, 3); m > 0; m--) filler(b);
    episode(b, r.pick(unseenEpisodes));
    if (r.chance(0.25))
      ask(b, `Also ${r.word()} the ${r.word()} ${r.word()} before you go on (#${r.int(1, 999)}).`);
  }
  b.messages.push({ role: 'assistant', content: `Working on it.` });
  return truth;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

export interface UnseenScores {
  measures: Record<string, number | undefined>;
  errorsByEpisode: Record<string, number>;
  filesByEpisode: Record<string, number>;
}

/** Whether `text` names `rel` as cwd/rel or as rel on its own (not under another directory). */
function namesFile(text: string, cwd: string, rel: string): boolean {
  if (text.includes(`${cwd}/${rel}`)) return true;
  let from = 0;
  for (;;) {
    const at = text.indexOf(rel, from);
    if (at === -1) return false;
    const before = text[at - 1];
    const after = text[at + rel.length];
    if (
      (before === undefined || /[\s"'`(]/.test(before) || text.slice(at - 2, at) === './') &&
      (after === undefined || /[\s"'`),:;]/.test(after))
    )
      return true;
    from = at + 1;
  }
}

export function scoreUnseenReceipt(text: string, truth: UnseenTranscript): UnseenScores {
  const flat = collapse(text);
  const slashed = flat.replace(/\\/g, '/');
  const share = <T>(items: readonly T[], present: (item: T) => boolean, weight = (_: T) => 1) => {
    const total = items.reduce((sum, item) => sum + weight(item), 0);
    if (total === 0) return undefined;
    return items.reduce((sum, item) => sum + (present(item) ? weight(item) : 0), 0) / total;
  };
  const sectionOf = (title: string) => {
    const start = text.indexOf(`## ${title}`);
    if (start === -1) return '';
    const end = text.indexOf('\n## ', start + 1);
    return text.slice(start, end === -1 ? undefined : end);
  };
  const blockerLines = sectionOf('Blockers and errors')
    .split('\n')
    .map(collapse)
    .filter((line) => line.startsWith('- '));
  const shown = truth.errors.filter((error) => flat.includes(collapse(error.line).slice(0, 100)));
  // Open errors come before resolved ones.
  // `- +3 more error lines not listed (…)` counts what was left out: it is no error line.
  const marks = blockerLines
    .filter((line) => !line.startsWith('- +'))
    .map((line) => line.includes('(resolved later)'));
  const firstResolved = marks.indexOf(true);
  const openAfterResolved = firstResolved !== -1 && marks.slice(firstResolved).includes(false);
  // "Completed actions" are numbered 1, 2, 3, ... in order, or by the window's ordinals, ascending.
  const numbers = sectionOf('Completed actions')
    .split('\n')
    .map((line) => /^(\d+)\. /.exec(line)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  const ascending = numbers.every((n, at) => at === 0 || n > numbers[at - 1]!);
  const files = [...truth.files].filter(([, entry]) => entry.episode !== 'filler' || true);
  const errorsByEpisode: Record<string, number> = {};
  const count: Record<string, number> = {};
  for (const error of truth.errors) {
    count[error.episode] = (count[error.episode] ?? 0) + 1;
    errorsByEpisode[error.episode] =
      (errorsByEpisode[error.episode] ?? 0) + (shown.includes(error) ? 1 : 0);
  }
  for (const key of Object.keys(errorsByEpisode)) errorsByEpisode[key]! /= count[key]!;
  const filesByEpisode: Record<string, number> = {};
  const fileCount: Record<string, number> = {};
  for (const [rel, entry] of files) {
    fileCount[entry.episode] = (fileCount[entry.episode] ?? 0) + entry.references;
    filesByEpisode[entry.episode] =
      (filesByEpisode[entry.episode] ?? 0) +
      (namesFile(slashed, truth.cwd, rel) ? entry.references : 0);
  }
  for (const key of Object.keys(filesByEpisode)) filesByEpisode[key]! /= fileCount[key]!;
  return {
    measures: {
      errors: share(truth.errors, (error) => shown.includes(error)),
      resolvedMarks: share(shown, (error) => {
        const line = blockerLines.find((l) => l.includes(collapse(error.line).slice(0, 100))) ?? '';
        return line.includes('(resolved later)') === error.resolved;
      }),
      files: share(
        files,
        ([rel]) => namesFile(slashed, truth.cwd, rel),
        ([, e]) => e.references,
      ),
      tools: share(truth.tools, (name) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(flat)),
      asks: share(truth.asks, (a) => flat.includes(a.slice(0, 100))),
      openFirst: blockerLines.length === 0 ? undefined : openAfterResolved ? 0 : 1,
      actionsNumbered: numbers.length === 0 ? undefined : ascending ? 1 : 0,
      // The files section only: a trace quoted in a turn or an error line may name them.
      internalsShown: truth.internals.filter((path) =>
        sectionOf('Relevant files').replace(/\\/g, '/').includes(path),
      ).length,
      notErrorsShown: truth.notErrors.filter((line) => blockerLines.some((l) => l.includes(line)))
        .length,
    },
    errorsByEpisode,
    filesByEpisode,
  };
}
