import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './index.js';

/**
 * Attack (reviewer): one file listed under several paths (issue 11, item 3: "Normalise paths
 * against the working directory seen in the transcript").
 */
let id = 0;
function call(toolName: string, input: Record<string, unknown>, output: string): ModelMessage[] {
  const toolCallId = `call_${++id}`;
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName, input }] },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId, toolName, output: { type: 'text', value: output } },
      ],
    },
  ];
}

function files(note: string, absolute: string, relative: string): string[] {
  return extractHandoffFacts([
    { role: 'user', content: `${note} Please fix the cart total.` },
    ...call('read_file', { path: absolute }, 'export const total = 0;'),
    ...call('edit', { path: relative }, 'ok'),
  ]).files.map((file) => file.path);
}

describe('attack: path normalisation', () => {
  it('control: `Working directory: /home/dev/shop` then a space (passes)', () => {
    expect(
      files('Working directory: /home/dev/shop ', '/home/dev/shop/src/cart.ts', './src/cart.ts'),
    ).toHaveLength(1);
  });

  it('a working directory named at the end of a sentence (trailing period) still normalises', () => {
    // The capture takes the period: the directory becomes `/home/dev/shop.`, nothing matches it,
    // and the file is listed twice (plus the directory itself as a file).
    expect(
      files('Working directory: /home/dev/shop.', '/home/dev/shop/src/cart.ts', './src/cart.ts'),
    ).toHaveLength(1);
  });

  it('a Windows working directory normalises backslash paths', () => {
    expect(
      files(
        'Working directory: C:\\Users\\dev\\shop ',
        'C:\\Users\\dev\\shop\\src\\cart.ts',
        'src/cart.ts',
      ),
    ).toHaveLength(1);
  });
});
