import { InvalidInputError } from '@baton/tokens';
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from './migrate-database.js';
import { RecallQueryError } from './recall-query-error.js';
import { RecallRangeError } from './recall-range-error.js';
import { recallRedactMargin, redactedExcerpt } from './redacted-excerpt.js';
import type { AnyPgDatabase, RecallMatch, RecallOptions, RecallResult } from './types.js';

/** Longest `recall` query, in characters: a query is a few words or one line, never a document. */
export const recallQueryMaxLength = 1_000;
const defaultLimit = 5;
const maxLimit = 50;
const defaultExcerptLength = 400;
const minExcerptLength = 20;
const maxExcerptLength = 4_000;
/** Characters of a text-only match read back to place its excerpt (the first matching word in them). */
const textMatchWindow = 50_000;
const maxSequence = 2_147_483_647;
/**
 * Messages a verbatim search reads, newest first, when it cannot use the trigram index (pg_trgm not
 * installed, or a query without three letters or digits in a row). Beyond it `scanLimited` is set.
 */
export const recallScanLimit = 10_000;
/**
 * Default of `rankLimit`: full-text hits ranked per query, newest first. A common term can match
 * most of a long lineage; ranking (and testing verbatim) each hit is what grows with it, so older hits
 * beyond this many are left out and `rankLimited` is set.
 */
export const recallRankLimit = 1_000;
const maxRankLimit = 100_000;

const unpairedSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * `store.recall`: runs over `lineage` (ids root first, ending with `sessionId`, already checked to
 * exist). Everything that scales with the history runs in the database; at most `limit` excerpts
 * come back.
 */
export async function recallMessages(
  db: AnyPgDatabase,
  sessionId: string,
  lineage: readonly string[],
  options: RecallOptions,
): Promise<RecallResult> {
  const limit = options.limit ?? defaultLimit;
  const excerptLength = options.excerptLength ?? defaultExcerptLength;
  const { redact } = options;
  // With a redactor, windows carry context on both sides (see `redactedExcerpt`).
  const margin = redact ? recallRedactMargin : 0;
  let ids = lineage;
  let range: { from: number; to: number } | undefined;
  if (options.fromSequence !== undefined || options.toSequence !== undefined) {
    const rangeSessionId = options.rangeSessionId ?? sessionId;
    const from = options.fromSequence ?? 0;
    const to = options.toSequence ?? maxSequence;
    if (!lineage.includes(rangeSessionId)) {
      throw new RecallRangeError({
        sessionId,
        rangeSessionId,
        fromSequence: from,
        toSequence: to,
        messageCount: 0,
        outsideLineage: true,
      });
    }
    const [count] = rowsOf(
      await db.execute(
        sql`select count(*)::int as n from baton_messages where session_id = ${rangeSessionId}`,
      ),
    );
    const messageCount = Number(count?.n ?? 0);
    if (from > to || from >= messageCount) {
      throw new RecallRangeError({
        sessionId,
        rangeSessionId,
        fromSequence: from,
        toSequence: to,
        messageCount,
        outsideLineage: false,
      });
    }
    ids = [rangeSessionId];
    range = { from, to };
  } else if (options.rangeSessionId !== undefined) {
    if (!lineage.includes(options.rangeSessionId)) {
      throw new RecallRangeError({
        sessionId,
        rangeSessionId: options.rangeSessionId,
        fromSequence: 0,
        toSequence: maxSequence,
        messageCount: 0,
        outsideLineage: true,
      });
    }
    ids = [options.rangeSessionId];
  }

  const inLineage = sql`m.session_id = any(${sql.param([...ids])}::text[])`;
  const inRange = range ? sql` and m.sequence between ${range.from} and ${range.to}` : sql``;
  const query = options.query?.trim();
  let rows: Record<string, unknown>[];
  let scanLimited = false;
  let rankLimited = false;
  const rankLimit = options.rankLimit ?? recallRankLimit;
  if (query === undefined) {
    rows = rowsOf(
      await db.execute(sql`
        select m.session_id, m.sequence, m.role, 'range' as matched_by, 0::real as rank,
          0 as hit, length(m.search_text) as text_length,
          left(m.search_text, ${excerptLength + margin}) as window_text, 1 as window_start,
          ${toolNameOf(sql`m.message`)} as tool_name
        from baton_messages m
        where ${inLineage}${inRange}
        order by m.sequence
        limit ${limit}`),
    );
  } else {
    // `ilike` needs its wildcards and escape character escaped to match the query verbatim.
    const pattern = `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    const before = Math.floor((excerptLength - Math.min(query.length, excerptLength)) / 2);
    const tsquery = sql`websearch_to_tsquery('english'::regconfig, ${query})`;
    const shape = await lineageShape(db, ids, range);
    const { selective } = shape;
    // Phase 1, from the GIN index: full-text hits, the verbatim ones among them first. Only the newest
    // `rankLimit` hits are ranked and tested verbatim (see `lineageFilter` for how the lineage is
    // applied). At most `probe` hits are read at first: a term in more messages than that is looked
    // for newest first instead (`newestHits`), when that reads fewer messages than its hits.
    const probe = rankLimit * 2;
    const indexed = (cap: number | undefined) => sql`
      with found as materialized (
        select m.ctid as tid, m.session_id, m.sequence
        from baton_messages m
        where m.search_vector @@ ${tsquery}${selective ? sql` and ${inLineage}${inRange}` : sql``}
        ${cap === undefined ? sql`` : sql`limit ${cap}`}
      ),
      hits as materialized (${lineageFilter(ids, range)}),
      newest as (select * from hits order by depth desc, sequence desc limit ${rankLimit}),
      counts as (
        select (select count(*) from found)::int as found_count,
          (select count(*) from hits)::int as hit_count,
          (select max((tid::text::point)[0]) from found)::float8 as last_block
      )
      select c.found_count, c.hit_count, c.last_block, r.*
      from counts c left join lateral (${ranked(tsquery, pattern, limit)}) r on true
      order by r.exact desc nulls last, r.rank desc, r.depth asc, r.sequence asc`;
    let phase1 = rowsOf(await db.execute(indexed(probe)));
    let best: Record<string, unknown>[] | undefined;
    const [counts] = phase1;
    if (Number(counts?.found_count ?? 0) >= probe) {
      const newest = await newestHits(db, ids, range, shape, {
        tsquery,
        pattern,
        limit,
        rankLimit,
        tableHits: (probe * shape.tableBlocks) / (Number(counts?.last_block ?? 0) + 1),
      });
      if (newest) {
        best = newest.rows;
        rankLimited = newest.rankLimited;
      } else {
        phase1 = rowsOf(await db.execute(indexed(undefined)));
      }
    }
    if (best === undefined) {
      rankLimited = Number(phase1[0]?.hit_count ?? 0) > rankLimit;
      best = phase1.filter((row) => row.session_id !== null && row.session_id !== undefined);
    }
    // Phase 2: a verbatim scan of the lineage's text (linear in its size), for identifiers, paths and
    // codes that text search splits differently in context, and lines whose punctuation
    // websearch_to_tsquery reads as operators (a leading "- " negates the next word). Only when the
    // index found nothing, or found nothing verbatim for a query holding punctuation. Plain words
    // the index matched never pay for it.
    const foundVerbatim = best.some((row) => row.exact === true || row.exact === 't');
    const splittable = /[^\p{L}\p{N}\s]/u.test(query);
    if (best.length === 0 || (splittable && !foundVerbatim)) {
      const scan = await verbatimScan(db, ids, range, query, pattern, limit, shape);
      scanLimited = scan.limited;
      const scanned = scan.rows;
      const seen = new Set(best.map((row) => `${row.session_id}\u0000${row.sequence}`));
      best = [
        ...scanned.filter((row) => !seen.has(`${row.session_id}\u0000${row.sequence}`)),
        ...best,
      ].slice(0, limit);
    }
    if (best.length === 0) {
      return { matches: [], searchedSessionIds: [...lineage], scanLimited, rankLimited };
    }
    const order = best.map((row) => `${row.session_id}\u0000${row.sequence}`);
    const keys = best.map((row) => ({
      session: String(row.session_id),
      sequence: Number(row.sequence),
    }));
    // Only the chosen rows are cut into excerpts, in SQL: a huge message never leaves the database whole.
    const cut = rowsOf(
      await db.execute(sql`
        with picked as (
          select * from unnest(${sql.param(keys.map((key) => key.session))}::text[],
            ${sql.param(keys.map((key) => key.sequence))}::int[]) as p(session_id, sequence)
        ),
        placed as (
          select m.session_id, m.sequence, m.role, m.search_text, m.message,
            strpos(lower(m.search_text), lower(${query})) as hit
          from picked join baton_messages m using (session_id, sequence)
        )
        select session_id, sequence, role, hit,
          length(search_text) as text_length,
          case when hit > 0
            then substr(search_text, greatest(1, hit - ${before} - ${margin}),
              greatest(1, hit - ${before}) - greatest(1, hit - ${before} - ${margin})
                + ${excerptLength + margin})
            else left(search_text, ${textMatchWindow}) end as window_text,
          case when hit > 0 then greatest(1, hit - ${before} - ${margin}) else 1 end as window_start,
          greatest(1, hit - ${before}) as excerpt_from,
          ${toolNameOf(sql`message`)} as tool_name
        from placed`),
    );
    const byKey = new Map(cut.map((row) => [`${row.session_id}\u0000${row.sequence}`, row]));
    rows = best.flatMap((row, index) => {
      const found = byKey.get(order[index]!);
      if (!found) return [];
      const exact = row.exact === true || row.exact === 't';
      return [{ ...found, matched_by: exact ? 'exact' : 'text', rank: row.rank }];
    });
  }
  const terms = query === undefined ? [] : queryTerms(query);
  const matches = rows.map((row): RecallMatch => {
    const matchedBy = String(row.matched_by) as RecallMatch['matchedBy'];
    const windowText = row.window_text === null ? '' : String(row.window_text);
    const windowStart = Number(row.window_start) - 1;
    const textLength = Number(row.text_length ?? 0);
    // Where the excerpt starts within the window (the match, less context before it), and the match.
    let from = 0;
    let focus = { start: 0, end: 0 };
    if (matchedBy === 'text') {
      // Centre the excerpt on the first query word found in the text (the vector matched stems).
      const lower = windowText.toLowerCase();
      const at = terms
        .map((term) => lower.indexOf(term))
        .filter((index) => index >= 0)
        .reduce((first, index) => Math.min(first, index), Number.POSITIVE_INFINITY);
      from = Number.isFinite(at) ? Math.max(0, at - Math.floor(excerptLength / 3)) : 0;
      if (Number.isFinite(at)) focus = { start: at, end: at + 1 };
    } else if (matchedBy === 'exact' && Number(row.hit) > 0) {
      from = Number(row.excerpt_from) - 1 - windowStart;
      const hit = Number(row.hit) - 1 - windowStart;
      focus = { start: hit, end: hit + (query?.length ?? 0) };
    }
    const to = Math.min(windowText.length, from + excerptLength);
    const cut = redact
      ? redactedExcerpt({
          window: windowText,
          windowStart,
          textLength,
          from,
          to,
          focus,
          excerptLength,
          redact,
        })
      : {
          excerpt: windowText.slice(from, to),
          excerptStart: windowStart + from,
          excerptEnd: windowStart + to,
        };
    return {
      sessionId: String(row.session_id),
      sequence: Number(row.sequence),
      role: String(row.role),
      toolName: parseToolName(row.tool_name),
      excerpt: cut.excerpt,
      excerptStart: cut.excerptStart,
      excerptEnd: cut.excerptEnd,
      textLength,
      matchedBy,
      rank: Number(row.rank ?? 0),
    };
  });
  return { matches, searchedSessionIds: [...lineage], scanLimited, rankLimited };
}

/**
 * The verbatim side of a text query, oldest first. With the trigram index (migration 0003) and a
 * query holding a run of three letters or digits (what pg_trgm can extract from an `ilike` pattern),
 * PostgreSQL reads index hits. Otherwise the scan is linear in what it reads, so it reads only the
 * newest `recallScanLimit` messages of the lineage (or range): `limited` says older ones went unread.
 */
async function verbatimScan(
  db: AnyPgDatabase,
  ids: readonly string[],
  range: { from: number; to: number } | undefined,
  query: string,
  pattern: string,
  limit: number,
  shape: LineageShape,
): Promise<{ rows: Record<string, unknown>[]; limited: boolean }> {
  const { selective } = shape;
  const inLineage = sql`m.session_id = any(${sql.param([...ids])}::text[])`;
  const inRange = range ? sql` and m.sequence between ${range.from} and ${range.to}` : sql``;
  if (trigramQuery.test(query) && (await hasTrigramIndex(db))) {
    const rows = rowsOf(
      await db.execute(sql`
        with found as materialized (
          select m.ctid as tid, m.session_id, m.sequence
          from baton_messages m
          where m.search_text ilike ${pattern}${selective ? sql` and ${inLineage}${inRange}` : sql``}
        ),
        hits as (${lineageFilter(ids, range)})
        select session_id, sequence, true as exact, 0::real as rank
        from hits
        order by depth asc, sequence asc
        limit ${limit}`),
    );
    return { rows, limited: false };
  }
  const { windows, limited } = newestWindows(ids, range, shape, recallScanLimit);
  if (windows.length === 0) return { rows: [], limited };
  const rows = rowsOf(
    await db.execute(sql`
      select m.session_id, m.sequence, true as exact, 0::real as rank
      from unnest(${sql.param(windows.map((window) => window.session))}::text[],
        ${sql.param(windows.map((window) => window.low))}::int[],
        ${sql.param(windows.map((window) => window.high))}::int[]) as w(session_id, low, high)
      join baton_messages m on m.session_id = w.session_id and m.sequence between w.low and w.high
      where m.search_text ilike ${pattern}
      order by m.sequence asc
      limit ${limit}`),
  );
  return { rows, limited };
}

/**
 * Index hits (`found`: tid, session_id, sequence) kept when they are in the lineage (and range), with
 * `depth`, the session's place in the lineage (root 1). A join on the ids rather than `session_id =
 * any(...)` in the index scan itself: on a lineage that is most of the table the planner otherwise ANDs
 * in a primary-key bitmap of every lineage message (12 ms of a 16 ms query at 100,000 messages).
 */
function lineageFilter(
  ids: readonly string[],
  range: { from: number; to: number } | undefined,
): SQL {
  return sql`
    select f.tid, f.session_id, f.sequence, l.depth
    from found f
    join unnest(${sql.param([...ids])}::text[]) with ordinality as l(id, depth) on l.id = f.session_id
    ${range ? sql`where f.sequence between ${range.from} and ${range.to}` : sql``}`;
}

interface LineageShape {
  /** The lineage (or range) holds under a quarter of the table's messages (see `lineageShape`). */
  selective: boolean;
  /** Messages of the lineage (or range), by each session's last sequence. */
  lineageRows: number;
  /** The planner's row estimate for the table, or the lineage's when it has none. */
  tableRows: number;
  tableBlocks: number;
  lastOf: Map<string, number | null>;
}

/**
 * The lineage's size and the table's, in one round trip. `selective` when the lineage (or range) holds
 * under a quarter of the table's messages by the planner's estimate: then index scans are narrowed to
 * it in the scan itself (another tenant's hits are never read); otherwise every index hit is read and
 * filtered, which is cheaper than listing the lineage. An unanalysed table (no estimate) counts as
 * mostly this lineage.
 */
async function lineageShape(
  db: AnyPgDatabase,
  ids: readonly string[],
  range: { from: number; to: number } | undefined,
): Promise<LineageShape> {
  const rows = rowsOf(
    await db.execute(sql`
      select l.id as session_id,
        (select max(m.sequence) from baton_messages m where m.session_id = l.id) as last,
        (select c.reltuples from pg_class c where c.oid = to_regclass('baton_messages'))::float8
          as table_rows,
        (pg_relation_size(to_regclass('baton_messages'))
          / current_setting('block_size')::int)::float8 as table_blocks
      from unnest(${sql.param([...ids])}::text[]) as l(id)`),
  );
  const lastOf = new Map(
    rows.map((row) => [String(row.session_id), row.last === null ? null : Number(row.last)]),
  );
  let lineageRows = 0;
  for (const last of lastOf.values()) lineageRows += last === null ? 0 : last + 1;
  if (range) lineageRows = Math.min(lineageRows, range.to - range.from + 1);
  const estimate = Number(rows[0]?.table_rows ?? -1);
  return {
    selective: estimate > 0 && lineageRows * 4 < estimate,
    lineageRows,
    tableRows: estimate > 0 ? Math.max(estimate, lineageRows) : lineageRows,
    tableBlocks: Math.max(1, Number(rows[0]?.table_blocks ?? 1)),
    lastOf,
  };
}

/**
 * Windows of sequences holding the newest `count` messages of the lineage (or range): the head
 * session's last messages, then back through its ancestors. `limited` when older ones are left out.
 */
function newestWindows(
  ids: readonly string[],
  range: { from: number; to: number } | undefined,
  shape: LineageShape,
  count: number,
): { windows: { session: string; low: number; high: number; depth: number }[]; limited: boolean } {
  const windows: { session: string; low: number; high: number; depth: number }[] = [];
  let remaining = count;
  let limited = false;
  for (let index = ids.length - 1; index >= 0; index--) {
    const session = ids[index]!;
    const last = shape.lastOf.get(session);
    if (last === null || last === undefined) continue;
    const high = Math.min(last, range?.to ?? maxSequence);
    const from = range?.from ?? 0;
    if (high < from) continue;
    if (remaining === 0) {
      limited = true;
      break;
    }
    const low = Math.max(from, high - remaining + 1);
    if (low > from) limited = true;
    windows.push({ session, low, high, depth: index + 1 });
    remaining -= high - low + 1;
  }
  return { windows, limited };
}

/**
 * The best `limit` of the newest `rankLimit` hits in `newest` (tid, session_id, sequence, depth),
 * each tested verbatim and ranked.
 */
function ranked(tsquery: SQL, pattern: string, limit: number): SQL {
  return sql`
    select n.session_id, n.sequence, n.depth, (m.search_text ilike ${pattern}) as exact,
      ts_rank_cd(m.search_vector, ${tsquery}) as rank
    from newest n join baton_messages m on m.ctid = n.tid
    order by exact desc, rank desc, n.depth asc, n.sequence asc
    limit ${limit}`;
}

/**
 * For a term in more than the probe's hits: reads the lineage newest first, in windows sized from
 * the hits' density (estimated from how far into the table the probe read, `tableHits`), testing each
 * message against the query, until more than `rankLimit` hits are found. Undefined when that would
 * read more messages than the term has hits: then reading every hit from the index is cheaper.
 */
async function newestHits(
  db: AnyPgDatabase,
  ids: readonly string[],
  range: { from: number; to: number } | undefined,
  shape: LineageShape,
  settings: { tsquery: SQL; pattern: string; limit: number; rankLimit: number; tableHits: number },
): Promise<{ rows: Record<string, unknown>[]; rankLimited: boolean } | undefined> {
  const { tsquery, pattern, limit, rankLimit } = settings;
  // The probe read the lineage's hits only (selective) or the whole table's.
  const lineageHits = Math.min(
    shape.lineageRows,
    shape.selective
      ? settings.tableHits
      : (settings.tableHits * shape.lineageRows) / shape.tableRows,
  );
  const density = Math.max(lineageHits / Math.max(1, shape.lineageRows), 1e-9);
  let count = Math.ceil((1.25 * (rankLimit + 1)) / density);
  for (;;) {
    if (count >= lineageHits) return undefined;
    const { windows, limited } = newestWindows(ids, range, shape, count);
    if (windows.length === 0) return { rows: [], rankLimited: false };
    // `is true` keeps the GIN index out: the pages of these windows are read, not every hit.
    const rows = rowsOf(
      await db.execute(sql`
        with hits as materialized (
          select m.ctid as tid, m.session_id, m.sequence, w.depth
          from unnest(${sql.param(windows.map((window) => window.session))}::text[],
            ${sql.param(windows.map((window) => window.low))}::int[],
            ${sql.param(windows.map((window) => window.high))}::int[],
            ${sql.param(windows.map((window) => window.depth))}::int[])
            as w(session_id, low, high, depth)
          join baton_messages m
            on m.session_id = w.session_id and m.sequence between w.low and w.high
          where (m.search_vector @@ ${tsquery}) is true
        ),
        newest as (select * from hits order by depth desc, sequence desc limit ${rankLimit}),
        counts as (select (select count(*) from hits)::int as hit_count)
        select c.hit_count, r.*
        from counts c left join lateral (${ranked(tsquery, pattern, limit)}) r on true
        order by r.exact desc nulls last, r.rank desc, r.depth asc, r.sequence asc`),
    );
    const hitCount = Number(rows[0]?.hit_count ?? 0);
    if (hitCount > rankLimit || !limited) {
      return {
        rows: rows.filter((row) => row.session_id !== null && row.session_id !== undefined),
        rankLimited: hitCount > rankLimit,
      };
    }
    count *= 4;
  }
}

/** pg_trgm can serve an `ilike '%...%'` only from a run of 3 word characters in the pattern. */
const trigramQuery = /[\p{L}\p{N}]{3}/u;

// Looked up on each verbatim search (a catalog read): an index added after the store opened counts.
async function hasTrigramIndex(db: AnyPgDatabase): Promise<boolean> {
  const [row] = rowsOf(
    await db.execute(
      sql`select to_regclass('baton_messages_search_trgm_idx') is not null as present`,
    ),
  );
  return row?.present === true || row?.present === 't';
}

/** The first `"toolName":"..."` of the message's JSON text, still JSON-escaped (read as text: a NUL escaped elsewhere in the message must not fail the query). */
function toolNameOf(message: SQL): SQL {
  return sql`substring(${message}::text from '"toolName" *: *"((?:[^"\\\\]|\\\\.){1,200})"')`;
}

function parseToolName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const name = JSON.parse(`"${value}"`);
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

function queryTerms(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}_]+/u)
        .filter((term) => term.length >= 2 && term !== 'or'),
    ),
  ];
}

/** Checks `recall`'s options before anything is read. */
export function checkRecallOptions(given: unknown): RecallOptions {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new InvalidInputError({ path: 'options', message: 'must be an object' });
  }
  const options = given as RecallOptions;
  const { query } = options;
  if (query !== undefined) {
    if (typeof query !== 'string') {
      throw new InvalidInputError({ path: 'query', message: 'must be a string' });
    }
    if (query.length > recallQueryMaxLength) {
      throw new RecallQueryError({
        problem: 'too_long',
        length: query.length,
        maxLength: recallQueryMaxLength,
      });
    }
    if (query.includes('\u0000') || unpairedSurrogate.test(query)) {
      throw new RecallQueryError({
        problem: 'not_storable',
        length: query.length,
        maxLength: recallQueryMaxLength,
      });
    }
    if (query.trim() === '') {
      throw new RecallQueryError({
        problem: 'empty',
        length: query.length,
        maxLength: recallQueryMaxLength,
      });
    }
  }
  for (const field of ['fromSequence', 'toSequence'] as const) {
    const value = options[field];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0 || value > maxSequence)) {
      throw new InvalidInputError({
        path: field,
        message: `must be an integer from 0 to ${maxSequence}`,
      });
    }
  }
  if (
    query === undefined &&
    options.fromSequence === undefined &&
    options.toSequence === undefined
  ) {
    throw new RecallQueryError({ problem: 'missing', length: 0, maxLength: recallQueryMaxLength });
  }
  if (options.rangeSessionId !== undefined) {
    if (typeof options.rangeSessionId !== 'string' || options.rangeSessionId === '') {
      throw new InvalidInputError({
        path: 'rangeSessionId',
        message: 'must be a non-empty string',
      });
    }
  }
  const { limit, excerptLength, rankLimit, redact } = options;
  if (redact !== undefined && typeof redact !== 'function') {
    throw new InvalidInputError({ path: 'redact', message: 'must be a function' });
  }
  if (
    rankLimit !== undefined &&
    (!Number.isSafeInteger(rankLimit) || rankLimit < 1 || rankLimit > maxRankLimit)
  ) {
    throw new InvalidInputError({
      path: 'rankLimit',
      message: `must be an integer from 1 to ${maxRankLimit}`,
    });
  }
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1 || limit > maxLimit)) {
    throw new InvalidInputError({
      path: 'limit',
      message: `must be an integer from 1 to ${maxLimit}`,
    });
  }
  if (
    excerptLength !== undefined &&
    (!Number.isSafeInteger(excerptLength) ||
      excerptLength < minExcerptLength ||
      excerptLength > maxExcerptLength)
  ) {
    throw new InvalidInputError({
      path: 'excerptLength',
      message: `must be an integer from ${minExcerptLength} to ${maxExcerptLength}`,
    });
  }
  return options;
}
