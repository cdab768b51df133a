import type { ModelMessage } from '@ai-sdk/provider-utils';
import { callPair } from './call-pair.js';
import {
  Draw,
  type GeneratedError,
  type GeneratedTranscript,
} from './generate-agent-transcript.js';
import { mulberry32 } from './mulberry32.js';

/**
 * Windows in formats that neither the dev corpus nor generate-agent-transcript.ts draws, written
 * apart from the receipt's rules to stand in for sources we do not have (leave-source-out): error
 * families of other toolchains (C/C++, Swift, Zig, Dart, Haskell, Elixir, Scala, Lua, Perl, R,
 * mypy, make, git, Docker, Terraform, SQL, HTTP 5xx, shells, signals, out-of-memory), project paths
 * as `~/`, `../<project>/`, quoted, `file://` and absolute, tools with dotted, namespaced or
 * CamelCase names and nested argument shapes, and user asks in many scripts and lengths. Truth by
 * construction, in the shape `scoreGeneratedReceipt` reads. Types only, so benches run it directly.
 */
interface Context {
  d: Draw;
  /** A project file referred to in some form (counted once). */
  ref: (rel: string) => string;
  /** A runtime or library file (must never be listed). */
  internal: (path: string) => string;
}

interface Family {
  name: string;
  extension: string;
  command: (d: Draw, file: string) => string;
  /** The failing output and its headline (the line a reader calls the error). */
  failure: (c: Context, file: string) => { output: string; headline: string };
}

const n = (d: Draw) => d.int(2, 240);
const families: Family[] = [
  {
    name: 'gcc',
    extension: 'c',
    command: (_, f) => `gcc -Wall -c ${f}`,
    failure: (c, f) => {
      const headline = `${c.ref(f)}:${n(c.d)}:${c.d.int(1, 40)}: error: '${c.d.word()}' undeclared (first use in this function)`;
      return {
        output: `${c.ref(f)}: In function 'main':\n${headline}\n   12 |   x = y;`,
        headline,
      };
    },
  },
  {
    name: 'clang++',
    extension: 'cpp',
    command: (_, f) => `clang++ -std=c++20 ${f}`,
    failure: (c, f) => {
      const headline = `${c.ref(f)}:${n(c.d)}:${c.d.int(1, 40)}: error: no member named '${c.d.word()}' in 'std::vector<int>'`;
      return {
        output: `${headline}\n    v.${c.d.word()}();\n    ~ ^\n1 error generated.`,
        headline,
      };
    },
  },
  {
    name: 'swift',
    extension: 'swift',
    command: () => 'swift build',
    failure: (c, f) => {
      const headline = `${c.ref(f)}:${n(c.d)}:${c.d.int(1, 40)}: error: cannot find '${c.d.word()}' in scope`;
      return { output: `Building for debugging...\n${headline}\nerror: fatalError`, headline };
    },
  },
  {
    name: 'zig',
    extension: 'zig',
    command: () => 'zig build test',
    failure: (c, f) => {
      const headline = `${c.ref(f)}:${n(c.d)}:${c.d.int(1, 40)}: error: expected type 'u32', found 'i64'`;
      return { output: `${headline}\n    const x: u32 = y;\n                   ^`, headline };
    },
  },
  {
    name: 'dart',
    extension: 'dart',
    command: (_, f) => `dart run ${f}`,
    failure: (c, f) => {
      const headline = `${c.ref(f)}:${n(c.d)}:${c.d.int(1, 40)}: Error: The getter '${c.d.word()}' isn't defined for the class 'Widget'.`;
      return {
        output: `${headline}\n - 'Widget' is from 'package:flutter/widgets.dart'.`,
        headline,
      };
    },
  },
  {
    name: 'ghc',
    extension: 'hs',
    command: () => 'cabal build',
    failure: (c, f) => {
      const headline = `${c.ref(f)}:${n(c.d)}:${c.d.int(1, 40)}: error: [GHC-88464] Variable not in scope: ${c.d.word()} :: Int -> String`;
      return {
        output: `Building library for app-0.1.0.0..\n${headline}\n   |\n12 | main = foo 3`,
        headline,
      };
    },
  },
  {
    name: 'elixir',
    extension: 'ex',
    command: () => 'mix test',
    failure: (c, f) => {
      const headline = `** (CompileError) ${c.ref(f)}:${n(c.d)}: undefined function ${c.d.word()}/2 (there is no such import)`;
      return {
        output: `Compiling 3 files (.ex)\n${headline}\n    ${c.internal('(elixir 1.16.0) lib/kernel/parallel_compiler.ex:346')}: anonymous fn/5`,
        headline,
      };
    },
  },
  {
    name: 'scala',
    extension: 'scala',
    command: () => 'sbt compile',
    failure: (c, f) => {
      const headline = `[error] ${c.ref(f)}:${n(c.d)}:${c.d.int(1, 40)}: not found: value ${c.d.word()}`;
      return {
        output: `[info] compiling 4 Scala sources\n${headline}\n[error] one error found\n[error] (Compile / compileIncremental) Compilation failed`,
        headline,
      };
    },
  },
  {
    name: 'lua',
    extension: 'lua',
    command: (_, f) => `lua ${f}`,
    failure: (c, f) => {
      const headline = `lua: ${c.ref(f)}:${n(c.d)}: attempt to call a nil value (global '${c.d.word()}')`;
      return { output: `${headline}\nstack traceback:\n\t[C]: in ?`, headline };
    },
  },
  {
    name: 'perl',
    extension: 'pl',
    command: (_, f) => `perl ${f}`,
    failure: (c, f) => {
      const module = `${c.d.word()}::${c.d.word()}`;
      const headline = `Can't locate object method "${c.d.word()}" via package "${module}" at ${c.ref(f)} line ${n(c.d)}.`;
      return { output: headline, headline };
    },
  },
  {
    name: 'r',
    extension: 'R',
    command: (_, f) => `Rscript ${f}`,
    failure: (c) => {
      const headline = `Error in ${c.d.word()}(df) : object '${c.d.word()}' not found`;
      return { output: `${headline}\nCalls: main -> ${c.d.word()}\nExecution halted`, headline };
    },
  },
  {
    name: 'mypy',
    extension: 'py',
    command: () => 'mypy .',
    failure: (c, f) => {
      const headline = `${c.ref(f)}:${n(c.d)}: error: Incompatible return value type (got "str", expected "int")  [return-value]`;
      return { output: `${headline}\nFound 1 error in 1 file (checked 12 source files)`, headline };
    },
  },
  {
    name: 'go-panic',
    extension: 'go',
    command: () => 'go run ./cmd/server',
    failure: (c, f) => {
      const headline = `panic: runtime error: index out of range [${c.d.int(3, 9)}] with length ${c.d.int(0, 2)}`;
      return {
        output: `${headline}\n\ngoroutine 1 [running]:\nmain.${c.d.word()}(...)\n\t${c.ref(f)}:${n(c.d)} +0x1d\n${c.internal('/usr/local/go/src/runtime/proc.go')}:271 +0x29\nexit status 2`,
        headline,
      };
    },
  },
  {
    name: 'make',
    extension: 'mk',
    command: () => 'make all',
    failure: (c) => {
      const target = c.d.word();
      const headline = `make: *** [Makefile:${n(c.d)}: ${target}] Error ${c.d.int(1, 2)}`;
      return { output: `cc -o ${target} main.o\n${headline}`, headline };
    },
  },
  {
    name: 'git',
    extension: 'md',
    command: () => 'git push origin HEAD',
    failure: (c) => {
      const headline = `fatal: unable to access 'https://git.example.org/${c.d.word()}.git/': The requested URL returned error: 503`;
      return { output: headline, headline };
    },
  },
  {
    name: 'docker',
    extension: 'Dockerfile',
    command: () => 'docker build -t app .',
    failure: (c) => {
      const headline = `ERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: ${c.d.int(1, 127)}`;
      return {
        output: `#8 [4/6] RUN npm ci\n#8 12.3 npm ERR! code ERESOLVE\n${headline}`,
        headline,
      };
    },
  },
  {
    name: 'terraform',
    extension: 'tf',
    command: () => 'terraform plan',
    failure: (c, f) => {
      const headline = `│ Error: Reference to undeclared resource "${c.d.word()}"`;
      return {
        output: `╷\n${headline}\n│\n│   on ${c.ref(f)} line ${n(c.d)}, in resource "aws_s3_bucket" "b":\n╵`,
        headline,
      };
    },
  },
  {
    name: 'sql',
    extension: 'sql',
    command: (_, f) => `psql -f ${f}`,
    failure: (c) => {
      const headline = `ERROR:  relation "${c.d.word()}" does not exist`;
      return {
        output: `${headline}\nLINE 1: SELECT * FROM ${c.d.word()};\n                      ^`,
        headline,
      };
    },
  },
  {
    name: 'http-5xx',
    extension: 'ts',
    command: (d) => `curl -fsS http://localhost:${d.int(3000, 9000)}/api/${d.word()}`,
    failure: (c) => {
      const headline = c.d.pick([
        `curl: (22) The requested URL returned error: ${c.d.pick([500, 502, 503, 504])}`,
        `HTTP/1.1 ${c.d.pick(['500 Internal Server Error', '502 Bad Gateway', '503 Service Unavailable'])}`,
      ]);
      return { output: headline, headline };
    },
  },
  {
    name: 'shell',
    extension: 'sh',
    command: (d) => `${d.word()} --version`,
    failure: (c) => {
      const program = c.d.word();
      const headline = c.d.pick([
        `bash: ${program}: command not found`,
        `zsh: command not found: ${program}`,
        `/bin/sh: 1: ${program}: not found`,
      ]);
      return { output: headline, headline };
    },
  },
  {
    name: 'signal',
    extension: 'c',
    command: (_, f) => `./${f.replace(/\.c$/, '')}`,
    failure: (c) => {
      const headline = c.d.pick([
        'Segmentation fault (core dumped)',
        'Killed',
        'Aborted (core dumped)',
        `terminate called after throwing an instance of 'std::out_of_range'`,
      ]);
      return { output: headline, headline };
    },
  },
  {
    name: 'jvm',
    extension: 'java',
    command: () => 'java -jar build/app.jar',
    failure: (c, f) => {
      const headline = `Exception in thread "main" java.lang.IllegalStateException: ${c.d.word()} not initialised`;
      const cls = f.replace(/^.*\//, '').replace(/\.java$/, '');
      return {
        output: `${headline}\n\tat com.example.${cls}.run(${cls}.java:${n(c.d)})\n\tat java.base/${c.internal('java.lang.Thread.run(Thread.java:1583)')}`,
        headline,
      };
    },
  },
  {
    name: 'npm',
    extension: 'json',
    command: () => 'npm install',
    failure: (c) => {
      const headline = `npm ERR! 404 Not Found - GET https://registry.npmjs.org/@${c.d.word()}%2f${c.d.word()} - Not found`;
      return {
        output: `npm ERR! code E404\n${headline}\nnpm ERR! A complete log of this run can be found in: /root/.npm/_logs/x.log`,
        headline,
      };
    },
  },
];

// Tools named and shaped as harnesses we have not seen may name them.
const shellTools = [
  'sys.exec',
  'ExecuteCommand',
  'mcp__box__run',
  'terminal/run',
  'RunShell',
  'proc_spawn',
];
const readTools = ['fs.readText', 'OpenFileTool', 'mcp__fs__read', 'view-source', 'ReadResource'];
const editTools = ['fs.patchText', 'ModifyFile', 'mcp__fs__write', 'apply-edit', 'WriteResource'];

const asksPool = [
  (d: Draw, f: string) => `请修复 ${f} 中的 ${d.word()} 问题，并保持接口不变。`,
  (d: Draw, f: string) => `${f} の ${d.word()} が壊れています。テストも追加してください。`,
  (d: Draw, f: string) =>
    `Пожалуйста, исправь ошибку в ${f}: функция ${d.word()} падает на пустом вводе.`,
  (d: Draw, f: string) => `يرجى إصلاح ${d.word()} في الملف ${f} دون تغيير الواجهة`,
  (d: Draw, f: string) => `कृपया ${f} में ${d.word()} की त्रुटि ठीक करें`,
  (d: Draw, f: string) => `Bitte behebe den Fehler in ${f}, ${d.word()} soll nicht mehr abstürzen.`,
  (d: Draw, f: string) => `¿Puedes arreglar ${d.word()} en ${f}? Falla cuando la lista está vacía.`,
  (d: Draw, f: string) => `${f}에서 ${d.word()} 오류를 고쳐 주세요`,
  () => 'go on',
  () => '继续',
  () => 'ok 👍 ship it',
  (d: Draw, f: string) =>
    `Context: we are migrating ${d.word()} to the new ${d.word()} service and the build has been red since yesterday. ${Array.from({ length: d.int(8, 20) }, () => `The ${d.word()} step ${d.pick(['fails', 'hangs', 'passes'])} on ${d.word()}.`).join(' ')} Please start with ${f} and tell me what you changed.`,
];

interface Builder {
  d: Draw;
  cwd: string;
  home: string;
  project: string;
  messages: ModelMessage[];
  files: Map<string, number>;
  internals: string[];
  tools: Set<string>;
  ids: number;
}

/** A project file in one of the forms a tool or a person writes it. */
function ref(b: Builder, rel: string): string {
  b.files.set(rel, (b.files.get(rel) ?? 0) + 1);
  const form = b.d.int(0, 6);
  if (form === 0) return `${b.cwd}/${rel}`;
  if (form === 1) return `./${rel}`;
  if (form === 2 && b.cwd.startsWith(`${b.home}/`)) return `~${b.cwd.slice(b.home.length)}/${rel}`;
  if (form === 3) return `../${b.project}/${rel}`;
  if (form === 4) return `file://${b.cwd}/${rel}`;
  return rel;
}

function call(b: Builder, toolName: string, input: unknown, output: unknown): void {
  b.tools.add(toolName);
  b.messages.push(
    ...callPair(`${b.d.pick(['op-', 'c', 'run_'])}${b.ids++}`, toolName, input, output),
  );
}

/** A shell call in one of several argument shapes, and its result in one of several wrappings. */
function shell(b: Builder, tool: string, command: string, text: string, code: number): void {
  const input = b.d.pick([
    () => ({ argv: ['sh', '-c', command] }),
    () => ({ params: { script: command, env: { CI: '1' } } }),
    () => ({ cmd: command, options: { cwd: b.cwd, timeoutSec: 60 } }),
    () => ({ commandLine: command }),
  ])();
  const output = b.d.pick([
    () => ({
      type: 'json',
      value: { status: code, out: code === 0 ? text : '', err: code === 0 ? '' : text },
    }),
    () => ({ type: 'text', value: `${text}\n[exit ${code}]` }),
    () => ({ type: 'text', value: `${text}\nprocess finished: code=${code}` }),
    () => (code === 0 ? { type: 'text', value: text } : { type: 'error-text', value: text }),
  ])();
  call(b, tool, input, output);
}

export function generateHeldOutWindow(seed: number): GeneratedTranscript {
  const d = new Draw(mulberry32(seed));
  const user = d.word();
  const project = d.word();
  const home = d.pick([`/home/${user}`, `/Users/${user}`]);
  const cwd = `${home}/${d.pick(['src', 'work', 'dev'])}/${project}`;
  const b: Builder = {
    d,
    cwd,
    home,
    project,
    messages: [],
    files: new Map(),
    internals: [],
    tools: new Set(),
    ids: 0,
  };
  b.messages.push({
    role: 'system',
    content: d.pick([
      `cwd=${cwd}`,
      `Current directory: ${cwd}`,
      `<context>\n  root: ${cwd}\n</context>`,
    ]),
  });
  const shellTool = d.pick(shellTools);
  const readTool = d.pick(readTools);
  const editTool = d.pick(editTools);
  const chosen = [...new Set([d.pick(families), d.pick(families), d.pick(families)])];
  const errors: GeneratedError[] = [];
  const runs: Array<{ command: string; error: GeneratedError | undefined }> = [];
  const asks: string[] = [];
  const edited = new Set<string>();
  const secrets: string[] = [];
  const projectFiles: string[] = [];
  const episodes = d.int(4, 10);
  for (let episode = 0; episode < episodes; episode++) {
    const family = d.pick(chosen);
    const rel =
      projectFiles.length > 3 && d.chance(0.4)
        ? d.pick(projectFiles)
        : `${d.pick(['src', 'lib', 'app', 'pkg/core'])}/${d.word()}.${family.extension}`;
    if (!projectFiles.includes(rel)) projectFiles.push(rel);
    const ask = d.pick(asksPool)(d, ref(b, rel)).replace(/\s+/g, ' ').trim();
    if (asks.includes(ask)) {
      // A repeated ask is one ask: take the reference back.
      b.files.set(rel, b.files.get(rel)! - 1);
      continue;
    }
    asks.push(ask);
    b.messages.push({ role: 'user', content: ask });
    if (episode === 1 && d.chance(0.5)) {
      const secret = `ghp_${d.alnum(36)}`;
      secrets.push(secret);
      shell(b, shellTool, `export GH_TOKEN=${secret}`, '', 0);
    }
    const readInput = d.pick([
      () => ({ target: { uri: `file://${cwd}/${rel}` } }),
      () => ({ resource: ref(b, rel) }),
      () => ({ files: [ref(b, rel)] }),
    ])();
    if (!('resource' in readInput) && !('files' in readInput)) {
      b.files.set(rel, (b.files.get(rel) ?? 0) + 1);
    }
    call(b, readTool, readInput, { type: 'text', value: `${d.word()} ${d.word()}\n${d.word()}` });
    for (let run = d.int(1, 2); run > 0; run--) {
      const command = family.command(d, rel);
      const failure = family.failure(
        {
          d,
          ref: (file) => ref(b, file),
          internal: (path) => {
            b.internals.push(path);
            return path;
          },
        },
        rel,
      );
      shell(b, shellTool, command, failure.output, d.pick([1, 2, 127, 134, 137]));
      const error: GeneratedError = {
        line: failure.headline.replace(/\s+/g, ' ').trim(),
        ecosystem: family.name,
        resolved: false,
      };
      errors.push(error);
      runs.push({ command, error });
      if (d.chance(0.6)) {
        edited.add(rel);
        call(
          b,
          editTool,
          d.pick([
            () => ({ edits: [{ file: ref(b, rel), find: 'a', replace: 'b' }] }),
            () => ({ dest: ref(b, rel), body: `${d.word()}\n` }),
          ])(),
          { type: 'text', value: 'applied' },
        );
        if (d.chance(0.7)) {
          shell(b, shellTool, command, d.pick(['ok', 'Build succeeded', '']), 0);
          runs.push({ command, error: undefined });
        } else if (d.chance(0.5)) {
          // A different command succeeding resolves nothing (control).
          shell(b, shellTool, `ls ${d.word()}`, 'README.md', 0);
        }
      }
    }
    b.messages.push({ role: 'assistant', content: `${d.word()} ${d.word()}.` });
  }
  runs.forEach((run, at) => {
    if (run.error === undefined) return;
    run.error.resolved = runs.some(
      (later, position) =>
        position > at && later.error === undefined && later.command === run.command,
    );
  });
  // One error line is one item: resolved only when every run that printed it was fixed later.
  const byLine = new Map<string, GeneratedError>();
  for (const error of errors) {
    const seen = byLine.get(error.line);
    byLine.set(error.line, { ...error, resolved: error.resolved && (seen?.resolved ?? true) });
  }
  return {
    shape: 'held-out',
    cwd,
    messages: b.messages,
    errors: [...byLine.values()],
    files: b.files,
    edited,
    internals: b.internals,
    tools: [...b.tools],
    asks,
    secrets,
    ecosystems: chosen.map((family) => family.name),
    traits: [],
  };
}
