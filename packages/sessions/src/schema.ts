import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  customType,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Characters of a message's text that go into its full-text vector. */
export const searchVectorChars = 100_000;

/** PostgreSQL's full-text vector type (drizzle has no built-in column for it). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * One logical session. A compaction ends a session (`endReason: 'compaction'`) and opens a child whose
 * `parentId` points back; `rootId` is the first session of the chain, so a whole lineage is one index
 * range.
 */
export const sessions = pgTable(
  'baton_sessions',
  {
    id: text('id').primaryKey(),
    parentId: text('parent_id').references((): AnyPgColumn => sessions.id),
    rootId: text('root_id').notNull(),
    /** How the session came to be: `root`, `child` (createSession with a parent), `compaction` or `fork`. */
    origin: text('origin').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    endReason: text('end_reason'),
    model: text('model'),
    title: text('title'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    /**
     * The line of succession this session belongs to: a new root, child or plain fork starts one (its
     * own id); a compaction child, and a fork that replaces its source (`fork(id, { endSource })`),
     * continues its predecessor's. At most one open session per line, enforced by the index below:
     * two heads of one conversation cannot both be open, whatever the processes do.
     */
    headKey: text('head_key'),
  },
  (table) => [
    uniqueIndex('baton_sessions_open_head_key')
      .on(table.headKey)
      .where(sql`${table.endedAt} is null`),
    index('baton_sessions_parent_id_idx').on(table.parentId),
    index('baton_sessions_root_id_created_at_idx').on(table.rootId, table.createdAt),
    index('baton_sessions_created_at_idx').on(table.createdAt),
  ],
);

/**
 * The raw history of a session, one row per message. `message` is the whole AI SDK `ModelMessage`.
 * It is `json`, not `jsonb`: json keeps the text exactly as written and accepts `\u0000` and lone
 * surrogates (binary tool output), which jsonb rejects; nothing ever queries inside a message.
 */
export const messages = pgTable(
  'baton_messages',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    sequence: integer('sequence').notNull(),
    role: text('role').notNull(),
    message: json('message').notNull().$type<unknown>(),
    tokenCount: integer('token_count'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * The message's readable text (text, reasoning, tool names, inputs and outputs; binary data left
     * out), written with the message and searched by `recall`. `null` only for a message with no text.
     */
    searchText: text('search_text'),
    /**
     * The full-text vector of `search_text`, computed by the database on write and kept, so ranking
     * never re-parses a message. `left(...)` keeps one huge tool output under PostgreSQL's 1 MB
     * tsvector limit (verbatim matching still reads the whole text).
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL =>
        sql`to_tsvector('english'::regconfig, left(${messages.searchText}, ${sql.raw(String(searchVectorChars))}))`,
    ),
  },
  // The primary key is the unique (session, sequence) constraint and the index for ordered reads.
  (table) => [
    primaryKey({ name: 'baton_messages_pkey', columns: [table.sessionId, table.sequence] }),
    index('baton_messages_search_idx').using('gin', table.searchVector),
  ],
);

/** One row per compaction. `unique(parent_session_id)`: a session is compacted at most once. */
export const compactions = pgTable(
  'baton_compactions',
  {
    id: text('id').primaryKey(),
    parentSessionId: text('parent_session_id')
      .notNull()
      .references(() => sessions.id),
    childSessionId: text('child_session_id')
      .notNull()
      .references(() => sessions.id),
    strategy: text('strategy').notNull(),
    /** Stages that ran, in order (e.g. `['mask', 'summarize']`). */
    stages: jsonb('stages').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** Summary or receipt text (already redacted by the compressor). */
    summary: text('summary'),
    usedFallback: boolean('used_fallback').notNull().default(false),
    fallbackReason: text('fallback_reason'),
    tokensBefore: integer('tokens_before').notNull(),
    tokensAfter: integer('tokens_after').notNull(),
    /** Sequence numbers of the parent's messages that are absent from the child. */
    removedSequences: jsonb('removed_sequences').$type<number[]>().notNull(),
    /** Sequence numbers of the parent's messages kept with their tool outputs masked. */
    maskedSequences: jsonb('masked_sequences').$type<number[]>().notNull(),
    summarizerModel: text('summarizer_model'),
    durationMs: real('duration_ms'),
    /** The compressor's whole event, as given, for anything not broken out above. */
    event: jsonb('event').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    unique('baton_compactions_parent_session_id_key').on(table.parentSessionId),
    unique('baton_compactions_child_session_id_key').on(table.childSessionId),
  ],
);
