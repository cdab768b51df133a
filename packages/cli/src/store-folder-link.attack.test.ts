import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createSessionStore } from '@baton/sessions';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES, runCli } from './index.js';
import { captureStream } from './test-utils/capture-stream.js';

/**
 * Attack (outside session, store commands): `sessions`, `lineage` and `recall` open a copy of the
 * store so the user's folder keeps every byte. The copy was made with `fs.cp`, which copies a
 * symbolic link as a link: a data folder given through a link (a volume mounted elsewhere, which
 * `@baton/sessions` supports) made the "copy" a link to the store itself, so PGlite opened, wrote to
 * and migrated the user's store. A link inside the folder led out of the copy the same way, and a
 * FIFO inside made the command fail with Node's raw `cp` error.
 */

/** Every entry under `folder` (links not followed): its kind, size, modification time and bytes. */
function snapshot(folder: string): string[] {
  const rows: string[] = [];
  const walk = (path: string) => {
    const entry = lstatSync(path);
    const name = relative(folder, path);
    if (entry.isDirectory()) {
      rows.push(`${name}/ ${entry.mtimeMs}`);
      for (const child of readdirSync(path).sort()) walk(join(path, child));
    } else if (entry.isFile()) {
      const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
      rows.push(`${name} ${entry.size} ${entry.mtimeMs} ${digest}`);
    } else {
      rows.push(`${name} (${entry.isSymbolicLink() ? 'link' : 'other'}) ${entry.mtimeMs}`);
    }
  };
  walk(folder);
  return rows;
}

const commands = [
  ['sessions'],
  ['sessions', '--json'],
  ['lineage', 'ID'],
  ['lineage', 'ID', '--json'],
  ['recall', 'ID', 'parser'],
] as const;

/** How the folder reaches the command. */
const givenAs = ['folder', 'link', 'link to a link', 'relative link'] as const;
/** What the folder holds besides PGlite's own files. */
const extras = ['nothing', 'a link to an outside file', 'a FIFO', 'a link to itself'] as const;

describe('a store folder given through links, or holding links or a FIFO', () => {
  const root = mkdtempSync(join(tmpdir(), 'baton-attack-store-link-'));
  const outside = join(root, 'outside.txt');
  const folders = new Map<(typeof extras)[number], string>();
  let sessionId = '';

  beforeAll(async () => {
    writeFileSync(outside, 'not part of the store\n');
    const plain = join(root, 'store-nothing');
    const store = await createSessionStore({ dataDir: plain });
    const session = await store.createSession({ title: 'link attack' });
    sessionId = session.id;
    await store.appendMessages(session.id, [{ role: 'user', content: 'Fix the parser test.' }]);
    await store.close();
    folders.set('nothing', plain);
    for (const extra of extras.slice(1)) {
      const folder = join(root, `store-${extra.replaceAll(' ', '-')}`);
      execFileSync('cp', ['-a', plain, folder]);
      const at = join(folder, 'pg_stat', 'extra');
      if (extra === 'a link to an outside file') symlinkSync(outside, at);
      if (extra === 'a FIFO') execFileSync('mkfifo', [at]);
      if (extra === 'a link to itself') symlinkSync('extra', at);
      folders.set(extra, folder);
    }
  }, 120_000);

  // Each store is ~40 MB: leave none behind.
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is read from a copy: the store and what its links reach keep every byte (property)', async () => {
    let linked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(fc.constantFrom(...commands)),
        fc.noBias(fc.constantFrom(...givenAs)),
        fc.noBias(fc.constantFrom(...extras)),
        async (command, given, extra) => {
          const folder = folders.get(extra) as string;
          const entry = join(mkdtempSync(join(root, 'given-')), 'store');
          // `cp -a`: Node's `cpSync` aborts the process on a link to itself (std::filesystem_error).
          if (given === 'folder') execFileSync('cp', ['-a', folder, entry]);
          if (given === 'link') symlinkSync(folder, entry);
          if (given === 'relative link') symlinkSync(relative(join(entry, '..'), folder), entry);
          if (given === 'link to a link') {
            symlinkSync(folder, `${entry}-first`);
            symlinkSync(`${entry}-first`, entry);
          }
          // The folder the command really reads: the copy made for 'folder', else the linked one.
          const real = given === 'folder' ? entry : folder;
          if (given !== 'folder') {
            expect(lstatSync(entry).isSymbolicLink()).toBe(true);
            linked++;
          }
          const before = [...snapshot(real), ...snapshot(outside)];
          const stdout = captureStream();
          const stderr = captureStream();
          const args = command.map((part) => (part === 'ID' ? sessionId.slice(0, 8) : part));
          const code = await runCli([args[0] as string, entry, ...args.slice(1)], {
            stdout,
            stderr,
            env: {},
          });
          const label = `${args.join(' ')} on a ${given} holding ${extra}`;
          expect(code, `${label}: ${stderr.text}`).toBe(EXIT_CODES.ok);
          expect(stdout.text, label).toContain(sessionId.slice(0, 8));
          expect([...snapshot(real), ...snapshot(outside)], label).toEqual(before);
        },
      ),
      { numRuns: 10, endOnFailure: true },
    );
    // Premise: most cases go through a link.
    expect(linked).toBeGreaterThan(0);
  }, 300_000);

  it('a folder inside the store that loops back to it is not followed (control: the store still reads)', async () => {
    const folder = folders.get('nothing') as string;
    const looped = join(root, 'store-looped');
    execFileSync('cp', ['-a', folder, looped]);
    mkdirSync(join(looped, 'pg_stat', 'deeper'));
    symlinkSync(looped, join(looped, 'pg_stat', 'deeper', 'back'));
    const before = snapshot(looped);
    const stdout = captureStream();
    const stderr = captureStream();
    const code = await runCli(['sessions', looped, '--json'], { stdout, stderr, env: {} });
    expect(code, stderr.text).toBe(EXIT_CODES.ok);
    expect(stdout.text).toContain(sessionId);
    expect(snapshot(looped)).toEqual(before);
  }, 120_000);
});
