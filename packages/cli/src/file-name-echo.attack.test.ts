import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, runCli } from './index.js';
import { captureStream } from './test-utils/capture-stream.js';
import { credentialToken } from './test-utils/credential-token.js';

// Attack on 9603768: a credential-shaped file name is redacted in error lines only. The same name
// is printed verbatim when the file reads: `count`'s header, `count --json`'s `file`, `compact`'s
// report header and `compact --json`'s `files[].file`.
const stream = captureStream;

const token = credentialToken;

describe('a credential-shaped name of a file that reads', () => {
  const folder = mkdtempSync(join(tmpdir(), 'baton-name-echo-'));
  const transcript = JSON.stringify([
    { role: 'user', content: 'fix it' },
    { role: 'assistant', content: 'done' },
    { role: 'user', content: 'next' },
  ]);

  it('is not echoed by count, count --json, compact, compact --json (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        token,
        fc.constantFrom(['count'], ['count', '--json'], ['compact'], ['compact', '--json']),
        async (secret, command) => {
          const file = join(folder, `${secret}.json`);
          writeFileSync(file, transcript);
          const extra =
            command[0] === 'compact' ? ['--target', '100000', '--out', join(folder, 'o.json')] : [];
          const stdout = stream();
          const stderr = stream();
          await runCli([...command, file, ...extra], { stdout, stderr, env: {} });
          expect(stdout.text + stderr.text, command.join(' ')).not.toContain(secret);
        },
      ),
      { numRuns: 40, endOnFailure: true },
    );
  });

  it('given to compact --out is not echoed in the `written` line (property)', async () => {
    const file = join(folder, 'in.json');
    writeFileSync(file, transcript);
    await fc.assert(
      fc.asyncProperty(token, fc.boolean(), async (secret, json) => {
        const stdout = stream();
        const stderr = stream();
        const out = join(folder, `${secret}.out.json`);
        const flags = json ? ['--json'] : [];
        await runCli(['compact', ...flags, file, '--target', '100000', '--out', out], {
          stdout,
          stderr,
          env: {},
        });
        expect(stdout.text + stderr.text).not.toContain(secret);
      }),
      { numRuns: 40, endOnFailure: true },
    );
  });

  it('is not echoed in a usage error line (two inputs of one name for one --out folder)', async () => {
    await fc.assert(
      fc.asyncProperty(token, async (secret) => {
        const first = join(folder, 'a');
        const second = join(folder, 'b');
        mkdirSync(first, { recursive: true });
        mkdirSync(second, { recursive: true });
        writeFileSync(join(first, `${secret}.json`), transcript);
        writeFileSync(join(second, `${secret}.json`), transcript);
        const stderr = stream();
        const code = await runCli(
          [
            'compact',
            join(first, `${secret}.json`),
            join(second, `${secret}.json`),
            '--target',
            '100000',
            '--out',
            join(folder, 'out'),
          ],
          { stdout: stream(), stderr, env: {} },
        );
        expect(code).toBe(EXIT_CODES.badInput);
        expect(stderr.text).not.toContain(secret);
      }),
      { numRuns: 40, endOnFailure: true },
    );
  });
});
