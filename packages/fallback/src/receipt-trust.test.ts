import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';

const counter = { count: (text: string) => Math.ceil(text.length / 4) };

function run(
  id: string,
  tool: string,
  input: Record<string, unknown>,
  output: string,
  error = false,
): ModelMessage[] {
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: tool, input }] },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: tool,
          output: { type: error ? 'error-text' : 'text', value: output },
        },
      ],
    },
  ];
}

const name = fc.stringMatching(/^[a-z][a-z_]{2,10}$/);

describe('receipts that do not mislead', () => {
  it('numbers the listed actions 1, 2, 3, … whatever was folded away', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 60 }),
        fc.integer({ min: 200, max: 900 }),
        (calls, budget) => {
          const messages: ModelMessage[] = [{ role: 'user', content: 'Refactor the parser' }];
          for (let index = 0; index < calls; index++) {
            messages.push(
              ...run(
                `c${index}`,
                index % 3 === 0 ? 'Edit' : 'Bash',
                { command: `step ${index} of the refactor` },
                'ok',
              ),
            );
          }
          const receipt = createReceipt(messages, { counter, maxTokens: budget });
          const numbers =
            `${receipt.sections.completedActions ?? ''}\n${receipt.sections.inProgress ?? ''}`
              .split('\n')
              .map((line) => /^(\d+)\. /.exec(line)?.[1])
              .filter((value): value is string => value !== undefined)
              .map(Number);
          expect(numbers).toEqual(numbers.map((_, index) => index + 1));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('marks an error resolved when a later call on the same target succeeded, open errors first', () => {
    fc.assert(
      fc.property(name, name, fc.integer({ min: 1, max: 4 }), (fixed, broken, failures) => {
        fc.pre(fixed !== broken);
        const fixedTest = `tests/test_${fixed}.py`;
        const brokenTest = `tests/test_${broken}.py`;
        const messages: ModelMessage[] = [{ role: 'user', content: 'Make the test suite pass' }];
        for (let attempt = 0; attempt < failures; attempt++) {
          messages.push(
            ...run(
              `f${attempt}`,
              'Bash',
              { command: `pytest ${fixedTest}` },
              `AssertionError: ${fixed} expected 2 got ${attempt}`,
              true,
            ),
          );
        }
        messages.push(
          ...run('b', 'Bash', { command: `pytest ${brokenTest}` }, `KeyError: '${broken}'`, true),
          ...run('e', 'Edit', { file_path: `src/${fixed}.py` }, 'ok'),
          ...run('p', 'Bash', { command: `pytest ${fixedTest}` }, '1 passed'),
        );
        const facts = extractHandoffFacts(messages);
        const resolved = facts.errors.filter((error) => error.line.includes(`${fixed} expected`));
        expect(resolved.length).toBeGreaterThan(0);
        expect(resolved.every((error) => error.resolved)).toBe(true);
        const open = facts.errors.find((error) => error.line.includes(`KeyError: '${broken}'`));
        expect(open?.resolved).toBe(false);
        const blockers =
          createReceipt(messages, { counter, maxTokens: 2000 }).sections.blockers ?? '';
        const lines = blockers.split('\n');
        const openAt = lines.findIndex((line) => line.includes(`KeyError: '${broken}'`));
        const resolvedAt = lines.findIndex((line) => line.includes(`${fixed} expected`));
        expect(openAt).toBeGreaterThanOrEqual(0);
        expect(lines[openAt]).not.toContain('(resolved later)');
        expect(lines[resolvedAt]).toContain('(resolved later)');
        expect(openAt).toBeLessThan(resolvedAt);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps an error open when the later call on the same target failed again or never ran', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Fix the build' },
      ...run('a', 'Bash', { command: 'make build' }, 'make: *** [all] Error 2', true),
      ...run('b', 'Bash', { command: 'make build' }, 'make: *** [all] Error 2', true),
      ...run('c', 'Bash', { command: 'make test' }, 'ok'),
    ];
    const facts = extractHandoffFacts(messages);
    expect(facts.errors.every((error) => !error.resolved)).toBe(true);
  });
});
