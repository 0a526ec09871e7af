CREATE TABLE "annotations" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"target" text NOT NULL,
	"session_id" text,
	"turn" integer,
	"field" text,
	"term" text,
	"artifact_id" text,
	"proposal_id" text,
	"entry_id" text,
	"name" text,
	"value" jsonb,
	"comment" text,
	"author" text NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"redactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "annotations_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "score_definitions" (
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"min" double precision,
	"max" double precision,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "score_definitions_project_id_name_pk" PRIMARY KEY("project_id","name")
);
--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_definitions" ADD CONSTRAINT "score_definitions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "annotations_session_turn" ON "annotations" USING btree ("project_id","session_id","turn");--> statement-breakpoint
CREATE INDEX "annotations_created" ON "annotations" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "annotations_proposal" ON "annotations" USING btree ("project_id","proposal_id");--> statement-breakpoint
CREATE INDEX "annotations_entry" ON "annotations" USING btree ("project_id","entry_id");