ALTER TABLE "baton_sessions" ADD COLUMN "head_key" text;--> statement-breakpoint
-- Added by hand to drizzle-kit's output (data, not schema): existing rows get a line before the index
-- exists. An open session alone in its lineage continues the root's line; where a lineage already holds
-- several open sessions (forks, children, or two heads left by an older version), each keeps a line of
-- its own so the index can be built; ended sessions never take a successor, so their own id will do.
UPDATE "baton_sessions" AS "s" SET "head_key" = CASE
  WHEN "s"."ended_at" IS NULL AND NOT EXISTS (
    SELECT 1 FROM "baton_sessions" AS "o"
    WHERE "o"."root_id" = "s"."root_id" AND "o"."ended_at" IS NULL AND "o"."id" <> "s"."id"
  ) THEN "s"."root_id"
  ELSE "s"."id"
END;--> statement-breakpoint
CREATE UNIQUE INDEX "baton_sessions_open_head_key" ON "baton_sessions" USING btree ("head_key") WHERE "baton_sessions"."ended_at" is null;
