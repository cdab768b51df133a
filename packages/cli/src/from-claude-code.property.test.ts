import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromClaudeCode } from './index.js';

type Block = Record<string, unknown>;

/** A conversation in AI SDK shape with unique tool-call ids, every call answered in the next message. */
const conversation = fc
  .array(
    fc.record({
      ask: fc.string({ minLength: 1 }).filter((text) => text.trim() !== ''),
      reasoning: fc.option(
        fc.string({ minLength: 1 }).filter((text) => text.trim() !== ''),
        { nil: undefined },
      ),
      reply: fc.option(
        fc.string({ minLength: 1 }).filter((text) => text.trim() !== ''),
        { nil: undefined },
      ),
      calls: fc.array(
        fc.record({
          name: fc.constantFrom('Read', 'Bash', 'Grep'),
          result: fc.string(),
          error: fc.boolean(),
        }),
        {
          maxLength: 3,
        },
      ),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((turns) => {
    const messages: ModelMessage[] = [];
    let next = 0;
    for (const turn of turns) {
      messages.push({ role: 'user', content: turn.ask });
      const calls = turn.calls.map((call) => ({ ...call, id: `toolu_${next++}` }));
      const content = [
        ...(turn.reasoning === undefined
          ? []
          : [{ type: 'reasoning' as const, text: turn.reasoning }]),
        ...(turn.reply === undefined ? [] : [{ type: 'text' as const, text: turn.reply }]),
        ...calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.name,
          input: { n: call.id },
        })),
      ];
      if (content.length === 0) continue;
      messages.push({ role: 'assistant', content });
      if (calls.length > 0) {
        messages.push({
          role: 'tool',
          content: calls.map((call) => ({
            type: 'tool-result' as const,
            toolCallId: call.id,
            toolName: call.name,
            output: call.error
              ? { type: 'error-text' as const, value: call.result }
              : { type: 'text' as const, value: call.result },
          })),
        });
      }
    }
    return messages;
  });

/**
 * Writes `messages` the way Claude Code logs them: one assistant line per block (sharing message.id),
 * one user line per tool result, with `progress` and sidechain lines interleaved where `noise` says.
 */
function toJsonl(messages: ModelMessage[], noise: boolean[]): string {
  const lines: object[] = [];
  let tick = 0;
  const maybeNoise = () => {
    const kind = tick++ % 3;
    if (!noise[tick % noise.length]) return;
    if (kind === 0)
      lines.push({ type: 'progress', uuid: `p${tick}`, data: { type: 'hook_progress' } });
    else if (kind === 1)
      lines.push({
        type: 'user',
        isSidechain: true,
        uuid: `s${tick}`,
        message: { role: 'user', content: 'side task' },
      });
    else lines.push({ type: 'file-history-snapshot', messageId: `m${tick}`, snapshot: {} });
  };
  messages.forEach((message, index) => {
    maybeNoise();
    if (message.role === 'user') {
      lines.push({
        type: 'user',
        uuid: `u${index}`,
        message: { role: 'user', content: message.content },
      });
    } else if (message.role === 'assistant') {
      for (const part of message.content as Array<Record<string, unknown>>) {
        const block: Block =
          part.type === 'reasoning'
            ? { type: 'thinking', thinking: part.text, signature: 'x' }
            : part.type === 'text'
              ? { type: 'text', text: part.text }
              : { type: 'tool_use', id: part.toolCallId, name: part.toolName, input: part.input };
        lines.push({
          type: 'assistant',
          uuid: `a${index}-${lines.length}`,
          message: { id: `msg_${index}`, role: 'assistant', content: [block] },
        });
        maybeNoise();
      }
    } else if (message.role === 'tool') {
      for (const part of message.content as Array<{
        toolCallId: string;
        output: { type: string; value: string };
      }>) {
        lines.push({
          type: 'user',
          uuid: `r${part.toolCallId}`,
          message: {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: part.toolCallId,
                content: part.output.value,
                ...(part.output.type === 'error-text' ? { is_error: true } : {}),
              },
            ],
          },
        });
      }
    }
  });
  return lines.map((line) => JSON.stringify(line)).join('\n');
}

describe('fromClaudeCode (property)', () => {
  it('reads back what a Claude Code log of the conversation holds, whatever the noise', () => {
    fc.assert(
      fc.property(
        conversation,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        (messages, noise) => {
          const { messages: read, warnings } = fromClaudeCode(toJsonl(messages, noise));
          expect(warnings).toEqual([]);
          expect(read).toEqual(messages);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps only what follows the last compact boundary, starting with its summary', () => {
    fc.assert(
      fc.property(conversation, conversation, (before, after) => {
        const boundary = JSON.stringify({
          type: 'system',
          subtype: 'compact_boundary',
          compactMetadata: { trigger: 'auto', preTokens: 1 },
        });
        const summary = JSON.stringify({
          type: 'user',
          isCompactSummary: true,
          message: { role: 'user', content: 'summary of before' },
        });
        const jsonl = [toJsonl(before, [false]), boundary, summary, toJsonl(after, [false])].join(
          '\n',
        );
        const live = fromClaudeCode(jsonl);
        expect(live.compactions).toBe(1);
        expect(live.messages).toEqual([{ role: 'user', content: 'summary of before' }, ...after]);
        const all = fromClaudeCode(jsonl, { history: 'all' });
        expect(all.messages.length).toBe(before.length + 1 + after.length);
      }),
      { numRuns: 100 },
    );
  });
});
