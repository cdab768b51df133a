CREATE TABLE "baton_compactions" (
	"id" text PRIMARY KEY NOT NULL,
	"parent_session_id" text NOT NULL,
	"child_session_id" text NOT NULL,
	"strategy" text NOT NULL,
	"stages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"summary" text,
	"used_fallback" boolean DEFAULT false NOT NULL,
	"fallback_reason" text,
	"tokens_before" integer NOT NULL,
	"tokens_after" integer NOT NULL,
	"removed_sequences" jsonb NOT NULL,
	"masked_sequences" jsonb NOT NULL,
	"summarizer_model" text,
	"duration_ms" real,
	"event" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "baton_compactions_parent_session_id_key" UNIQUE("parent_session_id"),
	CONSTRAINT "baton_compactions_child_session_id_key" UNIQUE("child_session_id")
);
--> statement-breakpoint
CREATE TABLE "baton_messages" (
	"session_id" text NOT NULL,
	"sequence" integer NOT NULL,
	"role" text NOT NULL,
	"message" json NOT NULL,
	"token_count" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "baton_messages_pkey" PRIMARY KEY("session_id","sequence")
);
--> statement-breakpoint
CREATE TABLE "baton_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"parent_id" text,
	"root_id" text NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"model" text,
	"title" text,
	"metadata" jsonb
);
--> statement-breakpoint
ALTER TABLE "baton_compactions" ADD CONSTRAINT "baton_compactions_parent_session_id_baton_sessions_id_fk" FOREIGN KEY ("parent_session_id") REFERENCES "public"."baton_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "baton_compactions" ADD CONSTRAINT "baton_compactions_child_session_id_baton_sessions_id_fk" FOREIGN KEY ("child_session_id") REFERENCES "public"."baton_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "baton_messages" ADD CONSTRAINT "baton_messages_session_id_baton_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."baton_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "baton_sessions" ADD CONSTRAINT "baton_sessions_parent_id_baton_sessions_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."baton_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "baton_sessions_parent_id_idx" ON "baton_sessions" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "baton_sessions_root_id_created_at_idx" ON "baton_sessions" USING btree ("root_id","created_at");--> statement-breakpoint
CREATE INDEX "baton_sessions_created_at_idx" ON "baton_sessions" USING btree ("created_at");