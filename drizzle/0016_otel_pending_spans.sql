CREATE TABLE "otel_pending_spans" (
	"project_id" text NOT NULL,
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"span" jsonb NOT NULL,
	"resource" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "otel_pending_spans_project_id_trace_id_span_id_pk" PRIMARY KEY("project_id","trace_id","span_id")
);
--> statement-breakpoint
ALTER TABLE "otel_pending_spans" ADD CONSTRAINT "otel_pending_spans_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "otel_pending_spans_received" ON "otel_pending_spans" USING btree ("received_at");--> statement-breakpoint
-- A span stored twice before this index (an export retried while its original was being written): the later copies
-- keep their turns, their span id marked with the turn number, so the index can be built.
UPDATE "turns" t
   SET "extra" = jsonb_set(t."extra", '{otel,span_id}', to_jsonb((t."extra"->'otel'->>'span_id') || '#' || t."turn"))
  FROM (SELECT "project_id", "session_id", "turn",
               row_number() OVER (PARTITION BY "project_id", "session_id", "extra"->'otel'->>'span_id'
                                  ORDER BY "turn") AS n
          FROM "turns" WHERE "extra"->'otel'->>'span_id' IS NOT NULL) d
 WHERE d.n > 1 AND t."project_id" = d."project_id" AND t."session_id" = d."session_id" AND t."turn" = d."turn";
--> statement-breakpoint
CREATE UNIQUE INDEX "turns_otel_span" ON "turns" USING btree ("project_id","session_id",("extra"->'otel'->>'span_id')) WHERE ("turns"."extra"->'otel'->>'span_id') is not null;