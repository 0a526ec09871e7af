CREATE TABLE "ingest_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"actor" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"events" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_entry_links" (
	"project_id" text NOT NULL,
	"entry_id" uuid NOT NULL,
	"other_id" uuid NOT NULL,
	"relation" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_entry_links_entry_id_other_id_relation_pk" PRIMARY KEY("entry_id","other_id","relation")
);
--> statement-breakpoint
CREATE TABLE "rejected_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"key" text NOT NULL,
	"event_id" text,
	"batch_id" uuid,
	"errors" jsonb NOT NULL,
	"raw" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "curation_outcomes" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "curation_outcomes" ADD COLUMN "latency_ms" double precision;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "conflicts_with" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "confidence" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "source_agent" text;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "ingest_batches" ADD CONSTRAINT "ingest_batches_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_entry_links" ADD CONSTRAINT "memory_entry_links_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_entry_links" ADD CONSTRAINT "memory_entry_links_entry_id_memory_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."memory_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_entry_links" ADD CONSTRAINT "memory_entry_links_other_id_memory_entries_id_fk" FOREIGN KEY ("other_id") REFERENCES "public"."memory_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rejected_events" ADD CONSTRAINT "rejected_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingest_batches_project_idx" ON "ingest_batches" USING btree ("project_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rejected_events_key_idx" ON "rejected_events" USING btree ("project_id","key");--> statement-breakpoint
CREATE INDEX "curation_outcomes_batch_idx" ON "curation_outcomes" USING btree ("project_id","batch_id");