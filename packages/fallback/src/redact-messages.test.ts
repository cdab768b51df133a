import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { ReceiptInputError, redactMessages } from './index.js';

const token = 'ghp_' + 'Zx8Kq2Lm4Np6Rs8Tv0Wy2Ab4Cd6Ef8Gh0Jk2';

describe('redactMessages', () => {
  const messages: ModelMessage[] = [
    { role: 'system', content: `key ${token}` },
    { role: 'user', content: [{ type: 'text', text: `here: ${token}` }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: `I saw ${token}` },
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'http',
          input: { headers: { password: 'Hunter2' + 'Hunter2' }, url: 'https://x.dev' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'http',
          output: { type: 'error-json', value: { token } },
        },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'sh',
          output: { type: 'content', value: [{ type: 'text', text: token }] },
        },
        {
          type: 'tool-result',
          toolCallId: 'c3',
          toolName: 'sh',
          output: { type: 'execution-denied', reason: `blocked ${token}` },
        },
      ],
    },
  ];

  it('redacts every string and keeps ids, names and shapes', () => {
    const before = structuredClone(messages);
    const { messages: redacted, findings } = redactMessages(messages);
    expect(JSON.stringify(redacted)).not.toContain(token);
    expect(JSON.stringify(redacted)).not.toContain('Hunter2Hunter2');
    expect(messages).toEqual(before);
    const tool = redacted[3] as Extract<ModelMessage, { role: 'tool' }>;
    expect(
      tool.content.map((part) => (part.type === 'tool-result' ? part.toolCallId : '')),
    ).toEqual(['c1', 'c2', 'c3']);
    expect(findings.map((finding) => finding.path)).toContain(
      'messages[2].content[1].input.headers.password',
    );
    expect(findings.every((finding) => !('value' in finding))).toBe(true);
  });

  it('rejects a non-array with a typed error', () => {
    expect(() => redactMessages('x' as unknown as ModelMessage[])).toThrowError(ReceiptInputError);
  });
});
