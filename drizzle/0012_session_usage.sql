ALTER TABLE "session_stats" ADD COLUMN "tokens" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "session_stats" ADD COLUMN "tokens_n" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "session_stats" ADD COLUMN "cost" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "session_stats" ADD COLUMN "cost_n" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "session_stats" ADD COLUMN "latency_sum" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "session_stats" ADD COLUMN "latency_n" integer DEFAULT 0 NOT NULL;