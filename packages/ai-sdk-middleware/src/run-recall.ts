import { clipMiddle, redactSecrets } from '@baton/fallback';
import { BatonError, estimateTokens } from '@baton/tokens';

/** One match as `store.recall` of `@baton/sessions` returns it (declared structurally). */
export interface RecallToolMatch {
  sessionId: string;
  sequence: number;
  role: string;
  toolName: string | null;
  excerpt: string;
  excerptStart: number;
  excerptEnd: number;
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
      redact?: (text: string) => {
        findings: readonly { start: number; end: number; kind?: string }[];
      };
    },
  ): Promise<{
    matches: RecallToolMatch[];
    searchedSessionIds: string[];
    scanLimited?: boolean;
    rankLimited?: boolean;
  }>;
  /** The session's lineage, root first (`SessionStore.lineage`): finds the session a summary's range numbers. */
  lineage?(sessionId: string): Promise<readonly { id: string }[]>;
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
  'command output, file content, path or decision instead of guessing. Give `query` (exact text such as an error line or path, or keywords; quotes for phrases), or a message range (`fromSequence`, `toSequence`: the numbers of the summary\'s "Messages N–M", or with `sessionId` the sequences of an earlier result), or both. ' +
  'Results are excerpts with their session, sequence, role and tool name.';

/** Settings of one recall tool, resolved from `createRecallTool`'s options (or the middleware's). */
export interface RecallSettings {
  maxOutputTokens: number;
  defaultLimit: number;
  excerptLength: number;
}

/** Fills in and bounds the documented defaults of `maxOutputTokens`, `defaultLimit`, `excerptLength`. */
export function resolveRecallSettings(options: {
  maxOutputTokens?: number | undefined;
  defaultLimit?: number | undefined;
  excerptLength?: number | undefined;
}): RecallSettings {
  return {
    maxOutputTokens: Math.max(200, Math.floor(options.maxOutputTokens ?? 2_000)),
    defaultLimit: Math.min(maxLimit, Math.max(1, Math.floor(options.defaultLimit ?? 5))),
    excerptLength: Math.min(4_000, Math.max(20, Math.floor(options.excerptLength ?? 600))),
  };
}

/** The JSON schema of the tool's input, as the model reads it. */
export function recallInputSchema(settings: RecallSettings) {
  return {
    type: 'object' as const,
    properties: {
      query: {
        type: 'string' as const,
        description: `Text to find, at most ${maxQueryLength} characters. Exact text (an error line, path, identifier) ranks first; keywords also match other word forms.`,
      },
      sessionId: {
        type: 'string' as const,
        description:
          'Session whose sequence numbers the range refers to (from an earlier result). Default: the history the latest compaction replaced, which the summary\'s "Messages N–M" number.',
      },
      fromSequence: {
        type: 'integer' as const,
        minimum: 0,
        description: 'First message of a range.',
      },
      toSequence: { type: 'integer' as const, minimum: 0, description: 'Last message of a range.' },
      limit: {
        type: 'integer' as const,
        minimum: 1,
        maximum: maxLimit,
        description: `Most results (default ${settings.defaultLimit}).`,
      },
    },
  };
}

/**
 * Runs one recall for the model and returns the tool result text. Never throws: bad input and store
 * failures become a result saying what was wrong, so the agent loop goes on. Excerpts are redacted
 * (`redactSecrets` of `@baton/fallback`) by the store before they are cut, and the whole text is
 * capped at `maxOutputTokens`.
 */
export async function runRecall(
  store: RecallToolStore,
  sessionId: string | (() => string | Promise<string>),
  input: unknown,
  settings: RecallSettings,
): Promise<string> {
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
    const from = typeof sessionId === 'function' ? await sessionId() : sessionId;
    const ranged = fromSequence !== undefined || toSequence !== undefined;
    const rangeSession =
      rangeSessionId ?? (ranged ? await replacedSession(store, from) : undefined);
    const result = await store.recall(from, {
      ...(query === undefined ? {} : { query }),
      ...(rangeSession === undefined ? {} : { rangeSessionId: rangeSession }),
      ...(fromSequence === undefined ? {} : { fromSequence }),
      ...(toSequence === undefined ? {} : { toSequence }),
      limit: limit ?? settings.defaultLimit,
      excerptLength: settings.excerptLength,
      // Redacted before the excerpt is cut: a credential at its edge is replaced whole, never cut.
      redact: redactSecrets,
    });
    return render(result, query !== undefined, settings.maxOutputTokens);
  } catch (error) {
    return `Recall failed: ${describeFailure(error)}`;
  }
}

/**
 * The session the latest compaction replaced (the head's parent): its sequences are the indexes of the
 * history that compaction received, which the summary's note names ("Messages N–M"), so a range read
 * from the note reads those messages. Undefined (the current session) without a parent, or when the
 * store cannot list the lineage.
 */
async function replacedSession(store: RecallToolStore, from: string): Promise<string | undefined> {
  if (typeof store.lineage !== 'function') return undefined;
  const chain = await store.lineage(from);
  return chain.length >= 2 ? chain[chain.length - 2]!.id : undefined;
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
        return `${error.message}. Use a session and sequences from an earlier result.`;
      case 'recall_query':
      case 'invalid_input':
        return `${error.message}.`;
      default:
        return `the session store could not answer (${error.code}). Try again later.`;
    }
  }
  return 'the session store could not answer. Try again later.';
}

function render(
  result: { matches: readonly RecallToolMatch[]; scanLimited?: boolean; rankLimited?: boolean },
  searched: boolean,
  maxTokens: number,
): string {
  const { matches } = result;
  // The store could read only its newest messages verbatim (no trigram index): say how to go further.
  const limitedNote = `${
    result.scanLimited
      ? '\n\n(Exact-text search covered only the most recent messages; for older ones add words or give a range.)'
      : ''
  }${
    result.rankLimited
      ? '\n\n(Many messages match: only the most recent of them were ranked. For older ones add words, use an exact fragment or give a range.)'
      : ''
  }`;
  if (matches.length === 0) {
    return `${
      searched
        ? 'No earlier message matches. Try fewer or different words, or an exact fragment.'
        : 'No messages in that range.'
    }${limitedNote}`;
  }
  const header = `${matches.length} earlier message${matches.length === 1 ? '' : 's'} (best first; excerpts, redacted):`;
  const parts = [header];
  let used = estimateTokens(header);
  let shown = 0;
  for (const [index, match] of matches.entries()) {
    const where = `[${index + 1}] session ${match.sessionId}, sequence ${match.sequence}, ${match.role}${
      match.toolName ? ` (tool ${match.toolName})` : ''
    }, characters ${match.excerptStart}-${match.excerptEnd} of ${match.textLength}${
      match.matchedBy === 'exact' ? ', exact match' : ''
    }:`;
    // Already redacted in the store; again here in case a store ignored `redact` (idempotent).
    let excerpt = redactSecrets(match.excerpt).text;
    const room = maxTokens - used - estimateTokens(where) - 40;
    if (room <= 20) break;
    // The excerpt's start (where the store centred it), with how much of it was left out.
    excerpt = clipMiddle(excerpt, room, { counter: estimateCounter, tailShare: 0 });
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
  return `${parts.join('\n\n')}${limitedNote}`;
}

const estimateCounter = { count: (text: string) => estimateTokens(text) };
