import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

/**
 * Found by an outside attack: An unknown `--model` is withheld in the warning ("a 40-character value
 * (not shown)"), but the same value is printed verbatim in the report's header line and in the
 * `--json` `model` field, for `count` and for `compact --window`: a key pasted into --model
 * reaches stdout.
 */
const folder = mkdtempSync(join(tmpdir(), 'baton-attack-model-'));
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

describe('unknown --model value', () => {
  it('is never printed, in any output', async () => {
    const file = join(folder, 'ok.json');
    writeFileSync(file, JSON.stringify([{ role: 'user', content: 'hi' }]));
    const secrets = fc.sample(
      fc.oneof(
        fc
          .string({ unit: fc.constantFrom(...alnum), minLength: 36, maxLength: 36 })
          .map((s) => `ghp_${s}`),
        fc
          .string({ unit: fc.constantFrom(...alnum), minLength: 48, maxLength: 48 })
          .map((s) => `sk-proj-${s}`),
      ),
      { numRuns: 2 },
    );
    let runs = 0;
    let leaked = 0;
    for (const secret of secrets) {
      for (const args of [
        ['count', file, '--model', secret],
        ['count', file, '--model', secret, '--json'],
        ['compact', file, '--model', secret, '--window', '32k'],
        ['compact', file, '--model', secret, '--window', '32k', '--json'],
      ]) {
        const run = await runBuiltCli(args);
        runs++;
        if (`${run.stdout}${run.stderr}`.includes(secret)) leaked++;
      }
    }
    expect(leaked, `${leaked} of ${runs} runs printed the --model value`).toBe(0);
  }, 120_000);
});
