/**
 * Test support for the harness's own tests: the dev transcripts (read at test time, never copied) and
 * fast-check generators of well-formed conversations in the harness's message shape.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { type Message, parseModelMessages, type ToolResultPart } from './messages.ts';

export const corpusDir = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'shared',
  'corpus',
  'transcripts',
  'dev',
);

/** Every dev transcript, or none when the corpus is absent (tests then skip with a message). */
export function loadCorpus(): { id: string; messages: Message[] }[] {
  if (!existsSync(corpusDir)) return [];
  return readdirSync(corpusDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({
      id: name,
      messages: parseModelMessages(JSON.parse(readFileSync(join(corpusDir, name), 'utf8')), name),
    }));
}

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');
const toolName = fc.stringMatching(/^[a-z][a-z_]{0,11}$/);
const input = fc.oneof(
  fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.string(), fc.integer())),
  fc.string(),
);

type Turn =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; reasoning?: string }
  | {
      kind: 'tools';
      text?: string;
      calls: { name: string; input: unknown; output: string; error: boolean; json: boolean }[];
      /** How the results are split over tool messages (1 = all in one). */
      split: number;
    };

const turn: fc.Arbitrary<Turn> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), text }),
  fc.record(
    { kind: fc.constant('assistant' as const), text, reasoning: text },
    { requiredKeys: ['kind', 'text'] },
  ),
  fc.record(
    {
      kind: fc.constant('tools' as const),
      text,
      calls: fc.array(
        fc.record({
          name: toolName,
          input,
          output: fc.string(),
          error: fc.boolean(),
          json: fc.boolean(),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      split: fc.integer({ min: 1, max: 3 }),
    },
    { requiredKeys: ['kind', 'calls', 'split'] },
  ),
);

/**
 * A provider-valid conversation: optional leading system message, a first user message, then any turns;
 * every tool call answered by the tool messages right after it (results possibly split over several).
 */
export const conversation: fc.Arbitrary<Message[]> = fc
  .record({
    system: fc.option(text, { nil: undefined }),
    first: text,
    turns: fc.array(turn, { maxLength: 12 }),
  })
  .map(({ system, first, turns }) => {
    const messages: Message[] = [];
    if (system !== undefined) messages.push({ role: 'system', content: system });
    messages.push({ role: 'user', content: first });
    let id = 0;
    for (const item of turns) {
      if (item.kind === 'user') messages.push({ role: 'user', content: item.text });
      else if (item.kind === 'assistant') {
        messages.push({
          role: 'assistant',
          content: [
            ...(item.reasoning ? [{ type: 'reasoning' as const, text: item.reasoning }] : []),
            { type: 'text', text: item.text },
          ],
        });
      } else {
        const ids = item.calls.map(() => `call_${id++}`);
        messages.push({
          role: 'assistant',
          content: [
            ...(item.text ? [{ type: 'text' as const, text: item.text }] : []),
            ...item.calls.map((call, index) => ({
              type: 'tool-call' as const,
              toolCallId: ids[index]!,
              toolName: call.name,
              input: call.input,
            })),
          ],
        });
        const parts: ToolResultPart[] = item.calls.map((call, index) => ({
          type: 'tool-result',
          toolCallId: ids[index]!,
          toolName: call.name,
          output: call.json
            ? { type: call.error ? 'error-json' : 'json', value: { result: call.output } }
            : { type: call.error ? 'error-text' : 'text', value: call.output },
        }));
        const size = Math.ceil(parts.length / item.split);
        for (let start = 0; start < parts.length; start += size) {
          messages.push({ role: 'tool', content: parts.slice(start, start + size) });
        }
      }
    }
    return messages;
  });
