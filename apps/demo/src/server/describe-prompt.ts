import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { clipMiddle } from '@baton/compressor';
import { HANDOFF_HEADER, redactSecrets } from '@baton/fallback';
import type { ModelViewMessage } from '../shared/demo-types.js';

/** Longest text shown for one part; the handoff is shown whole. */
const MAX_PART_LENGTH = 600;

const clip = (text: string) => clipMiddle(text, MAX_PART_LENGTH);

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function partText(part: { type: string } & Record<string, unknown>): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return String(part['text'] ?? '');
    case 'tool-call':
      return clip(`→ ${String(part['toolName'])} ${stringify(part['input'])}`);
    case 'tool-result': {
      const output = part['output'] as { type?: string; value?: unknown } | undefined;
      return clip(`← ${String(part['toolName'])}: ${stringify(output?.value ?? output)}`);
    }
    case 'file':
      return `[file ${String(part['mediaType'] ?? '')}]`;
    default:
      return `[${part.type}]`;
  }
}

/**
 * The prompt a model call received, as the page shows it: each message's text (secrets redacted,
 * long tool parts clipped) and its place after a compaction: the head before Baton's handoff, the
 * handoff, and the tail after it. A prompt without a handoff is `uncompacted` throughout.
 */
export function describePrompt(prompt: LanguageModelV4Prompt): ModelViewMessage[] {
  const texts = prompt.map((message) =>
    typeof message.content === 'string'
      ? message.content
      : (message.content as unknown as ({ type: string } & Record<string, unknown>)[])
          .map(partText)
          .filter((text) => text !== '')
          .join('\n'),
  );
  const handoffIndex = prompt.findIndex(
    (message, index) =>
      message.role === 'user' && texts[index]!.trimStart().startsWith(HANDOFF_HEADER),
  );
  return prompt.map((message, index) => ({
    role: message.role,
    section:
      handoffIndex < 0
        ? 'uncompacted'
        : index < handoffIndex
          ? 'head'
          : index === handoffIndex
            ? 'handoff'
            : 'tail',
    text: redactSecrets(
      index === handoffIndex || message.role === 'system' ? texts[index]! : clip(texts[index]!),
    ).text,
  }));
}
