import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionStore } from '@baton/sessions';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES, runCli } from './index.js';
import { captureStream } from './test-utils/capture-stream.js';
import { credentialToken } from './test-utils/credential-token.js';

/**
 * Attack (outside session, hostile names): error lines print a name through `shownFileName` and
 * `printableText`, but successful output did not. `sessions` (its footer and `--json`), `lineage
 * --json` and `recall --json` printed the data folder as typed, a credential in it included; and
 * `count`/`compact` headers and `sessions`' footer printed terminal control sequences and line breaks
 * of a file or folder name raw (a name from someone else's archive can recolour, retitle or rewrite
 * the terminal, or forge report lines).
 */

const token = credentialToken;
/** What a terminal acts on: escape sequences (CSI, OSC title), C1 CSI, line breaks, bell, bidi override. */
const escapes = ['\u001b[31m', '\u001b]0;pwned\u0007', '\u009b2J'];
const breaks = ['\n', '\r', '\u0007', '\u202e', '\u2028'];
const control = fc.constantFrom(...escapes, ...breaks);
const hostileName = fc
  .tuple(fc.array(control, { minLength: 1, maxLength: 3 }), fc.string({ maxLength: 6 }))
  .map(([controls, text]) => `n${controls.join('')}${text.replaceAll('/', '_')}x`);

/** Characters a terminal acts on, other than the `\n` ending each line of output. */
const unprintable =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

async function run(args: string[]) {
  const stdout = captureStream();
  const stderr = captureStream();
  const code = await runCli(args, { stdout, stderr, env: {} });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('hostile file and folder names in successful output', () => {
  const root = mkdtempSync(join(tmpdir(), 'baton-attack-folder-echo-'));
  const dataDir = join(root, 'store');
  const transcript = join(root, 'plain.json');
  let sessionId = '';

  beforeAll(async () => {
    const store = await createSessionStore({ dataDir });
    const session = await store.createSession({ title: 'echo attack' });
    sessionId = session.id;
    await store.appendMessages(session.id, [{ role: 'user', content: 'Fix the parser test.' }]);
    await store.close();
    writeFileSync(
      transcript,
      JSON.stringify([
        { role: 'user', content: 'fix it' },
        { role: 'assistant', content: 'done' },
      ]),
    );
  }, 120_000);

  // Each store is ~40 MB: leave none behind.
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const commands = [
    ['sessions'],
    ['sessions', '--json'],
    ['lineage', 'ID', '--json'],
    ['recall', 'ID', 'parser', '--json'],
    ['count'],
    ['count', '--json'],
    ['compact', '--target', '100000'],
  ] as const;

  it('a store folder or transcript named with a credential and control characters (property)', async () => {
    const controls = { plain: 0, hostile: 0 };
    const plainRuns = new Map<string, Awaited<ReturnType<typeof run>>>();
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(fc.constantFrom(...commands)),
        token,
        fc.option(hostileName, { nil: undefined }),
        async (command, secret, name) => {
          const folder = join(root, secret);
          mkdirSync(folder, { recursive: true });
          const leaf = name ?? 'plain';
          controls[name === undefined ? 'plain' : 'hostile']++;
          const forStore = !command[0].startsWith('co');
          const target = join(folder, forStore ? leaf : `${leaf}.json`);
          symlinkSync(forStore ? dataDir : transcript, target);
          const args = command.map((part) => (part === 'ID' ? sessionId.slice(0, 8) : part));
          const [first, ...rest] = args as [string, ...string[]];
          const result = await run([first, target, ...rest]);
          // Control: the same command on the plain folder or file prints as many lines.
          const key = args.join(' ');
          if (!plainRuns.has(key)) {
            plainRuns.set(key, await run([first, forStore ? dataDir : transcript, ...rest]));
          }
          const plain = plainRuns.get(key) as Awaited<ReturnType<typeof run>>;
          const label = `${args.join(' ')} on ${JSON.stringify(target)}`;
          expect(result.code, `${label}: ${result.stderr}`).toBe(EXIT_CODES.ok);
          const output = result.stdout + result.stderr;
          expect(output, label).not.toContain(secret);
          expect(output.match(unprintable)?.[0], label).toBeUndefined();
          expect(output.split('\n').length, label).toBe(
            (plain.stdout + plain.stderr).split('\n').length,
          );
          if (args.includes('--json')) JSON.parse(result.stdout);
        },
      ),
      { numRuns: 16, endOnFailure: true },
    );
    // Premise: both plain and hostile names were drawn.
    expect(controls.plain).toBeGreaterThan(0);
    expect(controls.hostile).toBeGreaterThan(0);
  }, 600_000);
});
