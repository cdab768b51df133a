import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionStore } from '@baton/sessions';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

describe('baton recall (built binary)', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'baton-recall-')), 'store');
  const code = `E${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const errorLine = `npm ERR! code ${code} while resolving src/auth/session.ts`;
  const secret = `ghp_${crypto.randomUUID().replaceAll('-', '')}abcd`;
  const ids = { root: '', child: '', other: '' };

  beforeAll(async () => {
    const store = await createSessionStore({ dataDir });
    try {
      const root = await store.createSession({ title: 'install' });
      const history = [
        { role: 'user' as const, content: 'Install the dependencies.' },
        {
          role: 'assistant' as const,
          content: [
            {
              type: 'tool-call' as const,
              toolCallId: 'c1',
              toolName: 'bash',
              input: { cmd: 'npm i' },
            },
          ],
        },
        {
          role: 'tool' as const,
          content: [
            {
              type: 'tool-result' as const,
              toolCallId: 'c1',
              toolName: 'bash',
              output: {
                type: 'text' as const,
                value: `added 3 packages\n${errorLine}\x1b[31m\ntoken ${secret}`,
              },
            },
          ],
        },
        { role: 'user' as const, content: 'Go on.' },
      ];
      await store.appendMessages(root.id, history);
      const { child } = await store.recordCompaction(root.id, {
        messages: [history[0]!, { role: 'user', content: 'Summary.' }, history[3]!],
        summary: 'Summary.',
        strategy: 'receipt',
        usedFallback: true,
        tokensBefore: 100,
        tokensAfter: 20,
        event: { removedMessageIndexes: [1, 2] },
      });
      const other = await store.createSession();
      await store.appendMessages(other.id, [{ role: 'user', content: errorLine }]);
      ids.root = root.id;
      ids.child = child.id;
      ids.other = other.id;
    } finally {
      await store.close();
    }
  }, 60_000);

  it('finds a removed tool output from the compacted child, redacted and printable, without changing the store', async () => {
    const snapshot = () =>
      Object.fromEntries(
        (readdirSync(dataDir, { recursive: true }) as string[])
          .map((entry) => join(dataDir, entry))
          .filter((path) => statSync(path).isFile())
          .map((path) => [path, createHash('sha256').update(readFileSync(path)).digest('hex')]),
      );
    const before = snapshot();
    const run = await runBuiltCli(['recall', dataDir, ids.child, code.toLowerCase()]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `1 match in the lineage of ${ids.child} (2 sessions searched, best first)`,
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^1\\. session ${ids.root}, sequence 2, tool, tool bash, exact match, characters \\d+-\\d+ of \\d+$`,
      ),
    );
    expect(lines[2]).toContain(errorLine);
    expect(run.stdout).not.toContain(secret);
    expect(run.stdout).not.toContain('\x1b');
    expect(snapshot()).toEqual(before);
  });

  it('--json gives the matches with their positions; a unique id prefix works', async () => {
    const run = await runBuiltCli(['recall', '--json', dataDir, ids.child.slice(0, 12), errorLine]);
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout) as {
      sessionId: string;
      searchedSessionIds: string[];
      matches: {
        sessionId: string;
        sequence: number;
        role: string;
        toolName: string;
        excerpt: string;
      }[];
    };
    expect(output.sessionId).toBe(ids.child);
    expect(output.searchedSessionIds).toEqual([ids.root, ids.child]);
    expect(output.matches).toHaveLength(1);
    expect(output.matches[0]).toMatchObject({
      sessionId: ids.root,
      sequence: 2,
      role: 'tool',
      toolName: 'bash',
    });
    expect(output.matches[0]!.excerpt).toContain(errorLine);
    expect(run.stdout).not.toContain(secret);
  });

  it('bad input exits 2 with one line that does not repeat the query', async () => {
    const cases: [string[], RegExp][] = [
      [['recall', dataDir, ids.child, '   '], /recall query is blank/],
      [['recall', dataDir, ids.child, `${secret}${'x'.repeat(1_000)}`], /at most 1000/],
      [['recall', dataDir, `missing-${code}`, 'x'], /no session has the id given/],
      [['recall', dataDir, ids.child], /expected <dataDir> <session> <query>/],
      [['recall', dataDir, ids.child, 'x', '--limit', '0'], /--limit/],
      [['recall', join(dataDir, 'nope'), ids.child, 'x'], /no such directory/],
    ];
    for (const [args, expected] of cases) {
      const run = await runBuiltCli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(expected);
      expect(run.stderr).not.toContain(secret);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('--help documents the command', async () => {
    const run = await runBuiltCli(['recall', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: baton recall <dataDir> <session> <query>/);
    expect((await runBuiltCli(['--help'])).stdout).toContain('recall <dataDir> <session> <query>');
  });
});
