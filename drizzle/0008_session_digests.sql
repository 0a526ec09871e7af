CREATE TABLE "session_digests" (
	"project_id" text NOT NULL,
	"session_id" text NOT NULL,
	"turns" integer NOT NULL,
	"last_turn" integer,
	"stress_meta" text NOT NULL,
	"digest" jsonb NOT NULL,
	"last_ccs" jsonb NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_digests_project_id_session_id_pk" PRIMARY KEY("project_id","session_id")
);
--> statement-breakpoint
CREATE TABLE "term_events" (
	"project_id" text NOT NULL,
	"session_id" text NOT NULL,
	"field" text NOT NULL,
	"term" text NOT NULL,
	"turn" integer NOT NULL,
	"kind" text NOT NULL,
	"other" text
);
--> statement-breakpoint
ALTER TABLE "session_digests" ADD CONSTRAINT "session_digests_project_id_session_id_sessions_project_id_id_fk" FOREIGN KEY ("project_id","session_id") REFERENCES "public"."sessions"("project_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_events" ADD CONSTRAINT "term_events_project_id_session_id_sessions_project_id_id_fk" FOREIGN KEY ("project_id","session_id") REFERENCES "public"."sessions"("project_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "term_events_term_idx" ON "term_events" USING btree ("project_id","session_id","field",md5("term"),"turn");