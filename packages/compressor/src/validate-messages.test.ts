import type { ModelMessage } from '@ai-sdk/provider-utils';
import { InvalidInputError } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { validateMessages } from './index.js';

function rejection(messages: unknown): InvalidInputError {
  try {
    validateMessages(messages);
  } catch (error) {
    expect(InvalidInputError.isInstance(error)).toBe(true);
    return error as InvalidInputError;
  }
  throw new Error('expected validateMessages to throw');
}

describe('validateMessages', () => {
  it('accepts every role with the parts the AI SDK allows for it', () => {
    const messages: ModelMessage[] = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'list files' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'ls it is' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'ls', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'ls',
            output: { type: 'text', value: 'a.ts' },
          },
        ],
      },
      { role: 'assistant', content: 'a.ts' },
    ];
    expect(() => validateMessages(messages)).not.toThrow();
  });

  it('names an unknown role and where it is', () => {
    const error = rejection([
      { role: 'user', content: 'hi' },
      { role: 'wizard', content: 'hi' },
    ]);
    expect(error.path).toBe('messages[1].role');
    // Names the field and what it may hold; the value itself is never echoed (it may be a secret).
    expect(error.message).toMatch(/^messages\[1\]\.role: .*"tool", got a string of 6 characters$/);
    expect(error.message).not.toContain('wizard');
  });

  it.each([
    ['not an array', { role: 'user' }, 'messages'],
    ['a string tool content', [{ role: 'tool', content: 'hi' }], 'messages[0].content'],
    [
      'a part its role does not allow',
      [{ role: 'user', content: [{ type: 'tool-call' }] }],
      'messages[0].content[0].type',
    ],
    [
      'a tool call without an id',
      [{ role: 'assistant', content: [{ type: 'tool-call', toolName: 'x', input: {} }] }],
      'messages[0].content[0].toolCallId',
    ],
  ])('rejects %s at the bad field', (_name, messages, path) => {
    expect(rejection(messages).path).toBe(path);
  });
});
