ALTER TABLE "baton_messages" ADD COLUMN "search_text" text;--> statement-breakpoint
-- Added by hand to drizzle-kit's output (data, not schema): messages stored before this migration get
-- their search text here, by the same rule as `messageSearchText` in src/message-search-text.ts (before
-- the vector column exists, so each vector is computed once). A message that JSON functions cannot
-- read as text (a NUL escaped in it) is indexed on its JSON text instead of failing the migration.
CREATE FUNCTION pg_temp.baton_search_text(m json) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RETURN CASE json_typeof(m->'content')
    WHEN 'string' THEN m->>'content'
    WHEN 'array' THEN (
      SELECT string_agg(x.t, E'\n' ORDER BY p.n)
      FROM json_array_elements(m->'content') WITH ORDINALITY AS p(part, n)
      CROSS JOIN LATERAL (SELECT CASE
        WHEN json_typeof(p.part) <> 'object' THEN NULL
        WHEN p.part->>'type' IN ('text', 'reasoning') THEN p.part->>'text'
        WHEN p.part->>'type' = 'tool-call' THEN concat_ws(E'\n', p.part->>'toolName', (p.part->'input')::text)
        WHEN p.part->>'type' = 'tool-result' THEN concat_ws(E'\n', p.part->>'toolName',
          CASE WHEN json_typeof(p.part->'output'->'value') = 'string' THEN p.part->'output'->>'value'
          ELSE (p.part->'output'->'value')::text END)
        ELSE NULL END AS t) x
      WHERE x.t IS NOT NULL)
    ELSE NULL END;
EXCEPTION WHEN others THEN
  RETURN replace(m::text, E'\\u0000', ' ');
END $$;--> statement-breakpoint
UPDATE "baton_messages" SET "search_text" = pg_temp.baton_search_text("message");--> statement-breakpoint
DROP FUNCTION pg_temp.baton_search_text(json);--> statement-breakpoint
ALTER TABLE "baton_messages" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, left("baton_messages"."search_text", 100000))) STORED;--> statement-breakpoint
CREATE INDEX "baton_messages_search_idx" ON "baton_messages" USING gin ("search_vector");