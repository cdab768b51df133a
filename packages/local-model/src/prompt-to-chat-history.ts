import type { LanguageModelV4Prompt, SharedV4Warning } from '@ai-sdk/provider';
import { toolOutputText } from '@baton/tokens';

/** The chat history shape node-llama-cpp's chat wrappers render (kept local so the peer stays lazy). */
export type LocalChatItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: string[] };

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The tool result as the text a model without a tool protocol reads; a denial says so. */
function toolResultText(output: unknown): string {
  const text = toolOutputText(output);
  if ((output as { type?: unknown } | null)?.type !== 'execution-denied') return text;
  return `execution denied${text ? `: ${text}` : ''}`;
}

/**
 * Converts an AI SDK provider prompt into the model's chat turns. A small local model has no tool
 * protocol, so tool calls and results become text in the turn that carries them (with a warning);
 * files are dropped (with a warning). Adjacent turns of one role are merged: chat templates expect
 * alternation.
 */
export function promptToChatHistory(prompt: LanguageModelV4Prompt): {
  history: LocalChatItem[];
  warnings: SharedV4Warning[];
} {
  const history: LocalChatItem[] = [];
  const warnings: SharedV4Warning[] = [];
  let toolsAsText = false;
  let filesDropped = false;
  const push = (type: 'system' | 'user' | 'model', text: string) => {
    const last = history.at(-1);
    if (last && last.type === type) {
      if (last.type === 'model') last.response[0] = `${last.response[0]}\n\n${text}`;
      else last.text = `${last.text}\n\n${text}`;
      return;
    }
    history.push(type === 'model' ? { type, response: [text] } : { type, text });
  };
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        push('system', message.content);
        break;
      case 'user': {
        const texts: string[] = [];
        for (const part of message.content) {
          if (part.type === 'text') texts.push(part.text);
          else filesDropped = true;
        }
        push('user', texts.join('\n'));
        break;
      }
      case 'assistant': {
        const texts: string[] = [];
        for (const part of message.content) {
          if (part.type === 'text') texts.push(part.text);
          else if (part.type === 'tool-call') {
            toolsAsText = true;
            texts.push(`[tool call ${part.toolName}] ${json(part.input)}`);
          } else if (part.type === 'tool-result') {
            toolsAsText = true;
            texts.push(`[tool result ${part.toolName}] ${toolResultText(part.output)}`);
          } else if (part.type === 'file' || part.type === 'reasoning-file') filesDropped = true;
        }
        push('model', texts.join('\n'));
        break;
      }
      case 'tool': {
        const texts: string[] = [];
        for (const part of message.content) {
          if (part.type === 'tool-result') {
            toolsAsText = true;
            texts.push(`[tool result ${part.toolName}] ${toolResultText(part.output)}`);
          }
        }
        if (texts.length > 0) push('user', texts.join('\n'));
        break;
      }
    }
  }
  if (toolsAsText) {
    warnings.push({
      type: 'compatibility',
      feature: 'tool messages',
      details: 'the local model has no tool protocol: tool calls and results were sent as text',
    });
  }
  if (filesDropped) {
    warnings.push({
      type: 'unsupported',
      feature: 'file parts',
      details: 'file parts were dropped',
    });
  }
  return { history, warnings };
}
