import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

/**
 * Attack (reviewer): an error is marked "resolved later" when a later call merely touched the same
 * target: reading the failing test file after the test run failed, or reading the file an edit
 * failed on. Nothing was fixed; the receipt tells the next model the opposite (issue 11, item 3:
 * "Mark an error resolved when a later call in the window succeeded on the same target").
 */

const ask: ModelMessage = { role: 'user', content: 'Make the parser tests pass.' };

describe('attack: "resolved later" without any fix', () => {
  it('a failing test run followed only by reading the test file stays open', () => {
    const messages: ModelMessage[] = [
      ask,
      ...call(
        'bash',
        { command: 'npx vitest run src/parser.test.ts' },
        'FAIL src/parser.test.ts > parses dates\nAssertionError: expected 1 to be 2\nexit code 1',
      ),
      ...call('bash', { command: 'cat src/parser.test.ts' }, "import { it } from 'vitest';"),
    ];
    const facts = extractHandoffFacts(messages);
    expect(facts.errors.length).toBeGreaterThan(0);
    expect(facts.errors.filter((error) => error.resolved).map((error) => error.line)).toEqual([]);
    expect(createReceipt(messages).text).not.toContain('(resolved later)');
  });

  it('a failed edit followed only by reading the same file stays open', () => {
    const messages: ModelMessage[] = [
      ask,
      ...call(
        'edit',
        { path: 'src/parser.ts', old: 'a', new: 'b' },
        'Error: old_string not found in src/parser.ts',
        true,
      ),
      ...call('read', { path: 'src/parser.ts' }, 'export function parse() {}'),
    ];
    const facts = extractHandoffFacts(messages);
    expect(facts.errors.length).toBeGreaterThan(0);
    expect(facts.errors.filter((error) => error.resolved).map((error) => error.line)).toEqual([]);
  });
});
