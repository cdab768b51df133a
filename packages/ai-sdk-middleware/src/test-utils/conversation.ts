import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';

const words = [
  'alpha',
  'build',
  'cache',
  'delta',
  'error',
  'fixture',
  'gamma',
  'handler',
  'index',
  'json',
  'kernel',
  'lambda',
];

/** Deterministic filler text of about `tokens` tokens (a word is roughly one token). */
export function filler(tokens: number, seed = 0): string {
  const parts: string[] = [];
  for (let index = 0; index < tokens; index++) {
    parts.push(
      index % 17 === 0
        ? `line${seed}_${index}\n`
        : (words[(index * 7 + seed) % words.length] as string),
    );
  }
  return parts.join(' ');
}

/**
 * An agent history of `turns` turns: a user ask, an assistant tool call, its (large) tool result and
 * an assistant reply. Tool calls pair by id.
 */
export function agentHistory(
  turns: number,
  toolOutputTokens = 400,
  replyTokens = 20,
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({
      role: 'user',
      content: `Ask ${turn}: please inspect src/file-${turn}.ts and fix the bug.`,
    });
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading src/file-${turn}.ts.` },
        {
          type: 'tool-call',
          toolCallId: `call-${turn}`,
          toolName: 'readFile',
          input: { path: `src/file-${turn}.ts` },
        },
      ],
    });
    messages.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `call-${turn}`,
          toolName: 'readFile',
          output: { type: 'text', value: filler(toolOutputTokens, turn) },
        },
      ],
    });
    messages.push({
      role: 'assistant',
      content: `Fixed the bug in src/file-${turn}.ts by ${filler(replyTokens, turn)}.`,
    });
  }
  return messages;
}

export function usage(inputTokens?: number): LanguageModelV4Usage {
  return {
    inputTokens: {
      total: inputTokens,
      noCache: inputTokens,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
}

export function textResult(text: string, inputTokens?: number): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: usage(inputTokens),
    warnings: [],
  };
}

export function toolCallResult(
  toolCallId: string,
  toolName: string,
  input: unknown,
): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: usage(),
    warnings: [],
  };
}

export function textStreamParts(text: string, inputTokens?: number): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    ...text.split(' ').map((word, index) => ({
      type: 'text-delta' as const,
      id: 't1',
      delta: index === 0 ? word : ` ${word}`,
    })),
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(inputTokens) },
  ];
}

/** All text of a prompt, for "does it still contain X" assertions. */
export function promptText(prompt: LanguageModelV4Prompt): string {
  return JSON.stringify(prompt);
}

/** A valid handoff, as a function summariser must return it, for tests that compact. */
export const fixBugsHandoff = [
  '## Goal',
  'Fix the bugs in the files.',
  '## Completed actions',
  '1. READ src files',
  '## Relevant files',
  '- src/file-0.ts',
].join('\n');
