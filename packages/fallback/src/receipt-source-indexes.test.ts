import type { ModelMessage } from '@ai-sdk/provider-utils';
import { InvalidInputError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt } from './index.js';

/** A window of tool steps: reads (some failing) of generated paths, then a user ask. */
function window(paths: string[], failing: boolean[]): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Fix the failing build.' }];
  paths.forEach((path, step) => {
    messages.push(
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: `c${step}`, toolName: 'read_file', input: { path } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `c${step}`,
            toolName: 'read_file',
            output: failing[step]
              ? { type: 'error-text', value: `Error: ENOENT: no such file ${path}` }
              : { type: 'text', value: `contents of ${path}` },
          },
        ],
      },
    );
  });
  messages.push({ role: 'user', content: 'Then run the tests.' });
  return messages;
}

describe('createReceipt sourceIndexes', () => {
  it('every listed item ends with the position of a message it came from; without the option, none', () => {
    const path = fc
      .tuple(fc.constantFrom('src', 'lib', 'test'), fc.stringMatching(/^[a-z]{3,8}$/))
      .map(([dir, name]) => `${dir}/${name}.ts`);
    fc.assert(
      fc.property(
        fc.uniqueArray(path, { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: 0, max: 10_000 }),
        (paths, failing, offset) => {
          const messages = window(paths, failing);
          const sourceIndexes = messages.map((_, index) => offset + index);
          const text = createReceipt(messages, { sourceIndexes }).text;
          const plain = createReceipt(messages).text;
          expect(plain).not.toMatch(/\(msg \d+\)/);
          for (const [step, file] of paths.entries()) {
            const line = text.split('\n').find((entry) => entry.startsWith(`- ${file}`));
            if (line === undefined) continue;
            // The file's last mention: its call (1 + 2 step) or its result (2 + 2 step).
            const at = Number(/\(msg (\d+)\)$/.exec(line)?.[1]);
            expect([offset + 1 + 2 * step, offset + 2 + 2 * step], line).toContain(at);
          }
          for (const found of text.matchAll(/\(msg (\d+)\)/g)) {
            expect(Number(found[1])).toBeGreaterThanOrEqual(offset);
            expect(Number(found[1])).toBeLessThan(offset + messages.length);
          }
          expect(text).toMatch(/\(msg \d+\)/);
        },
      ),
      { numRuns: 100, seed: 77 },
    );
  });

  it('rejects positions that do not match the messages', () => {
    const messages = window(['src/a.ts'], [false]);
    for (const sourceIndexes of [[0], [...messages.keys()].map((index) => index - 1), 'x']) {
      expect(() => createReceipt(messages, { sourceIndexes: sourceIndexes as never })).toThrow(
        InvalidInputError,
      );
    }
  });
});
