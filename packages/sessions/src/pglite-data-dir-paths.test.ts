import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { BatonError } from '@baton/tokens';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionStore, dataDirLockName, StoreConnectionError } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'baton-sessions-dir-paths-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * How a user may spell the folder of an on-disk store: through a symlink (a data volume mounted
 * elsewhere, `~/.baton -> /mnt/data/baton`), a chain of them, relative to the working directory,
 * with `file://`, with a trailing slash. Before the fix a symlink as the last component made PGlite
 * throw a bare `ErrnoError` (no message, not a `BatonError`) on every open.
 */
const spelling = fc.record({
  links: fc.integer({ min: 0, max: 3 }),
  scheme: fc.boolean(),
  relative: fc.boolean(),
  trailingSlash: fc.boolean(),
  name: fc.constantFrom('data', 'with space', 'ünïcødé', 'dot.dir'),
});

/** The error an open fails with, or undefined when it opened (the store is closed again). */
async function openFailure(dataDir: string): Promise<unknown> {
  return createSessionStore({ dataDir }).then(
    async (store) => {
      await store.close();
      return undefined;
    },
    (error: unknown) => error,
  );
}

type Spelling = typeof spelling extends fc.Arbitrary<infer T> ? T : never;

let counter = 0;

function spell(how: Spelling) {
  const base = join(root, `case-${counter++}`);
  mkdirSync(base);
  const real = join(base, how.name);
  mkdirSync(real);
  let path = real;
  for (let level = 0; level < how.links; level++) {
    const link = join(base, `link-${level}`);
    symlinkSync(path, link);
    path = link;
  }
  let given = how.relative ? relative(process.cwd(), path) : path;
  if (how.trailingSlash) given += '/';
  // A `file://` spelling of a relative path is not a URL PGlite reads: only absolute ones get it.
  if (how.scheme && !how.relative) given = `file://${given}`;
  return { given, real };
}

describe('PGlite dataDir spellings', () => {
  it('opens through symlinks, relative paths and file:// alike, and every spelling is one folder', async () => {
    let premise = 0;
    await fc.assert(
      fc.asyncProperty(spelling, async (how) => {
        if (how.links > 0) premise++;
        const { given, real } = spell(how);
        const store = await createSessionStore({ dataDir: given });
        try {
          const session = await store.createSession({ title: 'kept' });
          await store.appendMessages(session.id, [{ role: 'user', content: 'hello' }]);
          // The same folder by its real path is the same folder: refused while open.
          const second = await openFailure(real);
          expect(StoreConnectionError.isInstance(second), String(second)).toBe(true);
        } finally {
          await store.close();
        }
        // Reopened by the real path, the session written through the given spelling is there.
        const reopened = await createSessionStore({ dataDir: real });
        try {
          const sessions = await reopened.listSessions({ includeEnded: true });
          expect(sessions.map((session) => session.title)).toEqual(['kept']);
          expect(await reopened.getMessages(sessions[0]?.id ?? '')).toHaveLength(1);
        } finally {
          await reopened.close();
        }
      }),
      { numRuns: 6, endOnFailure: true },
    );
    expect(premise, 'no run went through a symlink').toBeGreaterThan(0);
  }, 300_000);

  it('a symlink as the last component opens (control: its real folder opens too)', async () => {
    const real = join(root, 'plain-real');
    const link = join(root, 'plain-link');
    mkdirSync(real);
    symlinkSync(real, link);
    for (const dataDir of [real, link]) {
      const store = await createSessionStore({ dataDir });
      await store.close();
    }
  }, 120_000);

  it('a symlink swapped while the store is open: close frees the folder that was opened', async () => {
    const first = join(root, 'swap-a');
    const second = join(root, 'swap-b');
    const link = join(root, 'swap-link');
    mkdirSync(first);
    mkdirSync(second);
    symlinkSync(first, link);
    const store = await createSessionStore({ dataDir: link });
    // The link now names another folder: that one is free, the opened one is not.
    rmSync(link);
    symlinkSync(second, link);
    expect(await openFailure(link)).toBeUndefined();
    expect(StoreConnectionError.isInstance(await openFailure(first))).toBe(true);
    await store.close();
    expect(existsSync(join(first, dataDirLockName)), 'lock left behind').toBe(false);
    expect(await openFailure(first)).toBeUndefined();
  }, 120_000);

  it('a folder PGlite cannot use fails with a typed store error, not a raw one', async () => {
    const damaged = join(root, 'damaged');
    mkdirSync(damaged);
    // A Postgres version marker that is no version: PGlite refuses to start on it.
    writeFileSync(join(damaged, 'PG_VERSION'), `not-a-version-${Math.random()}\n`);
    const outcome = await openFailure(damaged);
    expect(BatonError.isInstance(outcome), String(outcome)).toBe(true);
    expect(StoreConnectionError.isInstance(outcome)).toBe(true);
    expect((outcome as Error).message).toContain(damaged);
    // The lock was released: once the folder is emptied, it opens.
    rmSync(join(damaged, 'PG_VERSION'));
    const store = await createSessionStore({ dataDir: damaged });
    await store.close();
  }, 120_000);
});
