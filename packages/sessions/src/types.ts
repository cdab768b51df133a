import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * A message as the store keeps it: an AI SDK `ModelMessage` (`system`, `user`, `assistant` or `tool`).
 * Kept structural so the store does not depend on the AI SDK; checked at run time.
 */
export interface SessionMessage {
  role: string;
  content: unknown;
  [key: string]: unknown;
}

/** Anything that counts a message's tokens, e.g. a `TokenCounter` from `@baton/tokens`. */
export interface MessageTokenCounter {
  countMessage(message: SessionMessage): number;
}

/** Any drizzle PostgreSQL database (node-postgres, PGlite, postgres.js, ...). */
// biome-ignore lint/suspicious/noExplicitAny: a caller's schema type is theirs; the store only needs the query builder.
export type AnyPgDatabase = PgDatabase<PgQueryResultHKT, any, any>;

export interface SessionStoreOptions {
  /** Open (or create) an embedded PGlite database in this folder. Default: PGlite in memory. */
  dataDir?: string;
  /** Connect to a PostgreSQL server (`postgres://user@host:5432/db`) through a node-postgres pool. */
  connectionString?: string;
  /** Use an existing drizzle PostgreSQL database. `close()` leaves it open: it is yours. */
  db?: AnyPgDatabase;
  /** Apply the bundled migrations on open. Default `true`; with `false`, call `store.migrate()`. */
  migrate?: boolean;
  /** Largest number of pooled connections (`connectionString` only). Default `10`. */
  maxConnections?: number;
  /** Fills each stored message's `tokenCount`. Default: none (`tokenCount` is `null`). */
  tokenCounter?: MessageTokenCounter;
}

/** How a session came to be. */
export type SessionOrigin = 'root' | 'child' | 'compaction' | 'fork';

export interface Session {
  id: string;
  /** The session this one continues (compaction), branches from (fork) or was opened under. */
  parentId: string | null;
  /** First session of the lineage; equals `id` for a root. */
  rootId: string;
  origin: SessionOrigin;
  createdAt: Date;
  /** When the session ended, or `null` while it is open. */
  endedAt: Date | null;
  /** `compaction` when a compaction ended it; otherwise the reason given to `endSession`. */
  endReason: string | null;
  model: string | null;
  title: string | null;
  metadata: Record<string, unknown> | null;
}

export interface StoredMessage<Message extends SessionMessage = SessionMessage> {
  sessionId: string;
  /** Position in the session's history: 0, 1, 2, ... with no gaps. */
  sequence: number;
  role: string;
  message: Message;
  tokenCount: number | null;
  createdAt: Date;
}

export interface CreateSessionOptions {
  /** Default: a random UUID. */
  id?: string;
  /** Open the session under this parent (same lineage root). Default: a new root. */
  parentId?: string;
  model?: string;
  title?: string;
  metadata?: Record<string, unknown>;
}

export interface AppendMessagesOptions {
  /**
   * Sequence number of `messages[0]`. Messages whose sequence is already stored are skipped, so a
   * retried call is harmless. Must not leave a gap (at most the next free sequence). Default: the
   * next free sequence: a plain append, NOT idempotent (a retry appends the messages again). Give it
   * whenever a call may be retried (network stores, queues, at-least-once delivery).
   */
  startSequence?: number;
  /**
   * Compare the messages skipped as already stored with the stored ones, and throw
   * `HistoryDivergedError` (writing nothing) when one differs. Default `false`: skipped messages are
   * not read back.
   */
  verifySkipped?: boolean;
}

export interface AppendMessagesResult {
  /** Messages written. */
  appended: number;
  /** Messages whose sequence number was already stored (not rewritten). */
  skipped: number;
  /** The sequence number the next message will get. */
  nextSequence: number;
}

export interface GetMessagesOptions {
  /** First sequence number to return. Default `0`. */
  fromSequence?: number;
  /** Most messages to return. Default: all. */
  limit?: number;
}

/**
 * What a compaction produced: the shape of `CompressResult` from `@baton/compressor` (which
 * satisfies it), kept structural so the store does not need that package.
 */
export interface CompactionResult<Message extends SessionMessage = SessionMessage> {
  /** The history the child starts with. */
  messages: readonly Message[];
  summary: string | undefined;
  strategy: string;
  usedFallback: boolean;
  fallbackReason?: string | undefined;
  tokensBefore: number;
  tokensAfter: number;
  /** The compressor's `CompactionEvent`; stored whole (as JSON) besides the fields broken out. */
  event?: {
    stages?: readonly string[];
    removedMessageIndexes?: readonly number[];
    maskedMessageIndexes?: readonly number[];
    summarizerModel?: string | undefined;
    durationMs?: number;
  };
}

export interface RecordCompactionOptions {
  /**
   * How many parent messages the compaction was computed from (the length of the history given to
   * the compressor). Compared, under the parent's row lock, with the parent's current message count:
   * when a message was appended in between, the child would silently miss it, so the call throws
   * `CompactionStaleError` (naming both counts) and writes nothing. Default: not checked (only the
   * event's indexes are checked against the parent). Pass it whenever appends can race compactions.
   */
  expectedMessageCount?: number;
  /** Id of the child. Default: a random UUID. */
  childId?: string;
  /** Child's model. Default: the parent's. */
  model?: string;
  /** Child's title. Default: the parent's. */
  title?: string;
  /** Child's metadata. Default: the parent's. */
  metadata?: Record<string, unknown>;
}

export interface Compaction {
  id: string;
  parentSessionId: string;
  childSessionId: string;
  strategy: string;
  stages: string[];
  summary: string | null;
  usedFallback: boolean;
  fallbackReason: string | null;
  tokensBefore: number;
  tokensAfter: number;
  /** Parent sequence numbers (= indexes into the parent's history) absent from the child. */
  removedSequences: number[];
  /** Parent sequence numbers kept with masked tool outputs. */
  maskedSequences: number[];
  summarizerModel: string | null;
  durationMs: number | null;
  event: Record<string, unknown> | null;
  createdAt: Date;
}

export interface RecordCompactionResult {
  /** The parent, now ended with `endReason: 'compaction'`. */
  parent: Session;
  /** The new open session holding the compacted history. */
  child: Session;
  compaction: Compaction;
}

export interface ResumeResult<Message extends SessionMessage = SessionMessage> {
  /** The newest session reached by following compactions (the one to continue in). */
  session: Session;
  /** Its messages in order: what to send next. */
  messages: Message[];
}

export interface ForkOptions {
  /** Id of the fork. Default: a random UUID. */
  id?: string;
  /** Copy the source's messages up to this sequence number, inclusive. Default: all of them. */
  throughSequence?: number;
  /** Default: the source's. */
  model?: string;
  /** Default: the source's. */
  title?: string;
  /** Default: the source's. */
  metadata?: Record<string, unknown>;
  /**
   * Replace the source: end it with this reason in the same transaction and let the fork continue
   * its line of succession (the lineage keeps exactly one open head). The source must be open, else
   * `SessionEndedError`. Default: the source is left as it was and the fork starts a line of its own.
   */
  endSource?: string;
}

export interface ListSessionsOptions {
  /** Only sessions of this lineage. Default: all. */
  rootId?: string;
  /** Default `100`. */
  limit?: number;
  /** Default `0`. */
  offset?: number;
  /** Include ended sessions. Default `false`. */
  includeEnded?: boolean;
}

/** What `recall` searches for. Give a `query`, a range (`fromSequence`/`toSequence`), or both. */
export interface RecallOptions {
  /**
   * Text to find. Matched two ways, in the database: as an exact, case-insensitive substring (for
   * identifiers, paths, error codes and whole lines) and as a full-text query (PostgreSQL
   * `websearch_to_tsquery('english', ...)`: words in any order, `"quoted phrases"`, `or`, `-word`).
   * Exact matches rank first. Default: none (the range's messages, in order). At most
   * `recallQueryMaxLength` (1,000) characters.
   */
  query?: string;
  /**
   * The session of the lineage whose sequence numbers `fromSequence`/`toSequence` refer to. Default:
   * the session recalled from. Must be that session or one of its ancestors.
   */
  rangeSessionId?: string;
  /** First sequence of the range (inclusive). Default `0` when `toSequence` is given, else no range. */
  fromSequence?: number;
  /** Last sequence of the range (inclusive). Default: the session's last message. */
  toSequence?: number;
  /** Most matches returned. Default `5`, at most `50`. */
  limit?: number;
  /** Characters of text around each match. Default `400`, from `20` to `4,000`. */
  excerptLength?: number;
  /**
   * Most full-text hits ranked, newest first (the head session's last messages, then back through its
   * ancestors). A query matching more messages ranks only these, so an older hit can be missing:
   * `rankLimited` says so. Default `recallRankLimit` (1,000), from `1` to `100,000`.
   */
  rankLimit?: number;
  /**
   * Redacts before the excerpt is cut: called with the text around each match (the excerpt and up to
   * `recallRedactMargin`, 2,000, characters each side), it returns the spans to hide. Each span is
   * replaced by `[REDACTED:<kind>]` and the excerpt never cuts one, so a credential straddling the
   * excerpt's edge never comes back in part; `redactSecrets` of `@baton/fallback` fits as is. With it,
   * `excerptStart`/`excerptEnd` give the span of the original text the excerpt shows, and `excerpt` is
   * that span redacted (its length may differ, never above `excerptLength`). Default: none (excerpts
   * are the stored text, cut).
   */
  redact?: RecallRedact;
}

/** A redactor for `recall`: the spans of `text` to hide (offsets into `text`), with an optional kind. */
export type RecallRedact = (text: string) => {
  findings: readonly { start: number; end: number; kind?: string }[];
};

/** One message found by `recall`, with where it sits in the lineage. */
export interface RecallMatch {
  sessionId: string;
  sequence: number;
  role: string;
  /** The first tool named in the message (a tool call or result), else `null`. */
  toolName: string | null;
  /** At most `excerptLength` characters of the message's text, around the match. */
  excerpt: string;
  /** Character offsets of the excerpt within the message's text. */
  excerptStart: number;
  excerptEnd: number;
  /** Characters in the message's whole text. */
  textLength: number;
  /** `exact`: the query occurs verbatim; `text`: full-text match; `range`: no query, in the range. */
  matchedBy: 'exact' | 'text' | 'range';
  /** Full-text rank (`ts_rank_cd`); `0` for range results. Higher is better. */
  rank: number;
}

export interface RecallResult {
  /** Best first: exact matches, then by full-text rank, then oldest first. Range-only: in order. */
  matches: RecallMatch[];
  /** The sessions searched: the lineage, root first, ending with the session recalled from. */
  searchedSessionIds: string[];
  /**
   * `true` when the verbatim (substring) search could not use the trigram index and read only the
   * newest `recallScanLimit` messages (10,000) of the lineage or range, so an older verbatim-only match
   * may be missing: narrow it with `fromSequence`/`toSequence` or add pg_trgm (see README). Full-text
   * matches always cover the whole lineage.
   */
  scanLimited: boolean;
  /**
   * `true` when the full-text query matched more than `rankLimit` messages (default 1,000) and only
   * the newest of them were ranked, so a better-ranked older match may be missing: add words, use an
   * exact fragment or give a range.
   */
  rankLimited: boolean;
}

/** A lineage store. Every method is async; see `createSessionStore`. */
export interface SessionStore {
  /** The drizzle database underneath, for queries of your own on the exported tables. */
  readonly db: AnyPgDatabase;
  /** `pglite`, `node-postgres`, or `external` (the `db` option). */
  readonly backend: 'pglite' | 'node-postgres' | 'external';
  /** Applies the bundled migrations not yet applied. Safe to call concurrently from many processes. */
  migrate(): Promise<void>;
  /** Opens a session. Throws `SessionNotFoundError` for an unknown `parentId`. */
  createSession(options?: CreateSessionOptions): Promise<Session>;
  /** The session, or `SessionNotFoundError`. */
  getSession(id: string): Promise<Session>;
  /**
   * Appends messages in one transaction. Idempotent ONLY with `startSequence`: then messages whose
   * sequence is already stored are skipped, so a retry after a lost acknowledgement writes nothing
   * twice. Without it the messages go at the end, and a retried call appends them a second time.
   * Throws `SessionNotFoundError`, `SessionEndedError` (naming the child when compacted), or
   * `MessageValidationError` (naming the index); on any error nothing is written.
   */
  appendMessages<Message extends SessionMessage>(
    sessionId: string,
    messages: readonly Message[],
    options?: AppendMessagesOptions,
  ): Promise<AppendMessagesResult>;
  /** The session's own raw history, in sequence order. */
  getMessages<Message extends SessionMessage = SessionMessage>(
    sessionId: string,
    options?: GetMessagesOptions,
  ): Promise<StoredMessage<Message>[]>;
  /**
   * In ONE transaction: ends the parent (`endReason: 'compaction'`), opens the child (parent pointer,
   * same root) holding `result.messages`, and records the compaction. A parent is compacted at most
   * once: the loser of a race gets `CompactionConflictError` naming the winner's child, and nothing of
   * its attempt is written. With `expectedMessageCount`, a parent that gained messages since the
   * compaction was computed raises `CompactionStaleError`. The event's indexes are deduplicated,
   * sorted and checked against the parent's history (`InvalidInputError` naming the field).
   */
  recordCompaction<Message extends SessionMessage>(
    parentId: string,
    result: CompactionResult<Message>,
    options?: RecordCompactionOptions,
  ): Promise<RecordCompactionResult>;
  /** The compaction that ended this session, or `undefined`. */
  getCompaction(parentId: string): Promise<Compaction | undefined>;
  /**
   * Searches the raw history of the session's whole lineage (its ancestors keep every message a
   * compaction removed) by text, by sequence range, or both, in the database. Returns bounded excerpts
   * with their positions. Throws `SessionNotFoundError`, `RecallQueryError` (no query and no range, a
   * blank, too long or unstorable query) or `RecallRangeError` (a range outside the lineage).
   * Excerpts are the stored text: what the writer stored redacted (the middleware does by default)
   * comes back redacted.
   */
  recall(sessionId: string, options: RecallOptions): Promise<RecallResult>;
  /** The chain root..id (inclusive), oldest first. */
  lineage(id: string): Promise<Session[]>;
  /** Follows compactions from `id` to the newest descendant and returns its session and messages. */
  resume<Message extends SessionMessage = SessionMessage>(
    id: string,
  ): Promise<ResumeResult<Message>>;
  /** A new open session (same root, `parentId: id`) starting with a copy of the source's messages. */
  fork(id: string, options?: ForkOptions): Promise<Session>;
  /** Sessions, newest first. */
  listSessions(options?: ListSessionsOptions): Promise<Session[]>;
  /**
   * Ends an open session (default reason `closed`; `compaction` is reserved for `recordCompaction`).
   * Throws `SessionEndedError` when it already ended.
   */
  endSession(id: string, reason?: string): Promise<Session>;
  /** Closes the connection the store opened (not a `db` you passed in). Idempotent. */
  close(): Promise<void>;
}
