import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

// Attack (issue 17 item 7, STANDARDS "error messages never echo a secret or a raw input value"):
// a secret pasted into a tool call id is printed verbatim by the validity line of the report and by
// --json, even in shapes the project's redactor knows (sk-proj-, github_pat_, glpat-, xoxb-).
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const random = (length: number) =>
  Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
const secrets = () => [
  `sk-proj-${random(48)}`,
  `github_pat_${random(22)}_${random(59)}`,
  `glpat-${random(20)}`,
  `xoxb-${random(12)}-${random(12)}-${random(24)}`,
  `AKIA${random(16).toUpperCase()}`,
];

describe('attack: secrets in tool call ids reach the report', () => {
  for (const secret of secrets()) {
    it(`never prints a ${secret.slice(0, 4)}… tool call id (report and --json)`, async () => {
      const folder = mkdtempSync(join(tmpdir(), 'baton-attack-validity-'));
      const file = join(folder, 't.json');
      writeFileSync(
        file,
        JSON.stringify([
          { role: 'user', content: 'hello' },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: secret,
                toolName: 'shell',
                output: { type: 'text', value: 'ok' },
              },
            ],
          },
        ]),
      );
      const report = await runBuiltCli(['compact', file]);
      const json = await runBuiltCli(['compact', file, '--json']);
      for (const run of [report, json]) {
        expect(run.stdout + run.stderr).not.toContain(secret.slice(6, 18));
      }
    });
  }
});
