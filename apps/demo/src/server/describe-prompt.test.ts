import { randomInt } from 'node:crypto';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { HANDOFF_HEADER } from '@baton/fallback';
import { describe, expect, it } from 'vitest';
import { describePrompt } from './describe-prompt.js';

function githubToken(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `ghp_${Array.from({ length: 36 }, () => alphabet[randomInt(alphabet.length)]).join('')}`;
}

describe('describePrompt', () => {
  it('marks head, handoff and tail, redacts secrets and clips long tool parts only', () => {
    const token = githubToken();
    const longOutput = 'line of output\n'.repeat(500);
    const handoff = `${HANDOFF_HEADER}\n\n## Completed actions\n${'1. read_file a.js — ok\n'.repeat(80)}`;
    const prompt: LanguageModelV4Prompt = [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: [{ type: 'text', text: 'first ask' }] },
      { role: 'user', content: [{ type: 'text', text: handoff }] },
      { role: 'user', content: [{ type: 'text', text: `latest ask with ${token}` }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a.js' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'read_file',
            output: { type: 'text', value: longOutput },
          },
        ],
      },
    ];
    const view = describePrompt(prompt);
    expect(view.map((message) => message.section)).toEqual([
      'head',
      'head',
      'handoff',
      'tail',
      'tail',
      'tail',
    ]);
    expect(view.map((message) => message.role)).toEqual(prompt.map((message) => message.role));
    expect(view[2]!.text).toBe(handoff);
    expect(JSON.stringify(view)).not.toContain(token);
    expect(view[3]!.text).toContain('latest ask with [REDACTED:');
    expect(view[4]!.text).toBe('→ read_file {"path":"a.js"}');
    expect(view[5]!.text.startsWith('← read_file: line of output')).toBe(true);
    expect(view[5]!.text.length).toBeLessThan(longOutput.length / 5);
  });

  it('says a prompt without a handoff was sent uncompacted', () => {
    const view = describePrompt([
      { role: 'system', content: 'x' },
      { role: 'user', content: [{ type: 'text', text: `quoting ${HANDOFF_HEADER.slice(0, 20)}` }] },
    ]);
    expect(view.map((message) => message.section)).toEqual(['uncompacted', 'uncompacted']);
  });
});
