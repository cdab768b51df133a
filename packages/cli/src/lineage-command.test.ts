import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionStore } from '@baton/sessions';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

describe('baton lineage (built binary)', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'baton-lineage-')), 'store');
  const ids = { root: '', child: '', grandchild: '', fork: '', other: '' };

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
      // A fork of the compacted child: an edited history that diverged (still open).
      const fork = await store.fork(first.child.id, { title: 'edited ask' });
      // Another conversation in the same store.
      const other = await store.createSession({ model: 'claude-sonnet-4-5', title: 'other' });
      await store.appendMessages(other.id, [{ role: 'user', content: 'Hello.' }]);
      ids.root = root.id;
      ids.child = first.child.id;
      ids.grandchild = second.child.id;
      ids.fork = fork.id;
      ids.other = other.id;
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

  it('prints the whole tree around any id: from the root, descendants, forks and the open leaf', async () => {
    for (const asked of [ids.root, ids.child, ids.grandchild, ids.fork]) {
      const { code, stdout, stderr } = await runBuiltCli(['lineage', dataDir, asked]);
      expect(stderr).toBe('');
      expect(code, stderr).toBe(0);
      const lines = stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(
        `lineage of ${asked}: 4 sessions from root ${ids.root}, 2 open leaves (>> marks the session asked for, * the open leaf)`,
      );
      const line = (id: string) => lines.slice(1).find((text) => text.includes(id)) ?? '';
      // Every session of the lineage is there, whichever id was asked for; the other conversation is not.
      for (const id of [ids.root, ids.child, ids.grandchild, ids.fork])
        expect(line(id)).not.toBe('');
      expect(stdout).not.toContain(ids.other);
      expect(line(asked)).toContain(`>> ${asked}`);
      expect(lines.slice(1).filter((text) => text.includes('>> '))).toHaveLength(1);
      expect(line(ids.root)).toMatch(
        /^(?:>> )?\S+ {2}root, 3 messages, model gpt-4o, "checkout fix", .*ended: compaction$/,
      );
      expect(lines[lines.indexOf(line(ids.root)) + 1]).toBe(
        '│  compacted 4,200 -> 900 tokens by receipt (mask -> receipt), fallback: no summarizer configured, 2 removed, 0 masked',
      );
      expect(line(ids.child)).toMatch(
        /^└─ (?:>> )?\S+ {2}compaction, 1 message, .*ended: compaction$/,
      );
      expect(line(ids.grandchild)).toMatch(
        /^ {3}[├└]─ (?:>> )?\S+ {2}compaction, 1 message, .*\* OPEN LEAF$/,
      );
      expect(line(ids.fork)).toMatch(
        /^ {3}[├└]─ (?:>> )?\S+ {2}FORK, 1 message, .*"edited ask", .*\* OPEN LEAF$/,
      );
    }
  });

  it('accepts a unique id prefix and refuses an ambiguous or too short one', async () => {
    const prefix = ids.grandchild.slice(0, 8);
    const ambiguous = [ids.root, ids.child, ids.grandchild, ids.fork].filter((id) =>
      id.startsWith(prefix),
    );
    if (ambiguous.length === 1) {
      const run = await runBuiltCli(['lineage', dataDir, prefix]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`>> ${ids.grandchild}`);
    }
    const short = await runBuiltCli(['lineage', dataDir, ids.root.slice(0, 2)]);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/a prefix needs 4 characters or more/);
    const none = await runBuiltCli(['lineage', dataDir, 'zzzzzzzz']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      `baton: ${dataDir}: no session has the id given or starts with it (a 8-character value (not shown))\n`,
    );
  });

  it('prints the tree as JSON with --json', async () => {
    const { code, stdout, stderr } = await runBuiltCli(['lineage', dataDir, ids.child, '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ id: ids.child, rootId: ids.root, chain: [ids.root, ids.child] });
    const byId = Object.fromEntries(
      report.sessions.map((session: { id: string }) => [session.id, session]),
    );
    expect(Object.keys(byId).sort()).toEqual(
      [ids.root, ids.child, ids.grandchild, ids.fork].sort(),
    );
    expect(byId[ids.root]).toMatchObject({
      depth: 0,
      ancestor: true,
      asked: false,
      children: [ids.child],
      compaction: { strategy: 'receipt', tokensBefore: 4_200, tokensAfter: 900 },
    });
    expect(byId[ids.child]).toMatchObject({ depth: 1, asked: true, openLeaf: false });
    expect(byId[ids.child].children.sort()).toEqual([ids.grandchild, ids.fork].sort());
    expect(byId[ids.child].compaction).toMatchObject({ strategy: 'truncate' });
    expect(byId[ids.fork]).toMatchObject({ depth: 2, fork: true, openLeaf: true });
    expect(byId[ids.grandchild]).toMatchObject({ depth: 2, fork: false, openLeaf: true });
  });

  it('lists the conversations with baton sessions, and as JSON', async () => {
    const json = await runBuiltCli(['sessions', dataDir, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const { conversations } = JSON.parse(json.stdout);
    expect(conversations).toHaveLength(2);
    const checkout = conversations.find((row: { rootId: string }) => row.rootId === ids.root);
    expect(checkout).toMatchObject({
      title: 'edited ask',
      model: 'gpt-4o',
      sessions: 4,
      compactions: 2,
      forks: 1,
    });
    expect(checkout.messages).toBe(3 + 1 + 1 + 1);
    expect(checkout.openLeaves.sort()).toEqual([ids.grandchild, ids.fork].sort());
    expect(conversations.find((row: { rootId: string }) => row.rootId === ids.other)).toMatchObject(
      { title: 'other', model: 'claude-sonnet-4-5', messages: 1, compactions: 0, forks: 0 },
    );
    const plain = await runBuiltCli(['sessions', dataDir]);
    expect(plain.code, plain.stderr).toBe(0);
    const lines = plain.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^root id +title +model +messages +compactions +forks +last activity$/,
    );
    expect(lines).toHaveLength(4);
    expect(plain.stdout).toMatch(
      new RegExp(`^${ids.root} +edited ask +gpt-4o +6 +2 +1 +\\d{4}-`, 'm'),
    );
  });

  it('reads a store that a running process holds open (its lock is not copied with it)', async () => {
    // The store's own lock names this test process, which is alive: a copy that kept it would be
    // refused as a folder in use.
    const live = await createSessionStore({ dataDir });
    try {
      const listed = await runBuiltCli(['sessions', dataDir, '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).conversations).toHaveLength(2);
      const tree = await runBuiltCli(['lineage', dataDir, ids.root]);
      expect(tree.code, tree.stderr).toBe(0);
      expect(tree.stdout).toContain(ids.grandchild);
    } finally {
      await live.close();
    }
  });

  it('exits 2 for an unknown id, a missing folder or a folder that is not a store, creating nothing', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'baton-file-')), 'session.json');
    writeFileSync(file, '[]');
    for (const command of [
      ['lineage', file, 'x'],
      ['sessions', file],
    ]) {
      const run = await runBuiltCli(command);
      expect(run).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `baton: ${file}: not a directory (expected the data folder of a @baton/sessions PGlite store)\n`,
      });
    }

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
