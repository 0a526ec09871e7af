ALTER TABLE "proposals" ADD COLUMN "target_artifact_id" text;--> statement-breakpoint
ALTER TABLE "artifacts" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "artifacts" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "artifacts" ADD COLUMN "status_changed_by" text;