-- A traced agent's usage counts only JSON numbers not below 0 (a cost of -1 or a latency of "slow" is no figure).
-- Sessions counted before that rule may hold such values in their sums: recount those whose turns sent a usage
-- object, with the rule (as `usageSql` in server/services/session-stats.ts says it).
UPDATE "session_stats" s
   SET "tokens" = x."tokens", "tokens_n" = x."tokens_n", "cost" = x."cost", "cost_n" = x."cost_n",
       "latency_sum" = x."latency_sum", "latency_n" = x."latency_n"
  FROM (SELECT t."project_id", t."session_id",
               coalesce(sum(u."tokens"), 0)::float8 AS "tokens", count(u."tokens")::int AS "tokens_n",
               coalesce(sum(u."cost"), 0)::float8 AS "cost", count(u."cost")::int AS "cost_n",
               coalesce(sum(u."latency"), 0)::float8 AS "latency_sum", count(u."latency")::int AS "latency_n"
          FROM "turns" t
          CROSS JOIN LATERAL (
            SELECT CASE WHEN i IS NOT NULL OR o IS NOT NULL THEN coalesce(i, 0) + coalesce(o, 0) END AS "tokens",
                   c AS "cost", l AS "latency"
              FROM (SELECT
                      CASE WHEN jsonb_typeof(t."extra"->'usage'->'input_tokens') = 'number'
                           THEN CASE WHEN (t."extra"->'usage'->>'input_tokens')::float8 >= 0
                                     THEN (t."extra"->'usage'->>'input_tokens')::float8 END END AS i,
                      CASE WHEN jsonb_typeof(t."extra"->'usage'->'output_tokens') = 'number'
                           THEN CASE WHEN (t."extra"->'usage'->>'output_tokens')::float8 >= 0
                                     THEN (t."extra"->'usage'->>'output_tokens')::float8 END END AS o,
                      CASE WHEN jsonb_typeof(t."extra"->'usage'->'cost') = 'number'
                           THEN CASE WHEN (t."extra"->'usage'->>'cost')::float8 >= 0
                                     THEN (t."extra"->'usage'->>'cost')::float8 END END AS c,
                      CASE WHEN jsonb_typeof(t."extra"->'usage'->'latency_ms') = 'number'
                           THEN CASE WHEN (t."extra"->'usage'->>'latency_ms')::float8 >= 0
                                     THEN (t."extra"->'usage'->>'latency_ms')::float8 END END AS l) v
          ) u
         GROUP BY t."project_id", t."session_id"
        HAVING bool_or(jsonb_typeof(t."extra"->'usage') = 'object')) x
 WHERE s."project_id" = x."project_id" AND s."session_id" = x."session_id";
