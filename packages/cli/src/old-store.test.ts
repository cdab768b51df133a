import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createSessionStore } from '@baton/sessions';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

// Attack (issue 16 lineage/sessions + issue 17 item 5 migration 0001_open_head): a PGlite store made
// by the previous release (only migration 0000: no head_key column). The CLI opens a copy with
// `migrate: false` ("an old store is read as it is"), but the new schema selects head_key, so
// `baton sessions` and `baton lineage` cannot read any store created before this release.
const sessionsPackage = dirname(
  createRequire(import.meta.url).resolve('@baton/sessions/package.json'),
);

async function oldStore(): Promise<string> {
  const older = mkdtempSync(join(tmpdir(), 'baton-attack-old-migrations-'));
  cpSync(join(sessionsPackage, 'drizzle'), older, { recursive: true });
  const journalPath = join(older, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  const dataDir = join(mkdtempSync(join(tmpdir(), 'baton-attack-old-store-')), 'store');
  const store = await createSessionStore({ dataDir, migrate: false });
  try {
    const { migrateDatabase } = (await import(
      join(sessionsPackage, 'dist', 'migrate-database.js')
    )) as { migrateDatabase: (db: unknown, folder: string) => Promise<void> };
    await migrateDatabase(store.db, older);
    await (
      store.db as unknown as { $client: { exec(text: string): Promise<unknown> } }
    ).$client.exec(`
      insert into baton_sessions (id, parent_id, root_id, origin, ended_at, end_reason, title) values
        ('11111111-aaaa', null, '11111111-aaaa', 'root', now(), 'compaction', 'old conversation'),
        ('22222222-bbbb', '11111111-aaaa', '11111111-aaaa', 'compaction', null, null, 'old conversation')`);
  } finally {
    await store.close();
  }
  return dataDir;
}

describe('attack: the CLI on a store created by the previous release', () => {
  it('baton sessions <old store> lists the conversation', async () => {
    const dataDir = await oldStore();
    const run = await runBuiltCli(['sessions', dataDir]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('11111111');
  }, 120_000);

  it('baton lineage <old store> <prefix> shows the tree', async () => {
    const dataDir = await oldStore();
    const run = await runBuiltCli(['lineage', dataDir, '11111111']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('22222222');
  }, 120_000);

  it("leaves the user's store unmigrated: only the throw-away copy is upgraded", async () => {
    const dataDir = await oldStore();
    expect((await runBuiltCli(['sessions', dataDir])).code).toBe(0);
    expect(await hasHeadKey(dataDir)).toBe(false);
  }, 120_000);
});

async function client(dataDir: string) {
  const store = await createSessionStore({ dataDir, migrate: false });
  const raw = (store.db as unknown as { $client: { exec(text: string): Promise<unknown> } })
    .$client;
  return { store, raw };
}

async function hasHeadKey(dataDir: string): Promise<boolean> {
  const { store } = await client(dataDir);
  try {
    const result = (await (
      store.db as unknown as {
        $client: { query(text: string): Promise<{ rows: unknown[] }> };
      }
    ).$client.query(
      "select 1 from information_schema.columns where table_name = 'baton_sessions' and column_name = 'head_key'",
    )) as { rows: unknown[] };
    return result.rows.length > 0;
  } finally {
    await store.close();
  }
}

describe('a store the CLI cannot read', () => {
  // A damaged store: a column the schema reads is gone. The driver's error quotes the SQL and its
  // parameters (the id the user typed); the CLI prints one line of its own instead.
  async function damagedStore(): Promise<{ dataDir: string; id: string }> {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'baton-damaged-store-')), 'store');
    const store = await createSessionStore({ dataDir });
    const session = await store.createSession({ title: 'private title' });
    await store.close();
    const { store: again, raw } = await client(dataDir);
    try {
      await raw.exec('alter table baton_sessions rename column title to title_gone');
    } finally {
      await again.close();
    }
    return { dataDir, id: session.id };
  }

  for (const command of ['sessions', 'lineage'] as const) {
    it(`baton ${command} prints one line with no SQL, parameters or input values (exit 1)`, async () => {
      const { dataDir, id } = await damagedStore();
      const typed = `sk-proj-${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '')}`;
      const run = await runBuiltCli(
        command === 'sessions' ? ['sessions', dataDir] : ['lineage', dataDir, typed],
      );
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n').filter((line) => line !== '')).toHaveLength(1);
      expect(run.stderr).toMatch(/^baton: .*the session store could not be read/);
      // What the server refused with (undefined column), not the store's wrapping error code.
      expect(run.stderr).toContain('(SQLSTATE 42703)');
      expect(run.stderr).not.toMatch(/select|from\s+"?baton_|params|title_gone|private title/i);
      expect(run.stderr).not.toContain(typed.slice(8, 24));
      expect(run.stderr).not.toContain(id);
    }, 120_000);
  }
});
