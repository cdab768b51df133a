import { execFileSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { runBuiltCli } from './test-utils/run-built-cli.js';

const temporaryFolder = () => mkdtempSync(join(tmpdir(), 'baton-out-safety-'));
const turns = Array.from({ length: 30 }, (_, index) => [
  { role: 'user', content: `question ${index} ${'lorem ipsum '.repeat(40)}` },
  { role: 'assistant', content: `answer ${index} ${'dolor sit amet '.repeat(40)}` },
]).flat();
const transcriptText = `${JSON.stringify(turns)}\n`;
const silent = () => ({
  text: '',
  write(chunk: string) {
    this.text += chunk;
  },
});

/** A transcript in a fresh folder, with its bytes and modification time to compare afterwards. */
function transcript() {
  const folder = temporaryFolder();
  const file = join(folder, 's.json');
  writeFileSync(file, transcriptText);
  return { folder, file, mtime: statSync(file).mtimeMs };
}

describe('baton compact never overwrites its input (built binary)', () => {
  const cases: Array<
    [
      string,
      (input: ReturnType<typeof transcript>) => { out: string; cwd?: string; inputArg?: string },
    ]
  > = [
    ['the same path', ({ file }) => ({ out: file })],
    [
      './s.json from its folder',
      ({ folder }) => ({ out: './s.json', cwd: folder, inputArg: 's.json' }),
    ],
    [
      'a path with .. in it',
      ({ folder }) => ({ out: join(folder, '..', folder.split('/').at(-1)!, 's.json') }),
    ],
    [
      'a symlinked folder',
      ({ folder }) => {
        const link = join(temporaryFolder(), 'link');
        symlinkSync(folder, link);
        return { out: join(link, 's.json') };
      },
    ],
    [
      'a symlink to the file',
      ({ file }) => {
        const link = join(temporaryFolder(), 'alias.json');
        symlinkSync(file, link);
        return { out: link };
      },
    ],
    [
      'a hard link',
      ({ file }) => {
        const hard = join(temporaryFolder(), 'hard.json');
        linkSync(file, hard);
        return { out: hard };
      },
    ],
    ['its folder', ({ folder }) => ({ out: folder })],
    [
      'its folder through a symlink',
      ({ folder }) => {
        const link = join(temporaryFolder(), 'dir-link');
        symlinkSync(folder, link);
        return { out: `${link}/` };
      },
    ],
  ];
  it.each(cases)('refuses %s: exit 2, one line, nothing written', async (_, make) => {
    const input = transcript();
    const { out, cwd, inputArg } = make(input);
    const before = readdirSync(input.folder);
    const run = await runBuiltCli(
      ['compact', inputArg ?? input.file, '--window', '2k', '--strategy', 'truncate', '--out', out],
      cwd === undefined ? {} : { cwd },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^baton: --out .*would overwrite the input .*\n$/);
    expect(readFileSync(input.file, 'utf8')).toBe(transcriptText);
    expect(statSync(input.file).mtimeMs).toBe(input.mtime);
    expect(readdirSync(input.folder)).toEqual(before);
  });

  it('refuses an output that is another input of the same run', async () => {
    const first = transcript();
    const second = transcript();
    const run = await runBuiltCli(['compact', first.file, second.file, '--out', second.folder]);
    expect(run.code).toBe(2);
    expect(readFileSync(second.file, 'utf8')).toBe(transcriptText);
  });
});

describe('the temporary file is created exclusively', () => {
  it('never writes through a symlink planted at a predictable temporary name', async () => {
    const input = transcript();
    const outFolder = temporaryFolder();
    const out = join(outFolder, 'out.json');
    const victim = join(temporaryFolder(), 'victim.txt');
    writeFileSync(victim, 'untouched');
    // The name the old code used, in this process (runCli runs in-process).
    symlinkSync(victim, `${out}.${process.pid}.tmp`);
    const code = await runCli(['compact', input.file, '--window', '2k', '--out', out], {
      stdout: silent(),
      stderr: silent(),
      env: {},
    });
    expect(code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toBeInstanceOf(Array);
    // Nothing but the output and the planted link is left behind.
    expect(readdirSync(outFolder).sort()).toEqual(['out.json', `out.json.${process.pid}.tmp`]);
  });
});

describe('special inputs (built binary)', () => {
  it('reads `-` from stdin', async () => {
    const run = await runBuiltCli(['count', '-', '--json'], { input: transcriptText });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ file: '-', messages: expect.any(Array) });
    const out = join(temporaryFolder(), 'out');
    const compact = await runBuiltCli(['compact', '-', '--window', '2k', '--out', `${out}/`], {
      input: transcriptText,
    });
    expect(compact.code, compact.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(['stdin.json']);
  });

  it('refuses empty stdin with one line', async () => {
    const run = await runBuiltCli(['count', '-']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('baton: -: empty file\n');
  });

  it('does not block forever on a FIFO nobody writes to', async () => {
    const fifo = join(temporaryFolder(), 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const run = await runBuiltCli(['count', fifo], { timeoutMs: 30_000 });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^baton: .*pipe\.json: nothing arrived on the pipe within \d+ s\n$/);
  });

  it('reads a FIFO whose writer comes a moment later', async () => {
    const fifo = join(temporaryFolder(), 'late.json');
    execFileSync('mkfifo', [fifo]);
    const reading = runBuiltCli(['count', fifo, '--json'], { timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Opening for writing blocks until the reader is there; the writer runs in a child shell.
    execFileSync('sh', ['-c', `cat > '${fifo}'`], { input: transcriptText });
    const run = await reading;
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).messages).toHaveLength(turns.length);
  });

  it('refuses a character device', async () => {
    const run = await runBuiltCli(['count', '/dev/zero'], { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('baton: /dev/zero: cannot read file: not a regular file or a pipe\n');
  });
});

void mkdirSync;
void existsSync;
