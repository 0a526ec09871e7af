CREATE TABLE "record_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"fields" jsonb NOT NULL,
	"old" jsonb NOT NULL,
	"superseded_by" text NOT NULL,
	"superseded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_versions" ADD CONSTRAINT "record_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_versions_record" ON "record_versions" USING btree ("project_id","record_type","record_id");