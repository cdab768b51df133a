import type { ModelMessage, ToolResultPart } from '@ai-sdk/provider-utils';
import { toolOutputText } from '@baton/tokens';
import { clipText } from './peer-api.js';

const digestLength = 80;
/**
 * Characters redacted before the digest is cut from them. Far larger than the digest, so a secret
 * that the window boundary could split starts well past what the digest shows; bounded, so a
 * one-line multi-megabyte output is not redacted whole only to keep 80 characters of it.
 */
const digestWindow = 4_096;

/**
 * Redacts first, then clips on whitespace: cutting first would hand the redactor a secret missing
 * its tail, which no rule recognises any more, and leave most of it in the digest.
 */
export function digestOf(text: string, redact: (text: string) => string): string {
  const window = text.length > digestWindow ? text.slice(0, digestWindow) : text;
  const redacted = redact(window).replace(/\s+/g, ' ').trim();
  return clipText(redacted, digestLength);
}

/** `text.split('\n').length`, without the array: masking walks every earlier tool output. */
function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** The first line of `text` that is not blank, trimmed (the lines of `split('\n')`, in order). */
function firstLineOf(text: string): string | undefined {
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end).trim();
    if (line !== '') return line;
    if (end === -1) return undefined;
    start = end + 1;
  }
  return undefined;
}

function placeholder(part: ToolResultPart, text: string, redact: (text: string) => string): string {
  const status = part.output.type.startsWith('error') ? 'error' : 'ok';
  const lines = text === '' ? 0 : lineCount(text);
  const digest = digestOf(firstLineOf(text) ?? '', redact);
  return `[Baton: earlier ${part.toolName} output masked; ${status}; ${lines} lines, ${text.length} chars; first line: "${digest}"]`;
}

/**
 * Observation masking: a copy of a `tool` message whose results become one-line placeholders keeping
 * the tool name, the status and a short digest. The call ids stay, so pairs remain valid. Returns the
 * input message itself when masking would not make it smaller (e.g. already masked, or tiny outputs).
 */
export function maskToolMessage(
  message: ModelMessage,
  redact: (text: string) => string,
): ModelMessage {
  if (message.role !== 'tool') return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-result' || part.output.type === 'execution-denied') return part;
    const text = toolOutputText(part.output);
    const replacement = placeholder(part, text, redact);
    if (replacement.length >= text.length) return part;
    changed = true;
    const masked: ToolResultPart = {
      ...part,
      output: {
        type: part.output.type.startsWith('error') ? 'error-text' : 'text',
        value: replacement,
      },
    };
    return masked;
  });
  return changed ? { ...message, content } : message;
}

/** Tool-call inputs below this many characters stay: masking them would save little. */
const inputMaskThreshold = 600;

/**
 * Second tier of masking, used only when outputs are not enough: large tool-call inputs (file writes,
 * long scripts) of an old assistant message become `{ maskedByBaton: '<one line>' }`. Ids and tool
 * names stay, so pairs remain valid; text and reasoning parts are untouched (reasoning may carry
 * provider signatures). Returns the input message itself when nothing qualifies.
 */
export function maskToolCallInputs(
  message: ModelMessage,
  redact: (text: string) => string,
): ModelMessage {
  if (message.role !== 'assistant' || typeof message.content === 'string') return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-call') return part;
    const text = JSON.stringify(part.input) ?? '';
    if (text.length < inputMaskThreshold) return part;
    changed = true;
    // Newlines inside JSON strings are escaped as the two characters backslash-n.
    const lines = text.split('\\n').length;
    const digest = digestOf(text, redact);
    return {
      ...part,
      input: {
        maskedByBaton: `[Baton: earlier ${part.toolName} input masked; ${lines} lines, ${text.length} chars; starts: ${digest}]`,
      },
    };
  });
  return changed ? { ...message, content } : message;
}
