import { jsonSchema, type Tool, tool } from 'ai';
import {
  type RecallToolInput,
  type RecallToolStore,
  recallInputSchema,
  recallToolDescription,
  resolveRecallSettings,
  runRecall,
} from './run-recall.js';

export type { RecallToolInput, RecallToolMatch, RecallToolStore } from './run-recall.js';
export { recallToolDescription } from './run-recall.js';

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
  const settings = resolveRecallSettings(options);
  return tool({
    description: recallToolDescription,
    inputSchema: jsonSchema<RecallToolInput>(recallInputSchema(settings)),
    execute: (input) => runRecall(store, options.sessionId, input, settings),
  });
}
