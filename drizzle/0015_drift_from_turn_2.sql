-- D̄ averages D_t over turns 2…T (ACC §5.3: drift is undefined at the first turn): recount the kept sums.
UPDATE "session_stats" s
   SET "d_sum" = x."d_sum", "d_n" = x."d_n"
  FROM (SELECT "project_id", "session_id",
               coalesce(sum("drift") FILTER (WHERE "turn" >= 2), 0)::float8 AS "d_sum",
               (count("drift") FILTER (WHERE "turn" >= 2))::int AS "d_n"
          FROM "turns" GROUP BY "project_id", "session_id") x
 WHERE s."project_id" = x."project_id" AND s."session_id" = x."session_id";
