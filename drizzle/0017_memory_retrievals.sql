CREATE TABLE "memory_retrievals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"query" text NOT NULL,
	"redactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mode" text NOT NULL,
	"result_limit" integer NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retrieval_judgments" (
	"project_id" text NOT NULL,
	"retrieval_id" uuid NOT NULL,
	"source" text NOT NULL,
	"item_id" text NOT NULL,
	"relevant" boolean NOT NULL,
	"returned" boolean NOT NULL,
	"judged_by" text NOT NULL,
	"judged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retrieval_judgments_retrieval_id_source_item_id_pk" PRIMARY KEY("retrieval_id","source","item_id")
);
--> statement-breakpoint
ALTER TABLE "memory_retrievals" ADD CONSTRAINT "memory_retrievals_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retrieval_judgments" ADD CONSTRAINT "retrieval_judgments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retrieval_judgments" ADD CONSTRAINT "retrieval_judgments_retrieval_id_memory_retrievals_id_fk" FOREIGN KEY ("retrieval_id") REFERENCES "public"."memory_retrievals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_retrievals_at_idx" ON "memory_retrievals" USING btree ("project_id","at" DESC NULLS LAST,"id");