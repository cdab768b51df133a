import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractErrorLines, extractPaths, itemKey } from './index.js';

describe('extractPaths', () => {
  it('finds POSIX, home, relative and Windows paths and leaves URLs out', () => {
    const text = [
      'edit /repo/src/app.ts and ~/notes/todo.md,',
      'see ./lib/util.js:12:3 (and ../x/y.py)',
      'open C:\\Users\\me\\project\\main.cs now',
      'fetch https://example.com/a/b.js and file:src/c.ts',
      'ratio 1/2, and/or, 2024/01/02',
    ].join('\n');
    expect(extractPaths(text)).toEqual([
      '/repo/src/app.ts',
      '~/notes/todo.md',
      './lib/util.js',
      '../x/y.py',
      'C:\\Users\\me\\project\\main.cs',
      'src/c.ts',
    ]);
  });
});

describe('extractPaths on Windows forward slashes, bare relative files and UNC shares', () => {
  it('finds "D:/data/x.json", ./README.md and \\\\server\\share paths', () => {
    const text =
      'wrote "D:/data/x.json", read ./README.md and ../setup.py, copied \\\\server\\share\\f.txt and \\\\nas01\\builds$\\app\\log.txt; see ~/.bashrc';
    expect(extractPaths(text)).toEqual([
      'D:/data/x.json',
      './README.md',
      '../setup.py',
      '\\\\server\\share\\f.txt',
      '\\\\nas01\\builds$\\app\\log.txt',
      '~/.bashrc',
    ]);
  });

  it('does not take base64 secrets with slashes for paths', () => {
    const key = ['wJalrXUtnFEMI', 'K7MDENG', 'bPxRfiCYEX4mPLe9Q2'].join('/');
    expect(extractPaths(`aws_secret_access_key=${key} and ${key}`)).toEqual([]);
    expect(extractPaths('password: ./secret/p4ss.txt and src/Button2/Index3Page4.tsx')).toEqual([
      'src/Button2/Index3Page4.tsx',
    ]);
  });

  it('still leaves fractions, URLs and lone dots alone', () => {
    expect(extractPaths('1/2 ./ .. ../ \\\\ x:/ https://a.b/c.js a\\b')).toEqual([]);
  });
});

describe('extractErrorLines', () => {
  it('keeps failures and exception lines, skips source that mentions errors', () => {
    const output = [
      'Traceback (most recent call last):',
      '    raise ValueError("bad")',
      'ValueError: bad input',
      '  12→ except KeyError:',
      'FAILED tests/test_a.py::test_x - AssertionError',
      'all good',
      '<returncode>2</returncode>',
    ].join('\n');
    expect(extractErrorLines(output)).toEqual([
      'Traceback (most recent call last):',
      'ValueError: bad input',
      'FAILED tests/test_a.py::test_x - AssertionError',
      '<returncode>2</returncode>',
    ]);
  });
});

describe('itemKey', () => {
  it('collapses whitespace and cuts on a space', () => {
    expect(itemKey('a  b\n c')).toBe('a b c');
    const long = `${'word '.repeat(50)}/very/long/path/that/must/not/break.ts`;
    expect(itemKey(long)).not.toContain('/very/long');
  });
});

describe('a diagnostic in a file under a directory named like a keyword', () => {
  it('is an error line (`fn/`, `use/`, `new-app/`, `package.json` are paths, not code)', () => {
    const keywords = ['fn', 'use', 'new', 'type', 'module', 'package', 'case', 'import', 'class'];
    fc.assert(
      fc.property(
        fc.constantFrom(...keywords),
        fc.constantFrom('/', '-', '.'),
        fc.noBias(fc.stringMatching(/^[a-z][a-z0-9_]{1,8}$/)),
        (keyword, joint, name) => {
          const path = joint === '.' ? `${keyword}.json` : `${keyword}${joint}${name}/${name}.ts`;
          const line = `${path}:12:5: error: ${name} is not defined`;
          expect(extractErrorLines(line)).toEqual([line]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
