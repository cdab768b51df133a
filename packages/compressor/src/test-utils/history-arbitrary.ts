import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';

const words = fc.array(
  fc.constantFrom('fix', 'test', 'src/app.ts', 'error', 'the', 'build', 'ok', '42', 'deploy', 'x'),
  {
    minLength: 1,
    maxLength: 12,
  },
);
const sentence = words.map((list) => list.join(' '));
const sizedText = fc
  .tuple(sentence, fc.integer({ min: 0, max: 60 }))
  .map(([text, repeat]) =>
    repeat === 0 ? text : `${text}\n${'output line with data '.repeat(repeat)}`,
  );

type Turn =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | {
      kind: 'tools';
      names: string[];
      outputs: string[];
      split: boolean;
      text: string | undefined;
      error: boolean;
    };

const turn: fc.Arbitrary<Turn> = fc.oneof(
  { weight: 2, arbitrary: sentence.map((text) => ({ kind: 'user' as const, text })) },
  { weight: 2, arbitrary: sizedText.map((text) => ({ kind: 'assistant' as const, text })) },
  {
    weight: 5,
    arbitrary: fc.integer({ min: 1, max: 3 }).chain((count) =>
      fc.record({
        kind: fc.constant('tools' as const),
        names: fc.array(fc.constantFrom('read', 'bash', 'edit', 'grep'), {
          minLength: count,
          maxLength: count,
        }),
        outputs: fc.array(sizedText, { minLength: count, maxLength: count }),
        split: fc.boolean(),
        text: fc.option(sentence, { nil: undefined }),
        error: fc.boolean(),
      }),
    ),
  },
);

export interface GeneratedHistory {
  messages: ModelMessage[];
}

/**
 * Valid AI SDK histories: optional system messages, a first user message, then user turns, assistant
 * replies and tool round trips (parallel calls, results in one or several tool messages, errors),
 * optionally ending with an unanswered (or partly answered) tool call.
 */
export const historyArbitrary: fc.Arbitrary<ModelMessage[]> = fc
  .record({
    systems: fc.integer({ min: 0, max: 2 }),
    first: sentence,
    turns: fc.array(turn, { minLength: 4, maxLength: 30 }),
    trailing: fc.constantFrom('none', 'unanswered', 'partial'),
  })
  .map(({ systems, first, turns, trailing }) => {
    let id = 0;
    const messages: ModelMessage[] = [];
    for (let index = 0; index < systems; index++)
      messages.push({ role: 'system', content: `System rule ${index}.` });
    messages.push({ role: 'user', content: first });
    for (const item of turns) {
      if (item.kind === 'user') messages.push({ role: 'user', content: item.text });
      else if (item.kind === 'assistant')
        messages.push({ role: 'assistant', content: [{ type: 'text', text: item.text }] });
      else {
        const ids = item.names.map(() => `call_${++id}`);
        messages.push({
          role: 'assistant',
          content: [
            ...(item.text ? [{ type: 'text' as const, text: item.text }] : []),
            ...item.names.map((toolName, index) => ({
              type: 'tool-call' as const,
              toolCallId: ids[index]!,
              toolName,
              input: { arg: index },
            })),
          ],
        });
        const parts = item.names.map((toolName, index) => ({
          type: 'tool-result' as const,
          toolCallId: ids[index]!,
          toolName,
          output:
            item.error && index === 0
              ? { type: 'error-text' as const, value: item.outputs[index]! }
              : { type: 'text' as const, value: item.outputs[index]! },
        }));
        if (item.split) for (const part of parts) messages.push({ role: 'tool', content: [part] });
        else messages.push({ role: 'tool', content: parts });
      }
    }
    if (trailing !== 'none') {
      const ids = [`call_${++id}`, `call_${++id}`];
      messages.push({
        role: 'assistant',
        content: ids.map((toolCallId) => ({
          type: 'tool-call' as const,
          toolCallId,
          toolName: 'bash',
          input: {},
        })),
      });
      if (trailing === 'partial') {
        messages.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: ids[0]!,
              toolName: 'bash',
              output: { type: 'text', value: 'done' },
            },
          ],
        });
      }
    }
    return messages;
  });
