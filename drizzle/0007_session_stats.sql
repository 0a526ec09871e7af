CREATE TABLE "session_stats" (
	"project_id" text NOT NULL,
	"session_id" text NOT NULL,
	"turn_count" integer DEFAULT 0 NOT NULL,
	"first_at" timestamp with time zone,
	"last_at" timestamp with time zone,
	"h_sum" double precision DEFAULT 0 NOT NULL,
	"h_n" integer DEFAULT 0 NOT NULL,
	"d_sum" double precision DEFAULT 0 NOT NULL,
	"d_n" integer DEFAULT 0 NOT NULL,
	"width" integer DEFAULT 1 NOT NULL,
	"ccs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"transcript" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "session_stats_project_id_session_id_pk" PRIMARY KEY("project_id","session_id")
);
--> statement-breakpoint
ALTER TABLE "session_stats" ADD CONSTRAINT "session_stats_project_id_session_id_sessions_project_id_id_fk" FOREIGN KEY ("project_id","session_id") REFERENCES "public"."sessions"("project_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_stats_recent_idx" ON "session_stats" USING btree ("project_id","last_at");--> statement-breakpoint
-- Back-fill: the figures of every session that already has turns, as server/services/session-stats.ts rebuilds them.
INSERT INTO "session_stats" ("project_id", "session_id", "turn_count", "first_at", "last_at", "h_sum", "h_n", "d_sum",
                             "d_n", "width", "ccs", "transcript")
WITH base AS (
  SELECT project_id, session_id, count(*)::int AS n, min(ts) AS f, max(ts) AS l,
         coalesce(sum(hallucination), 0)::float8 AS hs, count(hallucination)::int AS hn,
         coalesce(sum(drift), 0)::float8 AS ds, count(drift)::int AS dn, max(turn) AS mt
    FROM turns GROUP BY project_id, session_id
), w AS (
  SELECT base.*, (SELECT min(p) FROM (SELECT (2 ^ g)::int AS p FROM generate_series(0, 30) AS g) AS ps
                   WHERE (greatest(base.mt, 1) - 1) / p < 64) AS width
    FROM base
), cells AS (
  SELECT w.project_id, w.session_id, (greatest(t.turn, 1) - 1) / w.width AS b,
         coalesce(sum((t.footprint->>'ccs')::float8), 0)::float8 AS cs, count((t.footprint->>'ccs')::float8)::int AS cn,
         coalesce(sum((t.footprint->>'transcript')::float8), 0)::float8 AS xs,
         count((t.footprint->>'transcript')::float8)::int AS xn
    FROM w JOIN turns t ON t.project_id = w.project_id AND t.session_id = w.session_id
   GROUP BY w.project_id, w.session_id, w.width, b
), dense AS (
  SELECT w.project_id, w.session_id, g.b, coalesce(c.cs, 0) AS cs, coalesce(c.cn, 0) AS cn,
         coalesce(c.xs, 0) AS xs, coalesce(c.xn, 0) AS xn
    FROM w CROSS JOIN LATERAL generate_series(0, (greatest(w.mt, 1) - 1) / w.width) AS g(b)
    LEFT JOIN cells c ON c.project_id = w.project_id AND c.session_id = w.session_id AND c.b = g.b
)
SELECT w.project_id, w.session_id, w.n, w.f, w.l, w.hs, w.hn, w.ds, w.dn, w.width,
       (SELECT jsonb_agg(jsonb_build_array(d.cs, d.cn) ORDER BY d.b) FROM dense d
         WHERE d.project_id = w.project_id AND d.session_id = w.session_id),
       (SELECT jsonb_agg(jsonb_build_array(d.xs, d.xn) ORDER BY d.b) FROM dense d
         WHERE d.project_id = w.project_id AND d.session_id = w.session_id)
  FROM w;
