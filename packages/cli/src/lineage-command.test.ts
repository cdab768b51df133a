import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionStore } from '@baton/sessions';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

describe('baton lineage (built binary)', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'baton-lineage-')), 'store');
  const ids = { root: '', child: '', grandchild: '' };

  beforeAll(async () => {
    const store = await createSessionStore({ dataDir });
    try {
      const root = await store.createSession({ model: 'gpt-4o', title: 'checkout fix' });
      await store.appendMessages(root.id, [
        { role: 'user', content: 'Fix the rounding bug.' },
        { role: 'assistant', content: 'Looking.' },
        { role: 'user', content: 'Go on.' },
      ]);
      const first = await store.recordCompaction(root.id, {
        messages: [{ role: 'user', content: 'Go on.' }],
        summary: '[Baton handoff] earlier turns',
        strategy: 'receipt',
        usedFallback: true,
        fallbackReason: 'no summarizer configured',
        tokensBefore: 4_200,
        tokensAfter: 900,
        event: {
          stages: ['mask', 'receipt'],
          removedMessageIndexes: [0, 1],
          maskedMessageIndexes: [],
        },
      });
      const second = await store.recordCompaction(first.child.id, {
        messages: [{ role: 'user', content: 'Go on.' }],
        summary: undefined,
        strategy: 'truncate',
        usedFallback: false,
        tokensBefore: 1_000,
        tokensAfter: 500,
      });
      ids.root = root.id;
      ids.child = first.child.id;
      ids.grandchild = second.child.id;
    } finally {
      await store.close();
    }
  }, 60_000);

  it('never changes the store it inspects (not one byte, not one timestamp)', async () => {
    const snapshot = () =>
      Object.fromEntries(
        (readdirSync(dataDir, { recursive: true }) as string[])
          .map((entry) => join(dataDir, entry))
          .filter((path) => statSync(path).isFile())
          .map((path) => [
            path,
            `${statSync(path).mtimeMs} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`,
          ]),
      );
    const before = snapshot();
    const run = await runBuiltCli(['lineage', dataDir, ids.child]);
    expect(run.code, run.stderr).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it('prints the chain root..id with each compaction', async () => {
    const { code, stdout, stderr } = await runBuiltCli(['lineage', dataDir, ids.grandchild]);
    expect(stderr).toBe('');
    expect(code, stderr).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`lineage of ${ids.grandchild} (3 sessions, oldest first)`);
    expect(lines[1]).toMatch(
      new RegExp(
        `^1\\. ${ids.root}  root, 3 messages, model gpt-4o, "checkout fix", .*ended: compaction$`,
      ),
    );
    expect(lines[2]).toBe(
      '   -> compacted 4,200 -> 900 tokens by receipt (mask -> receipt), fallback: no summarizer configured, 2 removed, 0 masked',
    );
    expect(lines[3]).toMatch(new RegExp(`^2\\. ${ids.child}  compaction, 1 messages`));
    expect(lines[5]).toMatch(
      new RegExp(`^3\\. ${ids.grandchild}  compaction, 1 messages, .*, open$`),
    );
  });

  it('prints JSON with --json', async () => {
    const { code, stdout, stderr } = await runBuiltCli(['lineage', dataDir, ids.child, '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.sessions.map((session: { id: string }) => session.id)).toEqual([
      ids.root,
      ids.child,
    ]);
    expect(report.sessions[0].compaction).toMatchObject({
      strategy: 'receipt',
      tokensBefore: 4_200,
      tokensAfter: 900,
    });
    expect(report.sessions[1].compaction).toMatchObject({ strategy: 'truncate' });
  });

  it('exits 2 for an unknown id, a missing folder or a folder that is not a store, creating nothing', async () => {
    const unknown = await runBuiltCli(['lineage', dataDir, 'no-such-session']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`baton: ${dataDir}: no session 'no-such-session'\n`);

    const missing = join(tmpdir(), `baton-missing-${process.pid}`);
    const gone = await runBuiltCli(['lineage', missing, 'x']);
    expect(gone).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `baton: ${missing}: no such directory\n`,
    });

    const empty = mkdtempSync(join(tmpdir(), 'baton-empty-'));
    const notStore = await runBuiltCli(['lineage', empty, 'x']);
    expect(notStore).toMatchObject({
      code: 2,
      stderr: `baton: ${empty}: not a PGlite data directory\n`,
    });
    expect(readdirSync(empty)).toEqual([]);
  });
});
