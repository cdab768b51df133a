import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionStore } from '@baton/sessions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

/**
 * Found by an outside attack: `baton sessions` and `baton lineage` print a stored session title through
 * printableText only: no redactSecrets (unlike recall excerpts), so a title an app derived from a
 * user's first message ("deploy with ghp_…") is printed in the clear (table, --json, lineage).
 */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

describe('store titles in sessions/lineage output', () => {
  it('never prints a credential-shaped title', async () => {
    const [body] = fc.sample(
      fc.string({ unit: fc.constantFrom(...alnum), minLength: 36, maxLength: 36 }),
      1,
    );
    const secret = `ghp_${body}`;
    const dataDir = join(mkdtempSync(join(tmpdir(), 'baton-attack-title-')), 'store');
    const store = await createSessionStore({ dataDir });
    const root = await store.createSession({ model: 'gpt-4o', title: secret });
    await store.appendMessages(root.id, [{ role: 'user', content: 'hello' }]);
    await store.close();
    const runs = [
      await runBuiltCli(['sessions', dataDir]),
      await runBuiltCli(['sessions', dataDir, '--json']),
      await runBuiltCli(['lineage', dataDir, root.id]),
    ];
    const leaked = runs.filter((run) => `${run.stdout}${run.stderr}`.includes(secret)).length;
    expect(leaked, `${leaked} of ${runs.length} runs printed the secret title`).toBe(0);
  }, 120_000);
});
