CREATE TABLE "curation_outcomes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"event_id" text NOT NULL,
	"disposition" text NOT NULL,
	"scope" text,
	"kind" text,
	"reason" text,
	"rationale" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"entry_id" uuid,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"scope" text NOT NULL,
	"kind" text NOT NULL,
	"content" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"source_event_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_entry_versions" (
	"entry_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"operation" text NOT NULL,
	"scope" text NOT NULL,
	"kind" text NOT NULL,
	"content" text NOT NULL,
	"status" text NOT NULL,
	"event_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_entry_versions_entry_id_version_pk" PRIMARY KEY("entry_id","version")
);
--> statement-breakpoint
CREATE TABLE "memory_events" (
	"project_id" text NOT NULL,
	"event_id" text NOT NULL,
	"shape" text NOT NULL,
	"source_agent" text NOT NULL,
	"task_id" text,
	"kind" text NOT NULL,
	"content" text NOT NULL,
	"suggested_scope" text NOT NULL,
	"confidence" text NOT NULL,
	"sensitivity" text,
	"ttl" text,
	"evidence_refs" jsonb NOT NULL,
	"request_context" jsonb,
	"supersedes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"conflicts_with" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"human_review_required" boolean DEFAULT false NOT NULL,
	"raw" jsonb NOT NULL,
	"redactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"timestamp" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_events_project_id_event_id_pk" PRIMARY KEY("project_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"event_id" text NOT NULL,
	"operation" text NOT NULL,
	"scope" text NOT NULL,
	"kind" text NOT NULL,
	"content" text NOT NULL,
	"rationale" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"target_entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"decision_note" text
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artifacts" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"session_id" text,
	"agent_id" text,
	"kind" text,
	"content" text NOT NULL,
	"provenance" jsonb,
	"created_turn" integer,
	"timestamp" text,
	"ts" timestamp with time zone,
	"extra" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"redactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artifacts_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"agent_id" text NOT NULL,
	"title" text,
	"domain" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"declared" boolean DEFAULT false NOT NULL,
	"extra" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"project_id" text NOT NULL,
	"session_id" text NOT NULL,
	"turn" integer NOT NULL,
	"agent_id" text NOT NULL,
	"input" text NOT NULL,
	"output" text NOT NULL,
	"ccs_raw" jsonb,
	"ccs" jsonb NOT NULL,
	"recalled" jsonb NOT NULL,
	"qualified" jsonb NOT NULL,
	"footprint" jsonb,
	"judge" jsonb,
	"hallucination" double precision,
	"drift" double precision,
	"timestamp" text,
	"ts" timestamp with time zone,
	"extra" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"redactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "turns_project_id_session_id_turn_pk" PRIMARY KEY("project_id","session_id","turn")
);
--> statement-breakpoint
CREATE TABLE "ucs_actions" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"t" integer NOT NULL,
	"ts" text,
	"action" text NOT NULL,
	"outcome" text,
	"success" text,
	"significance" text,
	"reward" double precision,
	"edge" text,
	"cursor_before" text,
	"cursor_after" text,
	"routed" boolean,
	"data" jsonb NOT NULL,
	CONSTRAINT "ucs_actions_project_id_agent_id_t_pk" PRIMARY KEY("project_id","agent_id","t")
);
--> statement-breakpoint
CREATE TABLE "ucs_annotations" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"artifact_id" text NOT NULL,
	"text" text,
	"failure_condition" text,
	"generalized_pattern" text,
	"annotated_at" text,
	"data" jsonb NOT NULL,
	CONSTRAINT "ucs_annotations_project_id_agent_id_artifact_id_pk" PRIMARY KEY("project_id","agent_id","artifact_id")
);
--> statement-breakpoint
CREATE TABLE "ucs_artifacts" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"score" double precision,
	"created_t" integer,
	"meta" jsonb,
	"last_seen_t" integer,
	CONSTRAINT "ucs_artifacts_project_id_agent_id_id_pk" PRIMARY KEY("project_id","agent_id","id")
);
--> statement-breakpoint
CREATE TABLE "ucs_dead_ends" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"date" text,
	"topic" text NOT NULL,
	"why_closed" text,
	"reopen_conditions" text,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"capabilities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "ucs_dead_ends_project_id_agent_id_id_pk" PRIMARY KEY("project_id","agent_id","id")
);
--> statement-breakpoint
CREATE TABLE "ucs_documents" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"content" jsonb NOT NULL,
	"source" text,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ucs_documents_project_id_agent_id_kind_key_pk" PRIMARY KEY("project_id","agent_id","kind","key")
);
--> statement-breakpoint
CREATE TABLE "ucs_judgments" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"ts" text,
	"action" text,
	"outcome" text,
	"outcome_success" text,
	"significance" text,
	"reward" double precision,
	"data" jsonb NOT NULL,
	CONSTRAINT "ucs_judgments_project_id_agent_id_id_pk" PRIMARY KEY("project_id","agent_id","id")
);
--> statement-breakpoint
CREATE TABLE "ucs_methodology" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"date" text,
	"summary" text NOT NULL,
	"source_type" text,
	"capabilities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "ucs_methodology_project_id_agent_id_id_pk" PRIMARY KEY("project_id","agent_id","id")
);
--> statement-breakpoint
CREATE TABLE "ucs_policy_overrides" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"key" text NOT NULL,
	"t" integer,
	"from_node" text,
	"to_node" text,
	"reason" text,
	"data" jsonb NOT NULL,
	CONSTRAINT "ucs_policy_overrides_project_id_agent_id_key_pk" PRIMARY KEY("project_id","agent_id","key")
);
--> statement-breakpoint
CREATE TABLE "ucs_pp_history" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"t" integer NOT NULL,
	"ts" text,
	"pp" jsonb NOT NULL,
	"health" double precision,
	"data" jsonb NOT NULL,
	CONSTRAINT "ucs_pp_history_project_id_agent_id_t_pk" PRIMARY KEY("project_id","agent_id","t")
);
--> statement-breakpoint
CREATE TABLE "ucs_snapshots" (
	"project_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"t" integer NOT NULL,
	"version" text,
	"theta_bins" integer NOT NULL,
	"phi_bins" integer NOT NULL,
	"fields" jsonb NOT NULL,
	"ports" jsonb,
	"graph" jsonb,
	"artifacts" jsonb,
	"policy" jsonb,
	"pp" jsonb,
	"trace" jsonb,
	"cursor" jsonb,
	"injection_schedule" jsonb,
	"rest" jsonb NOT NULL,
	"source" text,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ucs_snapshots_project_id_agent_id_t_pk" PRIMARY KEY("project_id","agent_id","t")
);
--> statement-breakpoint
ALTER TABLE "curation_outcomes" ADD CONSTRAINT "curation_outcomes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_entries" ADD CONSTRAINT "memory_entries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_entry_versions" ADD CONSTRAINT "memory_entry_versions_entry_id_memory_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."memory_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_events" ADD CONSTRAINT "memory_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_project_id_session_id_sessions_project_id_id_fk" FOREIGN KEY ("project_id","session_id") REFERENCES "public"."sessions"("project_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_actions" ADD CONSTRAINT "ucs_actions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_annotations" ADD CONSTRAINT "ucs_annotations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_artifacts" ADD CONSTRAINT "ucs_artifacts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_dead_ends" ADD CONSTRAINT "ucs_dead_ends_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_documents" ADD CONSTRAINT "ucs_documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_judgments" ADD CONSTRAINT "ucs_judgments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_methodology" ADD CONSTRAINT "ucs_methodology_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_policy_overrides" ADD CONSTRAINT "ucs_policy_overrides_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_pp_history" ADD CONSTRAINT "ucs_pp_history_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ucs_snapshots" ADD CONSTRAINT "ucs_snapshots_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "curation_outcomes_event_idx" ON "curation_outcomes" USING btree ("project_id","event_id");--> statement-breakpoint
CREATE INDEX "memory_entries_scope_idx" ON "memory_entries" USING btree ("project_id","scope");--> statement-breakpoint
CREATE INDEX "memory_events_agent_idx" ON "memory_events" USING btree ("project_id","source_agent");--> statement-breakpoint
CREATE INDEX "proposals_status_idx" ON "proposals" USING btree ("project_id","status");--> statement-breakpoint
CREATE INDEX "api_keys_project_idx" ON "api_keys" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("project_id","subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "artifacts_session_idx" ON "artifacts" USING btree ("project_id","session_id");--> statement-breakpoint
CREATE INDEX "ucs_actions_action_idx" ON "ucs_actions" USING btree ("project_id","agent_id","action");