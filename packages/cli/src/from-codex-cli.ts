import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { AssistantContent, ToolResultPart, UserContent } from 'ai';
import { InputFileError } from './input-file-error.js';

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Line types of a Codex CLI rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`). */
export const CODEX_LINE_TYPES = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
]);

/** A converted Codex CLI rollout. */
export interface CodexCliTranscript {
  messages: ModelMessage[];
  /** Non-fatal oddities (an output whose call is missing, a Codex compaction), one line each. */
  warnings: string[];
}

function texts(content: unknown, types: readonly string[]): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (part) =>
        isObject(part) && types.includes(String(part.type)) && typeof part.text === 'string',
    )
    .map((part) => (part as { text: string }).text)
    .join('\n');
}

function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? {};
  try {
    return JSON.parse(text);
  } catch {
    return { arguments: text };
  }
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isObject(output)) {
    if (typeof output.content === 'string') return output.content;
    if (typeof output.output === 'string') return output.output;
    if (Array.isArray(output.content))
      return texts(output.content, ['input_text', 'output_text', 'text']);
  }
  return JSON.stringify(output ?? null);
}

/**
 * Reads a Codex CLI rollout: one `{ timestamp, type, payload }` object per line. `session_meta`'s
 * base instructions become the system message; `response_item`s become messages (developer and
 * system -> system, user -> user, assistant `output_text` -> text, readable reasoning summaries ->
 * reasoning, `function_call`/`custom_tool_call`/`local_shell_call`/`web_search_call` -> tool calls
 * with their `call_id`, `*_output` -> tool results); consecutive assistant items form one message.
 * `event_msg` lines repeat what the response items hold and are skipped, except the user's messages
 * when the rollout has no user `response_item`. `turn_context` is skipped.
 */
export function fromCodexCli(jsonl: string, file = '<input>'): CodexCliTranscript {
  const messages: ModelMessage[] = [];
  const warnings: string[] = [];
  const eventAsks: Array<{ at: number; text: string }> = [];
  const callNames = new Map<string, string>();
  let sawUserItem = false;
  let assistant: Exclude<AssistantContent, string> | undefined;
  let tool: ToolResultPart[] | undefined;

  const flush = () => {
    if (assistant && assistant.length > 0) messages.push({ role: 'assistant', content: assistant });
    if (tool && tool.length > 0) messages.push({ role: 'tool', content: tool });
    assistant = undefined;
    tool = undefined;
  };
  const assistantPart = (part: Exclude<AssistantContent, string>[number]) => {
    if (tool) flush();
    assistant ??= [];
    assistant.push(part);
  };
  const result = (callId: string, text: string, lineNumber: number, isError = false) => {
    const toolName = callNames.get(callId);
    if (toolName === undefined) {
      warnings.push(`line ${lineNumber}: dropped a tool output whose call is not in the rollout`);
      return;
    }
    if (assistant) {
      messages.push({ role: 'assistant', content: assistant });
      assistant = undefined;
    }
    tool ??= [];
    tool.push({
      type: 'tool-result',
      toolCallId: callId,
      toolName,
      output: { type: isError ? 'error-text' : 'text', value: text },
    });
  };

  const lines = jsonl.split('\n');
  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    const line = raw.trim();
    if (line === '') return;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new InputFileError({ file, message: `line ${lineNumber}: invalid JSON` });
    }
    if (!isObject(entry) || !isObject(entry.payload)) return;
    const payload = entry.payload;
    switch (entry.type) {
      case 'session_meta': {
        const base = payload.base_instructions;
        const text = typeof base === 'string' ? base : isObject(base) ? base.text : undefined;
        if (typeof text === 'string' && text.trim() !== '') {
          flush();
          messages.push({ role: 'system', content: text });
        }
        return;
      }
      case 'event_msg':
        if (payload.type === 'user_message' && typeof payload.message === 'string') {
          eventAsks.push({
            at: messages.length + (assistant ? 1 : 0) + (tool ? 1 : 0),
            text: payload.message,
          });
        }
        return;
      case 'compacted':
        warnings.push(
          `line ${lineNumber}: Codex compacted the session here; the turns before it are read as recorded`,
        );
        return;
      case 'response_item':
        break;
      default:
        return;
    }
    const callId = typeof payload.call_id === 'string' ? payload.call_id : undefined;
    switch (payload.type) {
      case 'message': {
        const role = payload.role;
        if (role === 'assistant') {
          const text = texts(payload.content, ['output_text', 'text']);
          if (text.trim() !== '') assistantPart({ type: 'text', text });
          return;
        }
        flush();
        if (role === 'developer' || role === 'system') {
          const text = texts(payload.content, ['input_text', 'text']);
          if (text.trim() !== '') messages.push({ role: 'system', content: text });
          return;
        }
        if (role === 'user') {
          sawUserItem = true;
          const parts: Exclude<UserContent, string> = [];
          for (const part of Array.isArray(payload.content) ? payload.content : []) {
            if (!isObject(part)) continue;
            if (
              (part.type === 'input_text' || part.type === 'text') &&
              typeof part.text === 'string'
            ) {
              parts.push({ type: 'text', text: part.text });
            } else if (part.type === 'input_image' && typeof part.image_url === 'string') {
              parts.push({ type: 'image', image: part.image_url });
            }
          }
          if (typeof payload.content === 'string')
            parts.push({ type: 'text', text: payload.content });
          if (parts.length > 0) {
            messages.push({
              role: 'user',
              content: parts.every((part) => part.type === 'text')
                ? parts.map((part) => (part as { text: string }).text).join('\n')
                : parts,
            });
          }
        }
        return;
      }
      case 'reasoning': {
        const text = texts(payload.summary, ['summary_text']);
        if (text.trim() !== '') assistantPart({ type: 'reasoning', text });
        return;
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call':
      case 'web_search_call': {
        const id =
          callId ?? (typeof payload.id === 'string' ? payload.id : `codex-call-${lineNumber}`);
        const toolName =
          payload.type === 'local_shell_call'
            ? 'local_shell'
            : payload.type === 'web_search_call'
              ? 'web_search'
              : String(payload.name ?? 'tool');
        const input =
          payload.type === 'function_call'
            ? parseArguments(payload.arguments)
            : payload.type === 'custom_tool_call'
              ? { input: payload.input }
              : (payload.action ?? {});
        callNames.set(id, toolName);
        assistantPart({ type: 'tool-call', toolCallId: id, toolName, input });
        // The rollout records no results for searches run on the server: pair the call.
        if (payload.type === 'web_search_call') {
          result(id, '(searched on the server; the rollout records no results)', lineNumber);
        }
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output':
        if (callId !== undefined) {
          const output = payload.output;
          const failed = isObject(output) && output.success === false;
          result(callId, outputText(output), lineNumber, failed);
        }
        return;
      default:
        return;
    }
  });
  flush();
  if (!sawUserItem && eventAsks.length > 0) {
    // Older rollouts log the user's messages only as events: place each where it was logged.
    return { messages: withAsksPlaced(messages, eventAsks), warnings };
  }
  return { messages, warnings };
}

/**
 * `messages` with each ask inserted before the message at its `at` (asks at one place keep their
 * order). One merge pass: a splice per ask costs the messages after it, quadratic in a rollout
 * of many events.
 */
function withAsksPlaced(
  messages: readonly ModelMessage[],
  asks: readonly { at: number; text: string }[],
): ModelMessage[] {
  // `at` never decreases (it is the length of a growing list), so one forward walk places them all.
  const placed: ModelMessage[] = [];
  let next = 0;
  for (let index = 0; index <= messages.length; index++) {
    while (next < asks.length && Math.min(asks[next]!.at, messages.length) <= index) {
      placed.push({ role: 'user', content: asks[next]!.text });
      next++;
    }
    if (index < messages.length) placed.push(messages[index]!);
  }
  return placed;
}

/** The first line is a rollout line: a known `type` and an object `payload`. */
export function looksLikeCodexCli(firstLine: unknown): boolean {
  return (
    isObject(firstLine) &&
    typeof firstLine.type === 'string' &&
    CODEX_LINE_TYPES.has(firstLine.type) &&
    isObject(firstLine.payload)
  );
}
