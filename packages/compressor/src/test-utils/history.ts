import type { ModelMessage } from '@ai-sdk/provider-utils';

let sequence = 0;

export function user(text: string): ModelMessage {
  return { role: 'user', content: text };
}

export function assistant(text: string): ModelMessage {
  return { role: 'assistant', content: [{ type: 'text', text }] };
}

/** An assistant message calling `names.length` tools in parallel; returns it and the ids. */
export function calls(names: string[], text?: string): { message: ModelMessage; ids: string[] } {
  const ids = names.map(() => `call_${++sequence}`);
  return {
    message: {
      role: 'assistant',
      content: [
        ...(text ? [{ type: 'text' as const, text }] : []),
        ...names.map((toolName, index) => ({
          type: 'tool-call' as const,
          toolCallId: ids[index]!,
          toolName,
          input: { path: `src/file-${index}.ts` },
        })),
      ],
    },
    ids,
  };
}

export function results(ids: string[], names: string[], output: string): ModelMessage {
  return {
    role: 'tool',
    content: ids.map((toolCallId, index) => ({
      type: 'tool-result' as const,
      toolCallId,
      toolName: names[index]!,
      output: { type: 'text' as const, value: output },
    })),
  };
}

/** A tool round trip: the call message and its result message. */
export function toolTurn(name: string, output: string): ModelMessage[] {
  const { message, ids } = calls([name]);
  return [message, results(ids, [name], output)];
}
