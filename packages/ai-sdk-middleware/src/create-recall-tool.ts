import { redactSecrets } from '@baton/fallback';
import { BatonError, estimateTokens } from '@baton/tokens';
import { jsonSchema, type Tool, tool } from 'ai';

/** One match as `store.recall` of `@baton/sessions` returns it (declared structurally). */
export interface RecallToolMatch {
  sessionId: string;
  sequence: number;
  role: string;
  toolName: string | null;
  excerpt: string;
  excerptStart: number;
  textLength: number;
  matchedBy: 'exact' | 'text' | 'range';
}

/**
 * The part of a `SessionStore` from `@baton/sessions` the tool uses. Declared here, structurally, so
 * this package's types do not require `@baton/sessions` to be installed.
 */
export interface RecallToolStore {
  recall(
    sessionId: string,
    options: {
      query?: string;
      rangeSessionId?: string;
      fromSequence?: number;
      toSequence?: number;
      limit?: number;
      excerptLength?: number;
    },
  ): Promise<{ matches: RecallToolMatch[]; searchedSessionIds: string[] }>;
}

export interface CreateRecallToolOptions {
  /** The lineage store (`createSessionStore()` of `@baton/sessions`). */
  store: RecallToolStore;
  /**
   * The session to recall from: its whole lineage (it and its ancestors) is searched. A function is
   * called on every tool call, so a conversation that is compacted while it runs can point at its
   * current head (ancestors of an older session do not include later compactions).
   */
  sessionId: string | (() => string | Promise<string>);
  /** Upper bound of the tool result, in estimated tokens (o200k). Default `2000`, at least `200`. */
  maxOutputTokens?: number;
  /** Matches per call when the model does not ask for fewer. Default `5`, at most `20`. */
  defaultLimit?: number;
  /** Characters of text around each match. Default `600`. */
  excerptLength?: number;
}

/** What the model may pass (every field optional; checked in `execute`, not by the SDK). */
export interface RecallToolInput {
  query?: unknown;
  sessionId?: unknown;
  fromSequence?: unknown;
  toSequence?: unknown;
  limit?: unknown;
}

const maxQueryLength = 1_000;
const maxLimit = 20;

/** The tool's description, as the model reads it. */
export const recallToolDescription =
  'Search the earlier, compacted part of this conversation. Compaction replaced older turns with a ' +
  'summary, but every original message is kept: use this to get back an exact error message, ' +
  'command output, file content, path or decision instead of guessing. Give `query` (exact text such as an error line or path, or keywords; quotes for phrases), or a message range (`sessionId` from an earlier result or the summary, `fromSequence`, `toSequence`), or both. ' +
  'Results are excerpts with their session, sequence, role and tool name.';

/**
 * An AI SDK tool that lets the model read back what compaction removed from its view, through
 * `store.recall`. Add it as `tools: { recall: createRecallTool({ store, sessionId }) }`.
 *
 * Bad input (a blank or too long query, an unknown session, a range outside the lineage) and store
 * failures come back as a normal tool result saying what was wrong: the tool never throws, so the
 * agent loop goes on. Excerpts are redacted (`redactSecrets` of `@baton/fallback`) on the way out,
 * and the whole result is capped at `maxOutputTokens`.
 */
export function createRecallTool(options: CreateRecallToolOptions): Tool<RecallToolInput, string> {
  const { store } = options;
  if (typeof store?.recall !== 'function') {
    throw new TypeError('createRecallTool: `store` must have a recall method (@baton/sessions)');
  }
  const maxOutputTokens = Math.max(200, Math.floor(options.maxOutputTokens ?? 2_000));
  const defaultLimit = Math.min(maxLimit, Math.max(1, Math.floor(options.defaultLimit ?? 5)));
  const excerptLength = Math.min(4_000, Math.max(20, Math.floor(options.excerptLength ?? 600)));

  return tool({
    description: recallToolDescription,
    inputSchema: jsonSchema<RecallToolInput>({
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: `Text to find, at most ${maxQueryLength} characters. Exact text (an error line, path, identifier) ranks first; keywords also match other word forms.`,
        },
        sessionId: {
          type: 'string',
          description:
            'Session whose sequence numbers the range refers to (from an earlier result). Default: the current session.',
        },
        fromSequence: { type: 'integer', minimum: 0, description: 'First message of a range.' },
        toSequence: { type: 'integer', minimum: 0, description: 'Last message of a range.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: maxLimit,
          description: `Most results (default ${defaultLimit}).`,
        },
      },
    }),
    execute: async (input) => {
      const problem = checkInput(input);
      if (problem) return `Recall was not run: ${problem}`;
      const {
        query,
        sessionId: rangeSessionId,
        fromSequence,
        toSequence,
        limit,
      } = input as {
        query?: string;
        sessionId?: string;
        fromSequence?: number;
        toSequence?: number;
        limit?: number;
      };
      try {
        const sessionId =
          typeof options.sessionId === 'function' ? await options.sessionId() : options.sessionId;
        const result = await store.recall(sessionId, {
          ...(query === undefined ? {} : { query }),
          ...(rangeSessionId === undefined ? {} : { rangeSessionId }),
          ...(fromSequence === undefined ? {} : { fromSequence }),
          ...(toSequence === undefined ? {} : { toSequence }),
          limit: limit ?? defaultLimit,
          excerptLength,
        });
        return render(result.matches, query !== undefined, maxOutputTokens);
      } catch (error) {
        return `Recall failed: ${describeFailure(error)}`;
      }
    },
  });
}

function checkInput(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return 'the input must be an object such as {"query": "..."}.';
  }
  const { query, sessionId, fromSequence, toSequence, limit } = input as RecallToolInput;
  if (query !== undefined && typeof query !== 'string') return '`query` must be a string.';
  if (typeof query === 'string') {
    if (query.trim() === '') return '`query` is empty; give the text to look for.';
    if (query.length > maxQueryLength) {
      return `\`query\` has ${query.length} characters; at most ${maxQueryLength} are allowed. Search for a distinctive part.`;
    }
  }
  if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId === '')) {
    return '`sessionId` must be a non-empty string.';
  }
  for (const [name, value] of [
    ['fromSequence', fromSequence],
    ['toSequence', toSequence],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 0)) {
      return `\`${name}\` must be a whole number from 0.`;
    }
  }
  if (
    limit !== undefined &&
    (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > maxLimit)
  ) {
    return `\`limit\` must be a whole number from 1 to ${maxLimit}.`;
  }
  if (query === undefined && fromSequence === undefined && toSequence === undefined) {
    return 'give a `query`, a range (`fromSequence`/`toSequence`), or both.';
  }
  return undefined;
}

/** What went wrong, in words the model can act on; never the raw driver text. */
function describeFailure(error: unknown): string {
  if (BatonError.isInstance(error)) {
    switch (error.code) {
      case 'session_not_found':
        return 'that session does not exist. Leave `sessionId` out to search the current conversation.';
      case 'recall_range':
        return `${error.message}. Use a session and sequences from an earlier result or the summary.`;
      case 'recall_query':
      case 'invalid_input':
        return `${error.message}.`;
      default:
        return `the session store could not answer (${error.code}). Try again later.`;
    }
  }
  return 'the session store could not answer. Try again later.';
}

function render(matches: readonly RecallToolMatch[], searched: boolean, maxTokens: number): string {
  if (matches.length === 0) {
    return searched
      ? 'No earlier message matches. Try fewer or different words, or an exact fragment.'
      : 'No messages in that range.';
  }
  const header = `${matches.length} earlier message${matches.length === 1 ? '' : 's'} (best first; excerpts, redacted):`;
  const parts = [header];
  let used = estimateTokens(header);
  let shown = 0;
  for (const [index, match] of matches.entries()) {
    const where = `[${index + 1}] session ${match.sessionId}, sequence ${match.sequence}, ${match.role}${
      match.toolName ? ` (tool ${match.toolName})` : ''
    }, characters ${match.excerptStart}-${match.excerptStart + match.excerpt.length} of ${match.textLength}${
      match.matchedBy === 'exact' ? ', exact match' : ''
    }:`;
    let excerpt = redactSecrets(match.excerpt).text;
    const room = maxTokens - used - estimateTokens(where) - 40;
    if (room <= 20) break;
    if (estimateTokens(excerpt) > room) excerpt = clipToTokens(excerpt, room);
    const block = `${where}\n${excerpt}`;
    parts.push(block);
    used += estimateTokens(block) + 1;
    shown++;
  }
  if (shown < matches.length) {
    parts.push(
      `(${matches.length - shown} more not shown to stay within ${maxTokens} tokens: narrow the query or the range.)`,
    );
  }
  return parts.join('\n\n');
}

/** The longest prefix of `text` estimated at most `tokens`, by halving. */
function clipToTokens(text: string, tokens: number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimateTokens(text.slice(0, middle)) <= tokens) low = middle;
    else high = middle - 1;
  }
  return `${text.slice(0, low)}…`;
}
