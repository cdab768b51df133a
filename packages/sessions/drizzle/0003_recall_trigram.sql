-- Written by hand (drizzle-kit does not model extensions): a trigram index over `search_text`, so the
-- verbatim (`ilike '%...%'`) side of `recall` reads index hits instead of every message of the lineage.
-- pg_trgm is a trusted extension (any role with CREATE on the database may add it), but a server
-- without the contrib package, or a PGlite opened without `@electric-sql/pglite/contrib/pg_trgm`,
-- cannot: then this migration records itself without the index and `recall` bounds its verbatim scan
-- instead (see `recallScanLimit` in src/recall-messages.ts). The index can be added later with the
-- statement below; `recall` looks for it by name on each verbatim search.
-- The exception block is a subtransaction: a failed CREATE EXTENSION does not abort the migration.
DO $$
DECLARE
  trgm_schema text;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN others THEN
    RAISE NOTICE 'baton: pg_trgm unavailable (%); recall scans a bounded window verbatim', SQLERRM;
  END;
  SELECT n.nspname INTO trgm_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS baton_messages_search_trgm_idx ON baton_messages USING gin (search_text %I.gin_trgm_ops)',
      trgm_schema);
  END IF;
END $$;
