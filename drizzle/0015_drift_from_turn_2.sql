-- D̄ averages D_t over turns 2…T (ACC §5.3: drift is undefined at the first turn): recount the kept sums.
UPDATE "session_stats" s
   SET "d_sum" = x."d_sum", "d_n" = x."d_n"
  FROM (SELECT "project_id", "session_id",
               coalesce(sum("drift") FILTER (WHERE "turn" >= 2), 0)::float8 AS "d_sum",
               (count("drift") FILTER (WHERE "turn" >= 2))::int AS "d_n"
          FROM "turns"
         -- Only sessions that sent a drift for a turn before 2: the others' figures are right already.
         WHERE ("project_id", "session_id") IN (SELECT "project_id", "session_id" FROM "turns"
                                                 WHERE "turn" < 2 AND "drift" IS NOT NULL)
         GROUP BY "project_id", "session_id") x
 WHERE s."project_id" = x."project_id" AND s."session_id" = x."session_id";
