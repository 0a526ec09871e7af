ALTER TABLE "session_stats" ADD COLUMN "first_turn" integer;--> statement-breakpoint
ALTER TABLE "session_stats" ADD COLUMN "first_drift" double precision;--> statement-breakpoint
-- D̄ leaves out the session's first turn, whatever its number (it left out turns before 2, which counted nothing
-- of a session numbered from 0 twice). Back-fill: each session's first turn and its drift, and D̄'s sums without it.
UPDATE "session_stats" s
   SET "first_turn" = x."first_turn", "first_drift" = x."first_drift", "d_sum" = x."d_sum", "d_n" = x."d_n"
  FROM (SELECT t."project_id", t."session_id", f."turn" AS "first_turn", f."drift" AS "first_drift",
               coalesce(sum(t."drift") FILTER (WHERE t."turn" > f."turn"), 0)::float8 AS "d_sum",
               (count(t."drift") FILTER (WHERE t."turn" > f."turn"))::int AS "d_n"
          FROM "turns" t
          JOIN (SELECT DISTINCT ON ("project_id", "session_id") "project_id", "session_id", "turn", "drift"
                  FROM "turns" ORDER BY "project_id", "session_id", "turn") f
            ON f."project_id" = t."project_id" AND f."session_id" = t."session_id"
         GROUP BY t."project_id", t."session_id", f."turn", f."drift") x
 WHERE s."project_id" = x."project_id" AND s."session_id" = x."session_id";
