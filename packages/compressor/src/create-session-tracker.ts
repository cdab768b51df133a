import type { ModelMessage } from '@ai-sdk/provider-utils';
import { redactMessages } from '@baton/fallback';
import { BatonError } from '@baton/tokens';
import type { BackgroundCompaction } from './background-compaction.js';
import { hashMessage } from './fingerprint-messages.js';
import {
  isRewriteRecipe,
  type RewriteRecipe,
  rebuildRewrite,
  rewriteRecipes,
} from './rewrite-recipe.js';
import { sameMessage } from './same-message.js';
import { toJsonMessage } from './to-json-message.js';
import type { CompactionEvent, CompressResult } from './types.js';

/** What the context manager reads of a stored session. */
export interface CompactionStoreSession {
  id: string;
  rootId: string;
  metadata: Record<string, unknown> | null;
  endReason?: string | null;
}

/**
 * The part of a `SessionStore` from `@baton/sessions` the context manager uses. Declared here,
 * structurally, so this package neither loads nor requires `@baton/sessions`; any store with these
 * methods (and the same one-child-per-parent guarantee) works.
 */
export interface CompactionStore {
  createSession(options?: {
    id?: string;
    metadata?: Record<string, unknown>;
  }): Promise<CompactionStoreSession>;
  appendMessages(
    sessionId: string,
    messages: readonly ModelMessage[],
    options?: { startSequence?: number; verifySkipped?: boolean },
  ): Promise<unknown>;
  recordCompaction(
    parentId: string,
    result: {
      messages: readonly ModelMessage[];
      summary: string | undefined;
      strategy: string;
      usedFallback: boolean;
      fallbackReason?: string | undefined;
      tokensBefore: number;
      tokensAfter: number;
      event?: CompactionEvent;
    },
    options?: { metadata?: Record<string, unknown>; expectedMessageCount?: number },
  ): Promise<{ child: CompactionStoreSession }>;
  resume(id: string): Promise<{ session: CompactionStoreSession; messages: ModelMessage[] }>;
  /** Used when the app's history diverges from the stored one (an edited or regenerated message). */
  fork(
    id: string,
    options?: {
      throughSequence?: number;
      metadata?: Record<string, unknown>;
      /** Ends the source with this reason in the same transaction (the lineage keeps one open head). */
      endSource?: string;
    },
  ): Promise<CompactionStoreSession>;
  endSession(id: string, reason?: string): Promise<unknown>;
  listSessions(options?: {
    rootId?: string;
    limit?: number;
    includeEnded?: boolean;
  }): Promise<CompactionStoreSession[]>;
  /**
   * The chain of sessions from the root to `id`. With `getMessages`, lets a process that is behind
   * tell an older request (a prefix of the stored history) from an edited one. Optional: without
   * them such a request forks, as an edit does.
   */
  lineage?(id: string): Promise<CompactionStoreSession[]>;
  getMessages?(
    sessionId: string,
    options?: { fromSequence?: number; limit?: number },
  ): Promise<{ message: unknown }[]>;
}

/** What the context manager remembers of one conversation between calls. */
export interface SessionState {
  readonly key: string;
  /** Root of the lineage in the store (the user's session id), when there is a store. */
  readonly sessionId: string | undefined;
  /** Newest session of the lineage: the one raw messages are appended to. */
  headId: string | undefined;
  headMetadata: Record<string, unknown> | null;
  /** The latest compaction, if any: `compacted` replaces the first `coveredRawCount` raw messages. */
  compaction: CompactionState | undefined;
  /** Raw messages (indexes into the app's history) already written to the store. */
  persistedRawCount: number;
  /**
   * The raw messages written, as received, by raw index (entries before the compaction's
   * `coveredRawCount` may be missing). Undefined after a reload until `storedRaw` was checked.
   */
  persistedMessages: unknown[] | undefined;
  /** After a reload: the stored raw messages from raw index `start`, to check the next request against. */
  storedRaw: { start: number; messages: ModelMessage[] } | undefined;
  /** Without a store: compactions of other conversations sharing this state's key, most recent first. */
  otherCompactions: CompactionState[];
  /** Calibration ratios per model read back from the store (`metadata.baton.calibration`). */
  storedCalibration: Record<string, number> | undefined;
  /**
   * After a compaction that could not save enough, the request size (calibrated) below which the
   * context manager does not try again, so a tool loop does not pay for a useless compaction every step.
   */
  retryAboveTokens: number | undefined;
  /** The conversation's background compaction, while one is running or waits for the trigger. */
  background: BackgroundCompaction | undefined;
  /** Summariser calls of discarded background jobs since the last compaction. */
  backgroundWasted: number;
}

export interface CompactionState {
  coveredRawCount: number;
  compacted: ModelMessage[];
  /**
   * `fingerprintMessages` of the raw messages the compaction covered, as stored: sealed under the
   * record key (see `storedFingerprint`; bare in rows written before the seal or without a key).
   */
  prefixFingerprint: string;
  /** `contentFingerprint` of them (absent in sessions written before it existed). */
  prefixContentHash?: string | undefined;
  /** Counted tokens (sum per message, uncalibrated) of the covered raw messages, once known. */
  coveredRawTokens: number | undefined;
  /** The covered raw messages as last received (compared instead of hashed), once known. */
  coveredRaw?: readonly unknown[] | undefined;
  /** Read from the store: the head and tail it kept verbatim are in their stored (redacted) form. */
  fromStore?: boolean;
  /**
   * Read from the store: by compacted index, the raw index of the app message kept there verbatim
   * (-1 for Baton's inserts and rewritten messages), as the compacting process knew it.
   */
  verbatimRawIndexes?: readonly number[] | undefined;
  /** Read from the store: how to rebuild the rewritten messages it holds redacted. */
  rewriteRecipes?: readonly RewriteRecipe[] | undefined;
}

/** Stored on the child session so a new process can splice without re-compacting. */
interface StoredCompactionMetadata {
  coveredRawCount: number;
  compactedMessageCount: number;
  prefixFingerprint: string;
  /** See `CompactionState.prefixContentHash`. */
  prefixContentHash?: string;
  coveredRawTokens?: number;
  /** See `CompactionState.verbatimRawIndexes`; absent in sessions written before it existed. */
  verbatimRawIndexes?: number[];
  /** See `rewriteRecipes`; only for rewrites whose stored form differs from what was sent. */
  rewriteRecipes?: RewriteRecipe[];
}

/** Compactions of other conversations kept per state when there is no store. */
const rememberedCompactions = 8;

/**
 * `@baton/sessions` is an optional peer, so its error classes are not imported: its errors are
 * recognised by `code`, which every `BatonError` carries and which is part of the public API.
 */
function hasCode(error: unknown, ...codes: string[]): boolean {
  return BatonError.isInstance(error) && codes.includes(error.code);
}

/** Least recently used conversations beyond this many are forgotten (they reload from the store). */
const rememberedConversations = 256;

export interface SessionTracker {
  /** Runs `task` with the conversation's state, one call at a time per conversation. */
  withState<T>(
    key: string,
    sessionId: string | undefined,
    task: (state: SessionState) => Promise<T>,
  ): Promise<T>;
  /** Appends the raw messages the store does not have yet to the head session (idempotent by sequence). */
  persistRaw(state: SessionState, raw: readonly ModelMessage[]): Promise<void>;
  /**
   * Records a compaction of the head (whose history must be exactly the compressor's input) covering
   * the first `rawCount` raw messages. Returns the child session id, or undefined without a store.
   * On a lost race (the head was compacted or appended to by another process meanwhile) the state
   * is reloaded from the store and `conflict` is returned.
   */
  recordCompaction(
    state: SessionState,
    result: CompressResult<ModelMessage>,
    compaction: CompactionState,
    details?: Record<string, unknown>,
  ): Promise<string | undefined | 'conflict'>;
  /**
   * Moves the head to a fork of the lineage holding `raw` when the request no longer starts with the
   * stored history (an edited or regenerated message) or with the compaction's covered prefix
   * (`compactionDiverged`). The old sessions stay as they were. Returns the new head id, if any.
   */
  branchIfDiverged(
    state: SessionState,
    raw: readonly ModelMessage[],
    compactionDiverged: boolean,
  ): Promise<string | undefined>;
  /**
   * After a reload, puts the app's own messages back where the compacted history read from the
   * store holds their stored form (the head and tail a compaction keeps verbatim), once the request
   * is known to start with the history the compaction covered (`spliceAt`).
   */
  restoreVerbatim(state: SessionState, raw: readonly ModelMessage[], spliceAt: number): void;
  /**
   * After a reload, whether the request's system messages within the covered history sit elsewhere
   * than where the compaction found them (one added, removed or moved). The prefix check skips
   * system messages, so only this tells it; the process that compacted compares positions and
   * takes such a request for an edit (a fork), and so must a restarted one, else it sends the
   * compaction's copy of a moved instruction besides the app's.
   */
  systemMessagesMoved(state: SessionState, raw: readonly ModelMessage[], spliceAt: number): boolean;
}

export function createSessionTracker(
  store: CompactionStore | undefined,
  {
    redact = true,
    sealKey,
  }: {
    redact?: boolean;
    /** The record key: whole-content hashes and rewrite recipes are stored only under one. */
    sealKey?: Uint8Array | undefined;
  } = {},
): SessionTracker {
  const states = new Map<string, SessionState>();
  // Stored sessions outlive the process and get copied around: secrets go in as redaction markers.
  const forStorage = (messages: ModelMessage[]): ModelMessage[] =>
    (redact ? redactMessages(messages).messages : messages).map(toJsonMessage);
  const queues = new Map<string, Promise<unknown>>();

  async function load(key: string, sessionId: string | undefined): Promise<SessionState> {
    const state: SessionState = {
      key,
      sessionId,
      headId: undefined,
      headMetadata: null,
      compaction: undefined,
      persistedRawCount: 0,
      persistedMessages: [],
      storedRaw: undefined,
      otherCompactions: [],
      storedCalibration: undefined,
      retryAboveTokens: undefined,
      background: undefined,
      backgroundWasted: 0,
    };
    if (store === undefined || sessionId === undefined) return state;
    await reload(state);
    return state;
  }

  async function reload(state: SessionState): Promise<void> {
    if (store === undefined || state.sessionId === undefined) return;
    let resumed: { session: CompactionStoreSession; messages: ModelMessage[] };
    try {
      resumed = await store.resume(state.sessionId);
    } catch (error) {
      if (!hasCode(error, 'session_not_found')) throw error;
      try {
        const created = await store.createSession({ id: state.sessionId });
        resumed = { session: created, messages: [] };
      } catch (createError) {
        // Another process created it first (its first call raced ours): use theirs.
        if (!hasCode(createError, 'session_exists')) throw createError;
        resumed = await store.resume(state.sessionId);
      }
    }
    // A head left for a branch: continue in the branch opened from it (`baton.branchOf`), and on
    // past branches of that. Not merely the newest open session of the root: an app that forks in
    // the store has several open heads there, and a restarted process of one would go on in
    // another conversation's line (and end it with a branch of its own history).
    if (resumed.session.endReason === branchedReason) {
      const sessions = await store.listSessions({
        rootId: resumed.session.rootId,
        includeEnded: true,
        limit: branchLookupLimit,
      });
      const branches = new Map<string, string>();
      for (const session of sessions) {
        const from = branchOfSession(session);
        if (from !== undefined && !branches.has(from)) branches.set(from, session.id);
      }
      let next = branches.get(resumed.session.id);
      if (next === undefined) {
        // A store that lists no ended sessions or no metadata: the newest open session, as before.
        const [newest] = await store.listSessions({ rootId: resumed.session.rootId, limit: 1 });
        next = newest?.id;
      }
      // Each hop reaches a session created later, so the walk ends; the bound guards a bad store.
      for (let hops = 0; next !== undefined && hops <= sessions.length; hops++) {
        resumed = await store.resume(next);
        if (resumed.session.endReason !== branchedReason) break;
        next = branches.get(resumed.session.id);
      }
    }
    const { session, messages } = resumed;
    state.headId = session.id;
    state.headMetadata = session.metadata;
    state.persistedMessages = undefined;
    state.storedCalibration = readCalibration(session);
    const stored = readMetadata(session);
    if (stored === undefined || session.id === session.rootId) {
      state.compaction = undefined;
      state.persistedRawCount = messages.length;
      state.storedRaw = { start: 0, messages };
      return;
    }
    const compactedCount = Math.min(stored.compactedMessageCount, messages.length);
    state.compaction = {
      coveredRawCount: stored.coveredRawCount,
      compacted: messages.slice(0, compactedCount),
      prefixFingerprint: stored.prefixFingerprint,
      prefixContentHash: stored.prefixContentHash,
      coveredRawTokens: stored.coveredRawTokens,
      fromStore: true,
      rewriteRecipes: stored.rewriteRecipes,
      verbatimRawIndexes:
        stored.verbatimRawIndexes?.length === compactedCount
          ? stored.verbatimRawIndexes
          : undefined,
    };
    state.persistedRawCount = stored.coveredRawCount + (messages.length - compactedCount);
    state.storedRaw = { start: stored.coveredRawCount, messages: messages.slice(compactedCount) };
  }

  /** First raw index in [covered, persisted) where `raw` differs from what the store holds. */
  function divergence(state: SessionState, raw: readonly ModelMessage[]): number | undefined {
    const covered = state.compaction?.coveredRawCount ?? 0;
    const end = Math.min(raw.length, state.persistedRawCount);
    if (state.persistedMessages === undefined) {
      // First request after a reload: compare in the stored form (redacted JSON), once.
      const storedRaw = state.storedRaw;
      const known: unknown[] = [];
      for (let index = covered; index < end; index++) {
        // Instructions rebuilt per call (dates, tool lists) are not an edit of the history.
        if (raw[index]?.role === 'system') continue;
        const stored = storedRaw?.messages[index - (storedRaw?.start ?? 0)];
        const sent = forStorage([raw[index] as ModelMessage])[0];
        if (stored === undefined || !sameMessage(stored, sent)) return index;
        known[index] = raw[index];
      }
      // A shorter request checked only part of the stored history: keep it for the next request.
      if (raw.length >= state.persistedRawCount) {
        state.persistedMessages = known;
        state.storedRaw = undefined;
      }
    } else {
      const known = state.persistedMessages;
      for (let index = covered; index < end; index++) {
        const message = raw[index];
        if (!(index in known) || message?.role === 'system') continue;
        // Usually the same strings in fresh objects: pointer checks, cheaper than hashing.
        if (!sameMessage(message, known[index])) return index;
        known[index] = message;
      }
    }
    // A request that is a strict prefix of the stored history is not an edit: it is an older request
    // (another process, or a retry, got further already). Nothing to write, nothing to fork; a
    // regenerated answer forks when it arrives and differs.
    return undefined;
  }

  /**
   * True when `raw`, shorter than what the compaction covers, is a prefix of the lineage's stored raw
   * history: a request from before the compaction (another process got further), not an edit.
   */
  async function isOlderRequest(
    state: SessionState,
    raw: readonly ModelMessage[],
  ): Promise<boolean> {
    const compaction = state.compaction;
    if (compaction === undefined || raw.length >= compaction.coveredRawCount) return false;
    const known = compaction.coveredRaw;
    if (known !== undefined) {
      for (let index = 0; index < raw.length; index++) {
        const message = raw[index] as { role: string };
        if (message.role === 'system') continue;
        if (!sameMessage(message, known[index])) return false;
      }
      return true;
    }
    const stored = await storedRawPrefix(state, raw.length);
    if (stored === undefined) return false;
    for (let index = 0; index < raw.length; index++) {
      if (raw[index]?.role === 'system') continue;
      const sent = forStorage([raw[index] as ModelMessage])[0];
      if (stored[index] === undefined || !sameMessage(stored[index], sent)) return false;
    }
    return true;
  }

  /**
   * The first `length` raw messages as stored along the lineage (stored form), by raw index. Each
   * session holds raw messages from its `coveredRawCount` on, after its compacted prefix; a later
   * session of the chain replaces everything from there.
   */
  async function storedRawPrefix(
    state: SessionState,
    length: number,
  ): Promise<unknown[] | undefined> {
    if (store?.lineage === undefined || store.getMessages === undefined) return undefined;
    if (state.headId === undefined) return undefined;
    const byIndex: unknown[] = [];
    for (const session of await store.lineage(state.headId)) {
      const stored = session.id === session.rootId ? undefined : readMetadata(session);
      const covered = stored?.coveredRawCount ?? 0;
      const compactedCount = stored?.compactedMessageCount ?? 0;
      byIndex.length = Math.min(byIndex.length, covered);
      if (covered >= length) continue;
      const rows = await store.getMessages(session.id, {
        fromSequence: compactedCount,
        limit: length - covered,
      });
      rows.forEach((row, offset) => {
        byIndex[covered + offset] = row.message;
      });
    }
    return byIndex;
  }

  function remember(state: SessionState): void {
    states.delete(state.key);
    states.set(state.key, state);
    if (states.size > rememberedConversations) {
      const oldest = states.keys().next().value;
      if (oldest !== undefined) {
        // A forgotten conversation starts afresh: its background job could never be used.
        states
          .get(oldest)
          ?.background?.controller.abort(new Error('the conversation was forgotten'));
        states.delete(oldest);
      }
    }
  }

  return {
    async withState(key, sessionId, task) {
      const previous = queues.get(key) ?? Promise.resolve();
      const run = previous
        .catch(() => undefined)
        .then(async () => {
          const state = states.get(key) ?? (await load(key, sessionId));
          remember(state);
          for (let attempt = 1; ; attempt++) {
            try {
              return await task(state);
            } catch (error) {
              // Another process moved the lineage on (compacted or replaced our head, or stored a
              // different next message): catch up with the store and redo. A few times, as a busy
              // fleet can move it on again meanwhile.
              if (
                store === undefined ||
                attempt >= maxCatchUps ||
                !hasCode(error, ...catchUpCodes)
              ) {
                throw error;
              }
              await reload(state);
            }
          }
        });
      const settled = run.catch(() => undefined);
      queues.set(key, settled);
      void settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key);
      });
      return run;
    },

    systemMessagesMoved(state, raw, spliceAt) {
      const compaction = state.compaction;
      const indexes = compaction?.verbatimRawIndexes;
      if (compaction?.fromStore !== true || indexes === undefined) return false;
      if (compaction.coveredRawCount !== spliceAt) return false;
      const expected: number[] = [];
      for (let at = 0; at < compaction.compacted.length; at++) {
        if (compaction.compacted[at]?.role !== 'system') continue;
        const index = indexes[at] ?? -1;
        // A system message the compaction holds but could not place: nothing to compare with.
        if (index < 0) return false;
        expected.push(index);
      }
      let next = 0;
      for (let index = 0; index < spliceAt; index++) {
        if (raw[index]?.role !== 'system') continue;
        if (expected[next] !== index) return true;
        next++;
      }
      return next !== expected.length;
    },

    restoreVerbatim(state, raw, spliceAt) {
      const compaction = state.compaction;
      if (compaction?.fromStore !== true || compaction.coveredRawCount !== spliceAt) return;
      compaction.fromStore = false;
      // Secrets are stored as markers, so the stored head and tail would send the model markers
      // where the app sent its own text (`Use [REDACTED:github-token] to push.` as the latest
      // ask). Matched in order from each end, in the stored form; the summary between stays.
      const compacted = compaction.compacted.slice();
      const storedForm = (message: ModelMessage | undefined) =>
        message === undefined ? undefined : forStorage([message])[0];
      // System messages pair by position whatever their text: apps rebuild them per call, the
      // fingerprint skips them, and `splicedMessages` sends the request's own.
      const matches = (kept: ModelMessage | undefined, sent: ModelMessage | undefined) =>
        (kept?.role === 'system' && sent?.role === 'system') || sameMessage(kept, storedForm(sent));
      const indexes = compaction.verbatimRawIndexes;
      if (indexes !== undefined) {
        // The compacting process recorded where each kept message came from: a kept message
        // anywhere (a pinned ask, one masking left alone, a system message from the middle) gets
        // the app's own back, and one that is equal in stored form to several app messages (the
        // same text with different tokens) gets the right one, never a neighbour.
        let previous = -1;
        indexes.forEach((index, at) => {
          if (!Number.isInteger(index) || index <= previous || index >= spliceAt) return;
          previous = index;
          if (matches(compacted[at], raw[index])) compacted[at] = raw[index]!;
        });
        // Rewrites (masked, clipped) the store holds redacted: rebuilt from the app's message,
        // as the compacting process sent them, or left in stored form when that cannot be shown.
        const key = sealKey;
        if (key !== undefined) {
          for (const recipe of compaction.rewriteRecipes ?? []) {
            const kept = compacted[recipe.at];
            if ((indexes[recipe.at] ?? -1) >= 0 || kept === undefined) continue;
            if (recipe.from < 0 || recipe.from >= spliceAt) continue;
            const rebuilt = rebuildRewrite(recipe, kept, raw[recipe.from], key);
            if (rebuilt !== undefined) compacted[recipe.at] = rebuilt;
          }
        }
        compaction.compacted = compacted;
        return;
      }
      let front = 0;
      while (
        front < compacted.length &&
        front < spliceAt &&
        matches(compacted[front], raw[front])
      ) {
        compacted[front] = raw[front]!;
        front++;
      }
      let back = compacted.length - 1;
      let source = spliceAt - 1;
      while (back >= front && source >= front && matches(compacted[back], raw[source])) {
        compacted[back--] = raw[source--]!;
      }
      compaction.compacted = compacted;
    },

    async branchIfDiverged(state, raw, compactionDiverged) {
      if (store === undefined || state.headId === undefined) return undefined;
      if (compactionDiverged && (await isOlderRequest(state, raw))) return undefined;
      const at = compactionDiverged ? 0 : divergence(state, raw);
      if (at === undefined) return undefined;
      const previous = state.headId;
      const covered = state.compaction?.coveredRawCount ?? 0;
      const offset = state.compaction?.compacted.length ?? 0;
      // Before the compaction's prefix the compacted history no longer applies: the branch starts
      // empty and takes the whole raw history; after it, the branch keeps the compacted history.
      const keepsCompaction = state.compaction !== undefined && at >= covered;
      const { baton: _previousBaton, ...inherited } = state.headMetadata ?? {};
      const previousBaton =
        typeof _previousBaton === 'object' && _previousBaton !== null
          ? (_previousBaton as Record<string, unknown>)
          : {};
      const baton: Record<string, unknown> = {
        ...(keepsCompaction ? previousBaton : pick(previousBaton, ['calibration'])),
        branchOf: previous,
        branchPoint: at,
      };
      // One transaction: the previous head ends as the branch opens (never two open heads).
      const fork = await store.fork(previous, {
        throughSequence: keepsCompaction ? offset + (at - covered) - 1 : -1,
        metadata: { ...inherited, baton },
        endSource: branchedReason,
      });
      state.headId = fork.id;
      state.headMetadata = fork.metadata;
      if (!keepsCompaction) state.compaction = undefined;
      state.persistedRawCount = keepsCompaction ? at : 0;
      state.persistedMessages = (state.persistedMessages ?? []).slice(0, state.persistedRawCount);
      state.storedRaw = undefined;
      await this.persistRaw(state, raw);
      return fork.id;
    },

    async persistRaw(state, raw) {
      if (store === undefined || state.headId === undefined) return;
      const coveredRawCount = state.compaction?.coveredRawCount ?? 0;
      const offset = state.compaction?.compacted.length ?? 0;
      const from = Math.max(state.persistedRawCount, coveredRawCount);
      if (raw.length <= from) return;
      await store.appendMessages(state.headId, forStorage(raw.slice(from)), {
        startSequence: offset + (from - coveredRawCount),
        // Messages another process stored already are skipped only if they are the same: a
        // different one is an edit (history_diverged: catch up, then fork), never silently dropped.
        verifySkipped: true,
      });
      state.persistedMessages ??= [];
      const known = state.persistedMessages;
      for (let index = from; index < raw.length; index++) known[index] = raw[index];
      state.persistedRawCount = raw.length;
    },

    async recordCompaction(state, result, compaction, details = {}) {
      if (store !== undefined && compaction.coveredRawCount < state.persistedRawCount) {
        // An older request (the store holds more of the history than it): its compaction would
        // replace a head holding messages it never saw. Send it, record nothing.
        return 'conflict';
      }
      if (store === undefined || state.headId === undefined) {
        if (state.compaction !== undefined) {
          state.otherCompactions.unshift(state.compaction);
          state.otherCompactions.length = Math.min(
            state.otherCompactions.length,
            rememberedCompactions - 1,
          );
        }
        state.compaction = compaction;
        state.persistedRawCount = Math.max(state.persistedRawCount, compaction.coveredRawCount);
        return undefined;
      }
      const storedMessages = forStorage(result.messages);
      const indexes =
        compaction.coveredRaw === undefined
          ? undefined
          : verbatimRawIndexes(compaction.compacted, compaction.coveredRaw);
      const recipes =
        indexes === undefined || compaction.coveredRaw === undefined || sealKey === undefined
          ? []
          : rewriteRecipes(
              compaction.compacted,
              // The stored form of `compacted` (the result's messages, as recorded below).
              result.messages === compaction.compacted
                ? storedMessages
                : forStorage(compaction.compacted),
              compaction.coveredRaw,
              indexes,
              sealKey,
            );
      const metadata: StoredCompactionMetadata = {
        coveredRawCount: compaction.coveredRawCount,
        compactedMessageCount: compaction.compacted.length,
        prefixFingerprint: compaction.prefixFingerprint,
        ...(compaction.prefixContentHash === undefined
          ? {}
          : { prefixContentHash: compaction.prefixContentHash }),
        ...(compaction.coveredRawTokens === undefined
          ? {}
          : { coveredRawTokens: compaction.coveredRawTokens }),
        ...(indexes === undefined ? {} : { verbatimRawIndexes: indexes }),
        ...(recipes.length === 0 ? {} : { rewriteRecipes: recipes }),
      };
      try {
        const { child } = await store.recordCompaction(
          state.headId,
          { ...result, messages: storedMessages },
          {
            metadata: { ...(state.headMetadata ?? {}), baton: { ...details, ...metadata } },
            // The head holds the previous compacted prefix, then the raw messages after it. A message
            // appended since (by another process) would miss the child: the store refuses that.
            expectedMessageCount:
              (state.compaction?.compacted.length ?? 0) +
              compaction.coveredRawCount -
              (state.compaction?.coveredRawCount ?? 0),
          },
        );
        state.headId = child.id;
        state.headMetadata = child.metadata;
        state.compaction = compaction;
        state.persistedRawCount = compaction.coveredRawCount;
        return child.id;
      } catch (error) {
        // Another process compacted this head first (conflict) or appended to it while we compacted
        // (stale): either way the store is right and our state is behind, so catch up.
        if (
          !hasCode(
            error,
            'compaction_conflict',
            'compaction_stale',
            'session_ended',
            'lineage_conflict',
          )
        ) {
          throw error;
        }
        await reload(state);
        return 'conflict';
      }
    },
  };
}

/** Errors meaning another process moved the lineage on: reload the state and redo the call. */
const catchUpCodes = ['session_ended', 'history_diverged', 'lineage_conflict', 'session_exists'];
const maxCatchUps = 6;

/** `endReason` of a head the context manager left for a branch (an edited history). */
const branchedReason = 'branched';

/** Sessions of one lineage read to find the branch a head was left for (newest first). */
const branchLookupLimit = 10_000;

/** The head a branch was opened from (`metadata.baton.branchOf`), if `session` is such a branch. */
function branchOfSession(session: CompactionStoreSession): string | undefined {
  const baton = session.metadata?.baton;
  if (typeof baton !== 'object' || baton === null) return undefined;
  const from = (baton as Record<string, unknown>).branchOf;
  return typeof from === 'string' ? from : undefined;
}

function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, record[key]]));
}

function readCalibration(session: CompactionStoreSession): Record<string, number> | undefined {
  const baton = session.metadata?.baton;
  if (typeof baton !== 'object' || baton === null) return undefined;
  const calibration = (baton as Record<string, unknown>).calibration;
  if (typeof calibration !== 'object' || calibration === null) return undefined;
  const ratios: Record<string, number> = {};
  for (const [key, value] of Object.entries(calibration)) {
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) ratios[key] = value;
  }
  return ratios;
}

function readMetadata(session: CompactionStoreSession): StoredCompactionMetadata | undefined {
  const baton = session.metadata?.baton;
  if (typeof baton !== 'object' || baton === null) return undefined;
  const {
    coveredRawCount,
    compactedMessageCount,
    prefixFingerprint,
    prefixContentHash,
    coveredRawTokens,
    verbatimRawIndexes,
    rewriteRecipes,
  } = baton as Record<string, unknown>;
  if (
    typeof coveredRawCount !== 'number' ||
    typeof compactedMessageCount !== 'number' ||
    typeof prefixFingerprint !== 'string'
  ) {
    return undefined;
  }
  return {
    coveredRawCount,
    compactedMessageCount,
    prefixFingerprint,
    ...(typeof prefixContentHash === 'string' ? { prefixContentHash } : {}),
    ...(typeof coveredRawTokens === 'number' ? { coveredRawTokens } : {}),
    ...(Array.isArray(rewriteRecipes)
      ? { rewriteRecipes: rewriteRecipes.filter(isRewriteRecipe) }
      : {}),
    ...(Array.isArray(verbatimRawIndexes) &&
    verbatimRawIndexes.every((index) => Number.isInteger(index))
      ? { verbatimRawIndexes: verbatimRawIndexes as number[] }
      : {}),
  };
}

/**
 * By compacted index, the raw index of the app message that compacted message is (-1 when none:
 * Baton's inserts, masked or clipped messages). Matched in order and in the app's form, while both
 * are at hand: after a restart only the stored (redacted) form is, in which different app messages
 * can look the same. Equal candidates are interchangeable (the same app text). Linear: candidates
 * are looked up by hash, each raw message is passed once.
 */
function verbatimRawIndexes(compacted: readonly ModelMessage[], raw: readonly unknown[]): number[] {
  const byHash = new Map<string, { indexes: number[]; next: number }>();
  raw.forEach((message, index) => {
    const hash = hashMessage(message);
    const bucket = byHash.get(hash);
    if (bucket === undefined) byHash.set(hash, { indexes: [index], next: 0 });
    else bucket.indexes.push(index);
  });
  let previous = -1;
  return compacted.map((message) => {
    const bucket = byHash.get(hashMessage(message));
    if (bucket === undefined) return -1;
    while (bucket.next < bucket.indexes.length && bucket.indexes[bucket.next]! <= previous)
      bucket.next++;
    for (let at = bucket.next; at < bucket.indexes.length; at++) {
      const index = bucket.indexes[at]!;
      if (sameMessage(message, raw[index])) {
        bucket.next = at + 1;
        previous = index;
        return index;
      }
    }
    return -1;
  });
}
