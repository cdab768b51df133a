import { readFileSync } from 'node:fs';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { fromClaudeCode } from './index.js';

const fixture = readFileSync(
  new URL('./__fixtures__/claude-code-session.jsonl', import.meta.url),
  'utf8',
);

const parts = (message: ModelMessage | undefined) =>
  Array.isArray(message?.content) ? (message.content as Array<{ type: string }>) : [];

describe('fromClaudeCode', () => {
  it('keeps the live context: Claude Code summary first, nothing from before the boundary', () => {
    const { messages, compactions, warnings } = fromClaudeCode(fixture);
    expect(compactions).toBe(1);
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(messages[0]?.content).toMatch(/^This session is being continued/);
    // The stale result refers to toolu_01, whose call was before the boundary.
    expect(warnings).toEqual([expect.stringMatching(/dropped tool result toolu_01/)]);
    expect(JSON.stringify(messages)).not.toContain('stale result');
  });

  it('reads every turn with history: all, merging lines that share message.id', () => {
    const { messages } = fromClaudeCode(fixture, { history: 'all' });
    const first = messages[1];
    expect(first?.role).toBe('assistant');
    expect(parts(first).map((part) => part.type)).toEqual([
      'reasoning',
      'text',
      'tool-call',
      'tool-call',
    ]);
    const results = messages[2];
    expect(results?.role).toBe('tool');
    expect(results?.content).toEqual([
      expect.objectContaining({
        toolCallId: 'toolu_01',
        toolName: 'Read',
        output: expect.objectContaining({ type: 'text' }),
      }),
      expect.objectContaining({
        toolCallId: 'toolu_02',
        toolName: 'Grep',
        output: { type: 'error-text', value: 'No matches found' },
      }),
    ]);
    // msg_B: a whitespace-only text line and a tool_use line become one message with one part.
    expect(parts(messages[3])).toEqual([
      expect.objectContaining({ type: 'tool-call', toolName: 'Bash' }),
    ]);
    // The compact summary stays as a user message in place.
    expect(messages.filter((message) => message.role === 'user').length).toBe(3);
  });

  it('leaves sidechain lines out of a main session and keeps them in a subagent file', () => {
    expect(JSON.stringify(fromClaudeCode(fixture, { history: 'all' }).messages)).not.toContain(
      'Prices are summed',
    );
    expect(
      JSON.stringify(fromClaudeCode(fixture, { history: 'all', sidechains: true }).messages),
    ).toContain('Prices are summed');
    const subagent = fixture
      .split('\n')
      .filter((line) => line.includes('"isSidechain":true'))
      .join('\n');
    expect(fromClaudeCode(subagent).messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
    ]);
  });

  it('joins tool result blocks, replaces images, maps thinking and drops redacted thinking', () => {
    const { messages } = fromClaudeCode(fixture);
    const suite = messages[5]?.content as Array<{ output: { value: string } }>;
    expect(suite[0]?.output.value).toBe(
      'Test Files  12 passed (12)\nTests  87 passed (87)\n[image omitted]',
    );
    expect(parts(messages[6]).map((part) => part.type)).toEqual(['reasoning', 'text']);
  });

  it('produces well-paired tool calls and results', () => {
    for (const history of ['live', 'all'] as const) {
      const { messages } = fromClaudeCode(fixture, { history });
      const calls = new Set<string>();
      for (const message of messages) {
        for (const part of parts(message) as Array<{ type: string; toolCallId?: string }>) {
          if (part.type === 'tool-call') calls.add(part.toolCallId!);
          if (part.type === 'tool-result') expect(calls.has(part.toolCallId!)).toBe(true);
        }
      }
    }
  });

  it('names the line of a broken JSON line', () => {
    const broken = fixture.split('\n').slice(0, 3).join('\n') + '\n{"type":"user",';
    expect(() => fromClaudeCode(broken)).toThrow(/^line 4: invalid JSON/);
  });
});
