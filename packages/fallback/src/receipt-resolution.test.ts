import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './index.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

const name = fc.stringMatching(/^[a-z]{3,10}$/);
const runners = ['npx vitest run', 'pytest', 'cargo test', 'go test'];
const readers = ['cat', 'head -n 40', 'less', 'wc -l', 'grep -n it'];

describe('"resolved later" needs the same operation to succeed on the same target', () => {
  it('a read of the failing file never resolves a failed test run; a re-run does', () => {
    fc.assert(
      fc.property(
        name,
        fc.constantFrom(...runners),
        fc.constantFrom(...readers),
        fc.boolean(),
        (file, runner, reader, inDirectory) => {
          const prefix = inDirectory ? 'cd /repo && ' : '';
          const target = `tests/${file}.test.ts`;
          const fail = call(
            'bash',
            { command: `${prefix}${runner} ${target}` },
            `FAIL ${target}\nError: boom ${file}\nexit code 1`,
          );
          const read = call('bash', { command: `${prefix}${reader} ${target}` }, 'ok');
          const opened = extractHandoffFacts([
            { role: 'user', content: 'fix it' },
            ...fail,
            ...read,
          ]);
          expect(opened.errors.some((error) => error.resolved)).toBe(false);
          const rerun = call(
            'bash',
            { command: `${prefix}${runner} ${target} --reporter dot` },
            'all passed',
          );
          const fixed = extractHandoffFacts([
            { role: 'user', content: 'fix it' },
            ...fail,
            ...read,
            ...rerun,
          ]);
          expect(fixed.errors.length).toBeGreaterThan(0);
          expect(fixed.errors.every((error) => error.resolved)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a failed edit is resolved by a later successful write of the same file, not by a read', () => {
    const failed = call(
      'edit',
      { path: 'src/cart.ts', old: 'a', new: 'b' },
      'Error: old_string not found',
      true,
    );
    const read = call('read_file', { path: 'src/cart.ts' }, 'export const a = 1;');
    const other = call('edit', { path: 'src/other.ts', old: 'a', new: 'b' }, 'ok');
    const open = extractHandoffFacts([
      { role: 'user', content: 'fix' },
      ...failed,
      ...read,
      ...other,
    ]);
    expect(open.errors.some((error) => error.resolved)).toBe(false);
    const write = call('write_file', { path: 'src/cart.ts', content: 'export const b = 1;' }, 'ok');
    const done = extractHandoffFacts([
      { role: 'user', content: 'fix' },
      ...failed,
      ...read,
      ...write,
    ]);
    expect(done.errors.every((error) => error.resolved)).toBe(true);
  });
});
