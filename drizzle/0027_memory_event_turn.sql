ALTER TABLE "memory_events" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "memory_events" ADD COLUMN "turn" integer;--> statement-breakpoint
CREATE INDEX "memory_events_turn_idx" ON "memory_events" USING btree ("project_id","session_id","turn") WHERE "memory_events"."session_id" is not null;