import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('committed migrations', () => {
  const copy = mkdtempSync(join(tmpdir(), 'baton-sessions-migrations-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('match src/schema.ts (drizzle-kit finds nothing to generate)', () => {
    cpSync(join(packageDir, 'drizzle'), copy, { recursive: true });
    const before = readdirSync(copy, { recursive: true }).sort();
    const output = execFileSync(
      join(packageDir, 'node_modules', '.bin', 'drizzle-kit'),
      // drizzle-kit treats --out as relative to the working directory.
      [
        'generate',
        '--dialect',
        'postgresql',
        '--schema',
        './src/schema.ts',
        '--out',
        relative(packageDir, copy),
      ],
      { cwd: packageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(output).toContain('No schema changes');
    expect(readdirSync(copy, { recursive: true }).sort()).toEqual(before);
  }, 60_000);
});

describe('upgrading a store made by an older version in place', () => {
  it('adds the one-open-head index over existing lineages, including one that already holds two open heads', async () => {
    const { createSessionStore } = await import('./index.js');
    const { migrateDatabase, rowsOf } = await import('./migrate-database.js');
    const { sql } = await import('drizzle-orm');
    // The first migration only, as a store created before the index existed has it.
    const older = mkdtempSync(join(tmpdir(), 'baton-sessions-older-'));
    try {
      cpSync(join(packageDir, 'drizzle'), older, { recursive: true });
      const journalPath = join(older, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] };
      expect(journal.entries.length).toBeGreaterThan(1);
      journal.entries = journal.entries.slice(0, 1);
      writeFileSync(journalPath, JSON.stringify(journal));

      const store = await createSessionStore({ migrate: false });
      try {
        await migrateDatabase(store.db, older);
        // Lineage a: a compacted root and its open child. Lineage b: the two-heads state an older
        // version could leave (a compaction child and a fork of the root both open).
        await store.db.execute(sql`
          insert into baton_sessions (id, parent_id, root_id, origin, ended_at, end_reason) values
            ('a', null, 'a', 'root', now(), 'compaction'),
            ('a1', 'a', 'a', 'compaction', null, null),
            ('b', null, 'b', 'root', now(), 'compaction'),
            ('b1', 'b', 'b', 'compaction', null, null),
            ('b2', 'b', 'b', 'fork', null, null)`);
        await store.db.execute(sql`
          insert into baton_messages (session_id, sequence, role, message) values
            ('a1', 0, 'user', '{"role":"user","content":"kept"}')`);

        await store.migrate();
        await store.migrate(); // idempotent

        // Lineage a continues its line: compacting a1 leaves one open head, and a second is refused.
        const { child } = await store.recordCompaction('a1', {
          messages: [{ role: 'user', content: 'summary' }],
          strategy: 'summarize',
          summary: 'summary',
          usedFallback: false,
          tokensBefore: 10,
          tokensAfter: 5,
        });
        expect((await store.listSessions({ rootId: 'a' })).map((s) => s.id)).toEqual([child.id]);
        const keys = rowsOf(
          await store.db.execute(
            sql`select id, head_key from baton_sessions where root_id = 'a' order by id`,
          ),
        );
        expect(keys.find((row) => row.id === child.id)?.head_key).toBe('a');
        const rogue = await store.db
          .execute(
            sql`insert into baton_sessions (id, root_id, origin, head_key) values ('a-rogue', 'a', 'fork', 'a')`,
          )
          .then(
            () => 'accepted',
            () => 'refused',
          );
        expect(rogue).toBe('refused');
        // Lineage b keeps both sessions (nothing is lost or ended behind the user's back).
        expect((await store.listSessions({ rootId: 'b' })).map((s) => s.id).sort()).toEqual([
          'b1',
          'b2',
        ]);
        expect((await store.getMessages('a1')).map((row) => row.message)).toEqual([
          { role: 'user', content: 'kept' },
        ]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(older, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('upgrading a store made before recall in place', () => {
  it('indexes existing messages by the same rule as new ones, and recall finds them', async () => {
    const { createSessionStore } = await import('./index.js');
    const { migrateDatabase, rowsOf } = await import('./migrate-database.js');
    const { messageSearchText } = await import('./message-search-text.js');
    const { loadTranscripts } = await import('@baton/test-corpus');
    const { sql } = await import('drizzle-orm');
    const older = mkdtempSync(join(tmpdir(), 'baton-sessions-older-'));
    try {
      cpSync(join(packageDir, 'drizzle'), older, { recursive: true });
      const journalPath = join(older, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
        entries: { tag: string }[];
      };
      journal.entries = journal.entries.filter((entry) => entry.tag < '0002');
      writeFileSync(journalPath, JSON.stringify(journal));

      // Messages of every shape the corpus holds (one turn of each role and part type per
      // transcript), plus hostile ones: NUL and lone surrogates escaped in the JSON, non-object parts.
      const seen = new Set<string>();
      const samples: Record<string, unknown>[] = [];
      for (const transcript of loadTranscripts()) {
        for (const message of transcript.messages) {
          const shape = `${message.role}:${
            Array.isArray(message.content)
              ? (message.content as { type?: string }[]).map((part) => part?.type).join(',')
              : typeof message.content
          }`;
          if (seen.has(shape)) continue;
          seen.add(shape);
          samples.push(message);
        }
      }
      const word = `w${crypto.randomUUID().slice(0, 8)}`;
      samples.push(
        { role: 'user', content: `nul\u0000 and \ud800 lone ${word}` },
        { role: 'assistant', content: [7, null, 'x', { type: 'text', text: `part ${word}` }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c',
              toolName: 'grep',
              output: { type: 'json', value: { hits: [word] } },
            },
          ],
        },
      );

      const store = await createSessionStore({ migrate: false });
      try {
        await migrateDatabase(store.db, older);
        await store.db.execute(
          sql`insert into baton_sessions (id, root_id, origin, head_key) values ('old', 'old', 'root', 'old')`,
        );
        for (const [sequence, message] of samples.entries()) {
          await store.db.execute(sql`
            insert into baton_messages (session_id, sequence, role, message)
            values ('old', ${sequence}, ${String(message.role)}, ${JSON.stringify(message)}::json)`);
        }
        await store.migrate();
        const rows = rowsOf(
          await store.db.execute(
            sql`select sequence, search_text from baton_messages where session_id = 'old' order by sequence`,
          ),
        );
        expect(rows).toHaveLength(samples.length);
        for (const row of rows) {
          const message = samples[Number(row.sequence)]!;
          if (message.content === `nul\u0000 and \ud800 lone ${word}`) {
            // JSON functions cannot read it as text: indexed on the JSON text, still searchable.
            expect(String(row.search_text)).toContain(word);
            continue;
          }
          expect(row.search_text, JSON.stringify(message).slice(0, 200)).toBe(
            messageSearchText(message as never),
          );
        }
        const { matches } = await store.recall('old', { query: word });
        expect(matches.map((match) => match.sequence).sort((a, b) => a - b)).toEqual([
          samples.length - 3,
          samples.length - 2,
          samples.length - 1,
        ]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(older, { recursive: true, force: true });
    }
  }, 60_000);
});
