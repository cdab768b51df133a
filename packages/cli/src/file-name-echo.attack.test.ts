import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from './index.js';
import { captureStream } from './test-utils/capture-stream.js';

// Attack on 9603768: a credential-shaped file name is redacted in error lines only. The same name
// is printed verbatim when the file reads: `count`'s header, `count --json`'s `file`, `compact`'s
// report header and `compact --json`'s `files[].file`.
const stream = captureStream;

const characters = (alphabet: string, length: number) =>
  fc
    .array(
      fc.noBias(fc.integer({ min: 0, max: alphabet.length - 1 })).map((at) => alphabet[at]!),
      { minLength: length, maxLength: length },
    )
    .map((picked) => picked.join(''));
const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const token = fc.oneof(
  characters(alphanumeric, 36).map((rest) => `ghp_${rest}`),
  characters(alphanumeric, 48).map((rest) => `sk-proj-${rest}`),
  characters('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16).map((rest) => `AKIA${rest}`),
);

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
});
