import type { ModelMessage } from '@ai-sdk/provider-utils';
import { InvalidInputError } from '@baton/tokens';
import type { AssistantContent, ToolResultPart, UserContent } from 'ai';
import { toolCallIdText } from './tool-call-id-text.js';

type JsonObject = Record<string, unknown>;

/** A block type as written when it is an identifier (`server_tool_use`); anything else is withheld. */
function blockType(type: unknown): string {
  return typeof type === 'string' && /^[a-z][a-z0-9_]{0,40}$/.test(type) && !/\d.*\d.*\d/.test(type)
    ? `'${type}'`
    : '(not shown)';
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface FromClaudeCodeOptions {
  /**
   * Which part of a session that Claude Code compacted to read.
   * `'live'` (default): what the model sees now, i.e. from the last `compact_boundary` on, starting
   * with Claude Code's own summary as a user message. `'all'`: every recorded turn; the summaries stay
   * in place as user messages.
   */
  history?: 'live' | 'all';
  /**
   * Keep subagent (`isSidechain`) lines. Default: only when every conversational line is a sidechain
   * line, i.e. the file is a subagent transcript; in a main session they are another conversation
   * interleaved with this one, and mixing them would corrupt the turn order.
   */
  sidechains?: boolean;
}

/** What `fromClaudeCode` returns. */
export interface ClaudeCodeTranscript {
  messages: ModelMessage[];
  /** `compact_boundary` lines seen (Claude Code compactions recorded in the file). */
  compactions: number;
  /** Non-fatal oddities (orphaned tool results dropped, unknown blocks skipped), one line each. */
  warnings: string[];
}

/**
 * Reads a Claude Code session file (`~/.claude/projects/<project>/<session>.jsonl`) into AI SDK
 * `ModelMessage[]`.
 *
 * - Only `user` and `assistant` lines carry conversation; `progress`, `file-history-snapshot`,
 *   `queue-operation` and other `system` lines are skipped.
 * - Assistant lines sharing `message.id` are one API response streamed as several lines (thinking,
 *   text, each `tool_use`): they are merged into one assistant message at the first line's place.
 * - `tool_use` -> tool-call, `tool_result` -> tool-result (`is_error` -> `error-text`; text blocks
 *   joined, images replaced by `[image omitted]`), `thinking` -> reasoning (`redacted_thinking` dropped:
 *   it has no readable text), whitespace-only text dropped.
 * - A tool result whose call is not in the output (its call was before the compact boundary) is
 *   dropped with a warning: providers reject a result without its call.
 * - Lines are taken in file order (Claude Code appends them in order; `parentUuid` is not followed).
 *
 * Throws `InvalidInputError` (`path: 'line N'`) for a line that is not a JSON object.
 */
export function fromClaudeCode(
  jsonl: string,
  options: FromClaudeCodeOptions = {},
): ClaudeCodeTranscript {
  const history = options.history ?? 'live';
  const lines: Array<{ line: JsonObject; number: number }> = [];
  jsonl.split('\n').forEach((text, index) => {
    if (text.trim() === '') return;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch (error) {
      throw new InvalidInputError({
        path: `line ${index + 1}`,
        message: `invalid JSON (${(error as Error).message})`,
        cause: error,
      });
    }
    if (!isObject(line)) {
      throw new InvalidInputError({ path: `line ${index + 1}`, message: 'expected a JSON object' });
    }
    lines.push({ line, number: index + 1 });
  });

  const conversational = lines.filter(
    ({ line }) => line.type === 'user' || line.type === 'assistant',
  );
  const keepSidechains =
    options.sidechains ?? conversational.every(({ line }) => line.isSidechain === true);

  const warnings: string[] = [];
  let messages: ModelMessage[] = [];
  let compactions = 0;
  // message.id -> the merged assistant message (only within the current live window).
  let assistantById = new Map<string, Exclude<AssistantContent, string>>();
  let toolNames = new Map<string, string>();

  for (const { line, number } of lines) {
    if (line.type === 'system' && line.subtype === 'compact_boundary') {
      compactions += 1;
      // No response spans a compaction, so lines after it never merge into a message before it.
      assistantById = new Map();
      if (history === 'live') {
        messages = [];
        toolNames = new Map();
      }
      continue;
    }
    if (line.type !== 'user' && line.type !== 'assistant') continue;
    if (line.isSidechain === true && !keepSidechains) continue;
    const message = line.message;
    if (!isObject(message)) {
      throw new InvalidInputError({
        path: `line ${number}.message`,
        message: 'expected an object',
      });
    }

    if (line.type === 'assistant') {
      const parts = assistantParts(message.content, number, warnings);
      for (const part of parts)
        if (part.type === 'tool-call') toolNames.set(part.toolCallId, part.toolName);
      const id = typeof message.id === 'string' ? message.id : undefined;
      const existing = id === undefined ? undefined : assistantById.get(id);
      if (existing) {
        existing.push(...parts);
        continue;
      }
      const content: Exclude<AssistantContent, string> = parts;
      if (id !== undefined) assistantById.set(id, content);
      messages.push({ role: 'assistant', content });
      continue;
    }

    const { results, user } = userParts(message.content, number, toolNames, warnings);
    if (results.length > 0) {
      const previous = messages.at(-1);
      if (previous?.role === 'tool') previous.content.push(...results);
      else messages.push({ role: 'tool', content: results });
    }
    if (user !== undefined) messages.push({ role: 'user', content: user });
  }

  // Every line of a response may have been whitespace or redacted thinking.
  messages = messages.filter(
    (message) => !(message.role === 'assistant' && message.content.length === 0),
  );
  return { messages, compactions, warnings };
}

function assistantParts(
  content: unknown,
  lineNumber: number,
  warnings: string[],
): Exclude<AssistantContent, string> {
  if (typeof content === 'string') {
    return content.trim() === '' ? [] : [{ type: 'text', text: content }];
  }
  if (!Array.isArray(content)) {
    throw new InvalidInputError({
      path: `line ${lineNumber}.message.content`,
      message: 'expected a string or an array of blocks',
    });
  }
  const parts: Exclude<AssistantContent, string> = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') {
      if (block.text.trim() !== '') parts.push({ type: 'text', text: block.text });
    } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
      if (block.thinking.trim() !== '') parts.push({ type: 'reasoning', text: block.thinking });
    } else if (block.type === 'tool_use' && typeof block.id === 'string') {
      parts.push({
        type: 'tool-call',
        toolCallId: block.id,
        toolName: typeof block.name === 'string' ? block.name : 'unknown',
        input: block.input ?? {},
      });
    } else if (block.type !== 'redacted_thinking') {
      warnings.push(`line ${lineNumber}: skipped assistant block of type ${blockType(block.type)}`);
    }
  }
  return parts;
}

function userParts(
  content: unknown,
  lineNumber: number,
  toolNames: ReadonlyMap<string, string>,
  warnings: string[],
): { results: ToolResultPart[]; user: UserContent | undefined } {
  if (typeof content === 'string') return { results: [], user: content };
  if (!Array.isArray(content)) {
    throw new InvalidInputError({
      path: `line ${lineNumber}.message.content`,
      message: 'expected a string or an array of blocks',
    });
  }
  const results: ToolResultPart[] = [];
  const user: Exclude<UserContent, string> = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
      const toolName = toolNames.get(block.tool_use_id);
      if (toolName === undefined) {
        warnings.push(
          `line ${lineNumber}: dropped tool result ${toolCallIdText(block.tool_use_id)} (its call is not in the transcript)`,
        );
        continue;
      }
      const value = resultText(block.content);
      results.push({
        type: 'tool-result',
        toolCallId: block.tool_use_id,
        toolName,
        output: block.is_error === true ? { type: 'error-text', value } : { type: 'text', value },
      });
    } else if (block.type === 'text' && typeof block.text === 'string') {
      user.push({ type: 'text', text: block.text });
    } else if (block.type === 'image') {
      const source = isObject(block.source) ? block.source : {};
      if (source.type === 'base64' && typeof source.data === 'string') {
        user.push({
          type: 'image',
          image: source.data,
          ...(typeof source.media_type === 'string' ? { mediaType: source.media_type } : {}),
        });
      } else if (source.type === 'url' && typeof source.url === 'string') {
        user.push({ type: 'image', image: source.url });
      } else {
        user.push({ type: 'text', text: '[image omitted]' });
      }
    } else {
      warnings.push(`line ${lineNumber}: skipped user block of type ${blockType(block.type)}`);
    }
  }
  return { results, user: user.length > 0 ? user : undefined };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : JSON.stringify(content);
  return content
    .map((block) => {
      if (isObject(block) && block.type === 'text' && typeof block.text === 'string')
        return block.text;
      if (isObject(block) && block.type === 'image') return '[image omitted]';
      return JSON.stringify(block);
    })
    .join('\n');
}
