import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newConversation, redactConversation } from './conversation-file.js';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomText = (length: number) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

describe('redactConversation', () => {
  it('redacts text, tool inputs and outputs, and keeps ids, types and tool pairing', () => {
    const token = `ghp_${randomText(36)}`;
    const password = `${randomText(10)}!${randomText(4)}`;
    const record = {
      ...newConversation(),
      messages: [
        {
          id: 'u-1',
          role: 'user' as const,
          parts: [{ type: 'text' as const, text: `use ${token}` }],
        },
        {
          id: 'a-1',
          role: 'assistant' as const,
          parts: [
            {
              type: 'tool-run_command' as const,
              toolCallId: 'call_1',
              state: 'output-available' as const,
              input: { command: 'login', password },
              output: `logged in with ${token}`,
            },
          ],
        },
      ],
    };
    const redacted = redactConversation(record);
    const text = JSON.stringify(redacted);
    expect(text).not.toContain(token);
    expect(text).not.toContain(password);
    expect(redacted.messages.map((message) => message.id)).toEqual(['u-1', 'a-1']);
    expect(redacted.messages[1]!.parts[0]).toMatchObject({
      type: 'tool-run_command',
      toolCallId: 'call_1',
      state: 'output-available',
      input: { command: 'login' },
    });
    expect(redacted.rootSessionId).toBe(record.rootSessionId);
    // The input is not mutated: the running server keeps what was typed.
    expect(JSON.stringify(record)).toContain(token);
  });
});
