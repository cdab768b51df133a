import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { clipMiddle } from '@baton/compressor';
import { tool } from 'ai';
import { z } from 'zod';

const MAX_OUTPUT_CHARACTERS = 6_000;
const COMMAND_TIMEOUT_MS = 20_000;
/** Commands a model may run. No shell: arguments go straight to the program, in the workspace only. */
const ALLOWED_COMMANDS = ['node', 'ls', 'cat', 'grep', 'wc', 'head', 'tail'] as const;

/** Resolves a model-supplied path inside the workspace, refusing anything that escapes it. */
export function resolveInside(root: string, relativePath: string): string {
  const resolved = path.resolve(root, relativePath);
  const relative = path.relative(root, resolved);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`path ${relativePath} is outside the workspace`);
  }
  return resolved;
}

/** Node flags that would run code other than the project's own files. */
const NODE_CODE_FLAGS = [
  '-e',
  '--eval',
  '-p',
  '--print',
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-i',
  '--interactive',
];

/**
 * Keeps a command inside the workspace: no inline code for node, and every argument (or flag value)
 * that names a path must stay inside the workspace. Throws with the reason otherwise.
 */
export function checkArguments(command: string, args: readonly string[], root: string): void {
  for (const arg of args) {
    const [flag, value] = arg.startsWith('-')
      ? [arg.split('=')[0]!, arg.split('=').slice(1).join('=')]
      : [undefined, arg];
    if (command === 'node' && flag !== undefined && NODE_CODE_FLAGS.includes(flag)) {
      throw new Error(
        `run_command: node ${flag} is not allowed; run a file of the project instead`,
      );
    }
    if (value !== '') resolveInside(root, value);
  }
}

// The start and the end of a long output: errors and results tend to sit at the end.
const clip = (text: string) => clipMiddle(text, MAX_OUTPUT_CHARACTERS);

async function listRecursively(root: string, directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.git')) continue;
    const absolute = path.join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await listRecursively(root, absolute)));
    else files.push(path.relative(root, absolute).split(path.sep).join('/'));
  }
  return files;
}

function runProgram(
  program: string,
  args: string[],
  cwd: string,
): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      program,
      args,
      {
        cwd,
        timeout: COMMAND_TIMEOUT_MS,
        maxBuffer: 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1' },
      },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        if (error && typeof error.code !== 'number') {
          resolve({ exitCode: 127, output: `${output}${error.message}` });
          return;
        }
        resolve({ exitCode: typeof error?.code === 'number' ? error.code : 0, output });
      },
    );
  });
}

/**
 * The agent's tools over one workspace directory. Every tool really runs: files are read and written on
 * disk and commands are executed (without a shell, from a short allow-list, with a timeout).
 */
export function createWorkspaceTools(root: string) {
  return {
    list_files: tool({
      description: 'List the files of the project, recursively, relative to the project root.',
      inputSchema: z.object({
        path: z
          .string()
          .describe('Directory relative to the project root; "." for all.')
          .default('.'),
      }),
      execute: async ({ path: relativePath }) => {
        const files = await listRecursively(root, resolveInside(root, relativePath));
        return files.join('\n');
      },
    }),
    read_file: tool({
      description: 'Read a text file of the project.',
      inputSchema: z.object({
        path: z.string().describe('File path relative to the project root.'),
      }),
      execute: async ({ path: relativePath }) =>
        clip(await readFile(resolveInside(root, relativePath), 'utf8')),
    }),
    search: tool({
      description:
        'Search the project for a literal string; returns file:line: text for each match.',
      inputSchema: z.object({
        pattern: z.string().min(1).describe('Literal text to look for (case-sensitive).'),
        path: z
          .string()
          .describe('Directory or file to search, relative to the root.')
          .default('.'),
      }),
      execute: async ({ pattern, path: relativePath }) => {
        const target = resolveInside(root, relativePath);
        const files = (await stat(target)).isDirectory()
          ? (await listRecursively(root, target)).map((file) => path.join(root, file))
          : [target];
        const matches: string[] = [];
        for (const file of files) {
          const lines = (await readFile(file, 'utf8')).split('\n');
          lines.forEach((line, index) => {
            if (line.includes(pattern)) {
              matches.push(`${path.relative(root, file)}:${index + 1}: ${line.trim()}`);
            }
          });
        }
        return matches.length === 0 ? `no matches for "${pattern}"` : clip(matches.join('\n'));
      },
    }),
    edit_file: tool({
      description:
        'Replace one exact occurrence of `find` with `replace` in a file. Fails when `find` is absent or ambiguous.',
      inputSchema: z.object({
        path: z.string(),
        find: z.string().min(1),
        replace: z.string(),
      }),
      execute: async ({ path: relativePath, find, replace }) => {
        const file = resolveInside(root, relativePath);
        const before = await readFile(file, 'utf8');
        const occurrences = before.split(find).length - 1;
        if (occurrences === 0)
          throw new Error(`edit_file: text to replace not found in ${relativePath}`);
        if (occurrences > 1) {
          throw new Error(
            `edit_file: text to replace occurs ${occurrences} times in ${relativePath}`,
          );
        }
        await writeFile(
          file,
          before.replace(find, () => replace),
        );
        const removed = find.split('\n').length;
        const added = replace.split('\n').length;
        return `edited ${relativePath}: -${removed} +${added} lines`;
      },
    }),
    write_file: tool({
      description: 'Create or overwrite a text file of the project.',
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: async ({ path: relativePath, content }) => {
        const file = resolveInside(root, relativePath);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, content);
        return `wrote ${relativePath} (${content.split('\n').length} lines)`;
      },
    }),
    run_command: tool({
      description: `Run a program in the project root (no shell). Allowed: ${ALLOWED_COMMANDS.join(', ')}.`,
      inputSchema: z.object({
        command: z.enum(ALLOWED_COMMANDS),
        args: z.array(z.string()).default([]),
      }),
      execute: async ({ command, args }) => {
        checkArguments(command, args, root);
        const program = command === 'node' ? process.execPath : command;
        const { exitCode, output } = await runProgram(program, args, root);
        return clip(`$ ${[command, ...args].join(' ')}\nexit code ${exitCode}\n${output}`);
      },
    }),
  };
}

export type WorkspaceTools = ReturnType<typeof createWorkspaceTools>;
