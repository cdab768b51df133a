import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printableText } from './printable-text.js';
import { runBuiltCli } from './test-utils/run-built-cli.js';

/**
 * Found by an outside attack: a Claude Code tool_result whose call is missing was dropped with a
 * warning quoting the raw `tool_use_id`, so a credential pasted into an id reached the `compact`
 * report and `--json`; and printableText's whitespace pattern was quadratic on a run of spaces
 * without a line break (64 KB took ~9 s CPU).
 */
const folder = mkdtempSync(join(tmpdir(), 'baton-attack-warn-'));
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function claudeCodeWithOrphanResult(id: string): string {
  const lines = [
    { type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: 'fix it' } },
    {
      type: 'user',
      uuid: 'u2',
      sessionId: 's',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: 'out' }],
      },
    },
    {
      type: 'assistant',
      uuid: 'a1',
      sessionId: 's',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    },
  ];
  return lines.map((line) => JSON.stringify(line)).join('\n');
}

describe('Claude Code orphan tool_result warning', () => {
  it('never prints a credential-shaped tool_use_id (report and --json)', async () => {
    const secrets = fc.sample(
      fc
        .string({ unit: fc.constantFrom(...alnum), minLength: 36, maxLength: 36 })
        .map((s) => `ghp_${s}`),
      { numRuns: 5 },
    );
    let leaked = 0;
    for (const [index, secret] of secrets.entries()) {
      const file = join(folder, `leak-${index}.jsonl`);
      writeFileSync(file, claudeCodeWithOrphanResult(secret));
      for (const extra of [[], ['--json']]) {
        const run = await runBuiltCli(['compact', file, '--window', '32k', ...extra]);
        if (`${run.stdout}${run.stderr}`.includes(secret)) leaked++;
      }
    }
    expect(leaked, `${leaked} of ${secrets.length * 2} runs printed the secret id`).toBe(0);
  }, 120_000);

  it('printableText is linear on a long whitespace run (16 KB vs 64 KB)', () => {
    const cpu = (n: number) => {
      const text = `a${' '.repeat(n)}b`;
      const start = process.cpuUsage();
      printableText(text);
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
    cpu(1000);
    const small = cpu(16_000);
    const large = cpu(64_000);
    // Linear: about 4x. Quadratic: about 16x (measured 578 ms vs 8,781 ms).
    expect(large, `16 KB ${small} ms, 64 KB ${large} ms`).toBeLessThan(Math.max(8 * small, 200));
  }, 60_000);
});
