import type { ModelMessage } from '@ai-sdk/provider-utils';
import { BatonError } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { createReceipt, HANDOFF_HEADER, parseHandoff, ReceiptInputError } from './index.js';

const counter = { count: (text: string) => Math.ceil(text.length / 4) };

const window: ModelMessage[] = [
  { role: 'user', content: 'Please fix the failing test in src/app/main.ts' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading the file.' },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'read_file',
        input: { path: 'src/app/main.ts' },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'read_file',
        output: { type: 'text', value: 'export {}' },
      },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c2', toolName: 'bash', input: { command: 'npm test' } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'bash',
        output: {
          type: 'error-text',
          value: 'TypeError: x is not a function\n    at /repo/src/app/main.ts:3:1',
        },
      },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'Now also update the README' }] },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c3', toolName: 'edit_file', input: { path: 'README.md' } },
    ],
  },
];

describe('createReceipt', () => {
  it('builds the shared layout with asks, actions, files, errors and counts', () => {
    const receipt = createReceipt(window, { counter, maxTokens: 1000 });
    expect(receipt.text.startsWith(HANDOFF_HEADER)).toBe(true);
    expect(parseHandoff(receipt.text)).toEqual(receipt.sections);
    expect(receipt.sections.latestAsk).toBe('Now also update the README');
    expect(receipt.sections.pendingAsks).toContain(
      'Please fix the failing test in src/app/main.ts',
    );
    expect(receipt.sections.completedActions).toContain(
      '2. bash npm test — error: TypeError: x is not a function',
    );
    expect(receipt.sections.completedActions).toContain('3. edit_file README.md — no result');
    expect(receipt.sections.files).toContain('src/app/main.ts');
    expect(receipt.sections.blockers).toContain('TypeError: x is not a function');
    expect(receipt.sections.counts).toContain('bash ×1');
    // The latest ask is stated once.
    expect(receipt.text.split('Now also update the README').length).toBe(2);
  });

  it('is deterministic', () => {
    expect(createReceipt(window, { counter }).text).toBe(createReceipt(window, { counter }).text);
  });

  it('throws a typed error for malformed messages', () => {
    const bad = [
      { role: 'assistant', content: [{ type: 'tool-call', toolName: 'x' }] },
    ] as unknown as ModelMessage[];
    let caught: unknown;
    try {
      createReceipt(bad, { counter });
    } catch (error) {
      caught = error;
    }
    expect(ReceiptInputError.isInstance(caught)).toBe(true);
    expect(BatonError.isInstance(caught)).toBe(true);
    expect((caught as ReceiptInputError).path).toBe('messages[0].content[0].toolCallId');
  });
});
