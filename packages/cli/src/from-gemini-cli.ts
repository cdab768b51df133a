import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { AssistantContent, ToolResultPart } from 'ai';

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const GEMINI_MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/** A converted Gemini CLI session. */
export interface GeminiCliTranscript {
  messages: ModelMessage[];
  warnings: string[];
}

/**
 * A Gemini CLI chat recording (`~/.gemini/tmp/<project hash>/chats/session-*.json`): an object with
 * `sessionId` or `projectHash` and `messages` whose entries carry a `type` (`user`, `gemini`, or a
 * UI notice) instead of a `role`.
 */
export function looksLikeGeminiCli(json: unknown): boolean {
  if (!isObject(json) || !Array.isArray(json.messages)) return false;
  if (!('sessionId' in json) && !('projectHash' in json)) return false;
  return json.messages.every(
    (message) =>
      isObject(message) &&
      !('role' in message) &&
      typeof message.type === 'string' &&
      GEMINI_MESSAGE_TYPES.has(message.type),
  );
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        typeof part === 'string'
          ? part
          : isObject(part) && typeof part.text === 'string'
            ? part.text
            : '',
      )
      .filter((text) => text !== '')
      .join('\n');
  }
  return '';
}

function resultText(call: JsonObject): { text: string; isError: boolean } {
  const failed = call.status === 'error' || call.status === 'cancelled';
  const texts: string[] = [];
  for (const item of Array.isArray(call.result) ? call.result : [call.result]) {
    const response =
      isObject(item) && isObject(item.functionResponse)
        ? item.functionResponse.response
        : undefined;
    if (isObject(response)) {
      const value = response.output ?? response.error ?? response;
      texts.push(typeof value === 'string' ? value : JSON.stringify(value));
    } else if (typeof item === 'string') {
      texts.push(item);
    }
  }
  if (texts.length === 0 && typeof call.resultDisplay === 'string') texts.push(call.resultDisplay);
  if (texts.length === 0)
    texts.push(`(no result recorded; status ${String(call.status ?? 'unknown')})`);
  return { text: texts.join('\n'), isError: failed };
}

/**
 * Converts a Gemini CLI session: `user` -> user; `gemini` -> assistant with its `thoughts` as
 * reasoning (`**subject** description`), `content` as text and `toolCalls` as tool calls (their ids
 * and `args`), each followed by its result from the call's `result[].functionResponse.response`
 * (`output`, or `error` as an error result; `status` error/cancelled marks the result as an error).
 * `info`/`error`/`warning` entries are notices shown in the UI, not sent to the model: skipped.
 */
export function fromGeminiCli(json: { messages: unknown[] }): GeminiCliTranscript {
  const messages: ModelMessage[] = [];
  let notices = 0;
  json.messages.forEach((entry) => {
    if (!isObject(entry)) return;
    if (entry.type === 'user') {
      const text = contentText(entry.content);
      if (text.trim() !== '') messages.push({ role: 'user', content: text });
      return;
    }
    if (entry.type !== 'gemini') {
      notices++;
      return;
    }
    const parts: Exclude<AssistantContent, string> = [];
    for (const thought of Array.isArray(entry.thoughts) ? entry.thoughts : []) {
      if (!isObject(thought)) continue;
      const text = [
        thought.subject ? `**${String(thought.subject)}**` : '',
        String(thought.description ?? ''),
      ]
        .filter((piece) => piece !== '')
        .join(' ');
      if (text.trim() !== '') parts.push({ type: 'reasoning', text });
    }
    const text = contentText(entry.content);
    if (text.trim() !== '') parts.push({ type: 'text', text });
    const results: ToolResultPart[] = [];
    (Array.isArray(entry.toolCalls) ? entry.toolCalls : []).forEach((call, index) => {
      if (!isObject(call)) return;
      const toolCallId =
        typeof call.id === 'string' ? call.id : `gemini-call-${messages.length}-${index}`;
      const toolName = String(call.name ?? 'tool');
      parts.push({ type: 'tool-call', toolCallId, toolName, input: call.args ?? {} });
      const { text: value, isError } = resultText(call);
      results.push({
        type: 'tool-result',
        toolCallId,
        toolName,
        output: { type: isError ? 'error-text' : 'text', value },
      });
    });
    if (parts.length > 0) messages.push({ role: 'assistant', content: parts });
    if (results.length > 0) messages.push({ role: 'tool', content: results });
  });
  const warnings =
    notices > 0
      ? [`skipped ${notices} UI notice${notices === 1 ? '' : 's'} (info, error, warning)`]
      : [];
  return { messages, warnings };
}
