CREATE TABLE "text_vectors" (
	"project_id" text NOT NULL,
	"model_id" text NOT NULL,
	"text_sha256" text NOT NULL,
	"vector" "bytea" NOT NULL,
	CONSTRAINT "text_vectors_project_id_model_id_text_sha256_pk" PRIMARY KEY("project_id","model_id","text_sha256")
);
--> statement-breakpoint
ALTER TABLE "text_vectors" ADD CONSTRAINT "text_vectors_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;