import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';

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
