import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import type * as promises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';

// After `readdir` lists a folder, `swapAfterListing` (when set) runs: the moment an attacker would
// replace a listed file with a link.
let swapAfterListing: ((folder: string) => void) | undefined;
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof promises>();
  return {
    ...actual,
    readdir: (async (...args: Parameters<typeof actual.readdir>) => {
      const listed = await actual.readdir(...args);
      swapAfterListing?.(String(args[0]));
      return listed;
    }) as typeof actual.readdir,
  };
});
const { copyRegularTree } = await import('./copy-regular-tree.js');

type Tree = { [name: string]: Tree | string | { link: string } };

const entryName = fc.noBias(fc.stringMatching(/^[a-z][a-z0-9_.]{0,7}$/));
const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.dictionary(
    entryName,
    fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.string({ maxLength: 40 }),
      fc.record({ link: fc.constantFrom('outside', 'outside-folder', 'missing') }),
      tie('tree'),
    ),
    { maxKeys: 5 },
  ),
})).tree;

function build(root: string, shape: Tree, outside: string): void {
  mkdirSync(root, { recursive: true });
  for (const [name, value] of Object.entries(shape)) {
    const path = join(root, name);
    if (typeof value === 'string') writeFileSync(path, value);
    else if ('link' in value && typeof value.link === 'string')
      symlinkSync(join(outside, value.link), path);
    else build(path, value as Tree, outside);
  }
}

/** What a copy should hold: folders and files only, links left out. */
function expected(shape: Tree): unknown {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(shape)) {
    if (typeof value === 'string') kept[name] = value;
    else if (!('link' in value && typeof value.link === 'string'))
      kept[name] = expected(value as Tree);
  }
  return kept;
}

/** A folder read back: names to contents; fails on anything but a folder or a regular file. */
function read(root: string): unknown {
  const found: Record<string, unknown> = {};
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    const entry = lstatSync(path);
    expect(entry.isDirectory() || entry.isFile()).toBe(true);
    found[name] = entry.isDirectory() ? read(path) : readFileSync(path, 'utf8');
  }
  return found;
}

let scratch: string | undefined;
afterEach(() => {
  swapAfterListing = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

function setUp(): { source: string; outside: string; copies: string } {
  scratch = mkdtempSync(join(tmpdir(), 'baton-copy-tree-'));
  const outside = join(scratch, 'outside-root');
  mkdirSync(join(outside, 'outside-folder'), { recursive: true });
  writeFileSync(join(outside, 'outside'), 'SECRET-OUTSIDE');
  writeFileSync(join(outside, 'outside-folder', 'inner'), 'SECRET-INNER');
  return { source: join(scratch, 'source'), outside, copies: join(scratch, 'copies') };
}

describe('copyRegularTree', () => {
  it('copies folders and regular files of a generated tree, and no link', async () => {
    const { source, outside, copies } = setUp();
    mkdirSync(copies);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(tree, async (shape) => {
        run++;
        const from = join(source, String(run));
        build(from, shape, outside);
        const to = join(copies, String(run));
        await copyRegularTree(from, to);
        expect(read(to)).toEqual(expected(shape));
      }),
      { numRuns: 60 },
    );
  });

  it('leaves out a file swapped for a link after its folder was listed', async () => {
    const { source, outside, copies } = setUp();
    mkdirSync(copies);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(entryName, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.constantFrom('outside', 'outside-folder'),
        async (names, pick, target) => {
          run++;
          const from = join(source, String(run));
          mkdirSync(from, { recursive: true });
          for (const name of names) writeFileSync(join(from, name), `content of ${name}`);
          const swapped = names[pick % names.length]!;
          swapAfterListing = (folder) => {
            if (folder !== from) return;
            unlinkSync(join(from, swapped));
            symlinkSync(join(outside, target), join(from, swapped));
          };
          const to = join(copies, String(run));
          await copyRegularTree(from, to);
          swapAfterListing = undefined;
          const copied = read(to) as Record<string, string>;
          // Premise: the swap happened, so the source now holds a link where a file was listed.
          expect(lstatSync(join(from, swapped)).isSymbolicLink()).toBe(true);
          expect(Object.keys(copied).sort()).toEqual(
            names.filter((name) => name !== swapped).sort(),
          );
          expect(JSON.stringify(copied)).not.toContain('SECRET');
        },
      ),
      { numRuns: 40 },
    );
  });

  it('leaves out a FIFO without blocking on it', async () => {
    const { source, copies } = setUp();
    mkdirSync(source, { recursive: true });
    mkdirSync(copies);
    writeFileSync(join(source, 'kept'), 'x');
    try {
      execFileSync('mkfifo', [join(source, 'pipe')]);
    } catch {
      return; // No mkfifo here (Windows): nothing to check.
    }
    await copyRegularTree(source, join(copies, 'one'));
    expect(read(join(copies, 'one'))).toEqual({ kept: 'x' });
  });
});
