import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';
import { isInternalPath, normalizeFiles } from './normalize-files.js';

const counter = { count: (text: string) => Math.ceil(text.length / 4) };
const segment = fc.stringMatching(/^[a-z][a-z0-9_]{1,9}$/);
const extension = fc.constantFrom('ts', 'js', 'py', 'ex', 'go', 'rs', 'md');

function call(id: string, toolName: string, input: Record<string, unknown>): ModelMessage {
  return { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName, input }] };
}
function result(id: string, toolName: string, value: string, error = false): ModelMessage {
  return {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: id,
        toolName,
        output: { type: error ? 'error-text' : 'text', value },
      },
    ],
  };
}

describe('files: one file under one path, internals dropped', () => {
  it('merges absolute, relative and ./ forms of a file under the working directory', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.array(segment, { minLength: 1, maxLength: 2 }),
        segment,
        extension,
        (root, directories, name, ext) => {
          const cwd = `/${root.join('/')}`;
          const relative = `${directories.join('/')}/${name}.${ext}`;
          const absolute = `${cwd}/${relative}`;
          const messages: ModelMessage[] = [
            { role: 'user', content: 'Fix the failing test please' },
            call('a', 'Read', { file_path: absolute }),
            result('a', 'Read', 'content'),
            call('b', 'Bash', { command: `cat ${relative}` }),
            result('b', 'Bash', `see ./${relative} and ${relative}`),
          ];
          const files = extractHandoffFacts(messages).files.filter((file) =>
            file.path.endsWith(`${name}.${ext}`),
          );
          expect(files).toHaveLength(1);
          expect(files[0]!.path).toBe(absolute);
          expect(files[0]!.references).toBe(4);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('drops node:, internal/, node_modules and site-packages frames unless the agent edited them', () => {
    const trace = [
      'Error: expected 2 to equal 3',
      '    at Object.<anonymous> (/app/src/inventory.test.js:12:5)',
      '    at TestContext.run (node:internal/test_runner/test:632:25)',
      '    at run (internal/test_runner/runner.js:91:7)',
      '    at load (/app/node_modules/vitest/dist/index.js:4:1)',
      '  File "/usr/lib/python3.12/site-packages/requests/api.py", line 59, in get',
    ].join('\n');
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Make the tests pass' },
      call('a', 'Bash', { command: 'npm test' }),
      result('a', 'Bash', trace, true),
      call('b', 'Edit', { file_path: '/app/node_modules/left-pad/index.js' }),
      result('b', 'Edit', 'ok'),
    ];
    const paths = extractHandoffFacts(messages).files.map((file) => file.path);
    expect(paths).toContain('/app/src/inventory.test.js');
    expect(paths).toContain('/app/node_modules/left-pad/index.js'); // edited: kept
    expect(paths.some((path) => path.includes('internal/test_runner'))).toBe(false);
    expect(paths.some((path) => path.includes('vitest/dist'))).toBe(false);
    expect(paths.some((path) => path.includes('site-packages'))).toBe(false);
    const receipt = createReceipt(messages, { counter });
    expect(receipt.sections.files).not.toMatch(/internal\/test_runner|site-packages|vitest\/dist/);
  });

  it('joins a ./ or ../ import to the one known file with that remainder', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Check the inventory module' },
      call('a', 'Read', { file_path: '/repo/src/inventory.js' }),
      result('a', 'Read', "import { sku } from './sku.js';\nimport x from '../src/inventory.js';"),
      call('b', 'Read', { file_path: '/repo/src/sku.js' }),
      result('b', 'Read', 'export const sku = 1;'),
    ];
    const paths = extractHandoffFacts(messages).files.map((file) => file.path);
    expect(paths.filter((path) => path.endsWith('inventory.js'))).toEqual([
      '/repo/src/inventory.js',
    ]);
    expect(paths.filter((path) => path.endsWith('sku.js'))).toEqual(['/repo/src/sku.js']);
  });
});

describe('normalizeFiles invariants', () => {
  const pathArbitrary = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          '',
          './',
          '../',
          '../../',
          '/repo/',
          '/tmp/',
          '~/',
          'node_modules/',
          'internal/',
        ),
        fc.array(fc.stringMatching(/^[a-z.]{1,6}$/), { minLength: 0, maxLength: 3 }),
        fc.stringMatching(/^[a-z]{1,6}\.(?:ts|js|py)$/),
      )
      .map(([anchor, directories, name]) => `${anchor}${[...directories, name].join('/')}`),
    // A `.` among sentence punctuation only (`?.`, `!.`) is what ends a prose sentence naming the
    // working directory, which is trimmed off and the directory dropped by design: `?.` under
    // `/repo` is `/repo`. Left out (1 draw in ~5,000) unless it is the plain `.`/`..` allowed below.
    fc
      .string({ maxLength: 30 })
      .filter(
        (path) =>
          !/^[\s.,;:!?)\]}'"`]*\.[\s.,;:!?)\]}'"`]*$/.test(path) || /^\s*\.{1,2}\s*$/.test(path),
      ),
  );
  it('never loses or invents references: what is kept sums to what came in, internals aside', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            path: pathArbitrary,
            references: fc.integer({ min: 1, max: 9 }),
            lastIndex: fc.nat(50),
            written: fc.boolean(),
          }),
          { maxLength: 25 },
        ),
        fc.array(fc.constantFrom('/repo', '/tmp', 'relative'), { maxLength: 2 }),
        (facts, named) => {
          const unique = [...new Map(facts.map((fact) => [fact.path, fact])).values()];
          const output = normalizeFiles(unique, named);
          const kept = unique.filter((fact) => fact.written || !isInternalPath(fact.path));
          const outputSum = output.reduce((sum, fact) => sum + fact.references, 0);
          const keptSum = kept.reduce((sum, fact) => sum + fact.references, 0);
          // Only the working directory itself may be dropped on top of internals.
          expect(outputSum).toBeLessThanOrEqual(keptSum);
          const dropped = keptSum - outputSum;
          if (dropped > 0) {
            // A directory: no extension, a trailing `/`, or `.`/`..` (the working directory itself;
            // white space around a path is not part of it, so `. ` is `.` too).
            expect(
              kept.some(
                (fact) =>
                  !fact.path.includes('.') ||
                  fact.path.endsWith('/') ||
                  /^\.{1,2}$/.test(fact.path.trim()),
              ),
            ).toBe(true);
          }
          // One entry per path shown, each a form the input used.
          const shown = output.map((fact) => fact.path);
          expect(new Set(shown).size).toBe(shown.length);
          for (const path of shown) expect(unique.some((fact) => fact.path === path)).toBe(true);
          // A written file is never dropped.
          if (unique.some((entry) => entry.written)) {
            expect(output.some((entry) => entry.written)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
