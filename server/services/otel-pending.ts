import { sql } from 'drizzle-orm';
import { otlpToEnvelopes, type OtlpOptions, type OtlpResult, type PendingSpan } from '@/lib/otel/otlp';
import { rowsOf, type Db } from '@/server/db';
import { otelPendingSpans } from '@/server/db/schema/sessions';
import { redactDeep } from '@/lib/redact/redact';
import { log } from '@/server/log';
import { periodic } from '@/server/lifecycle';
import { ingestOtel } from './otel-turns';
import type { IngestSummary } from './ingest';

/**
 * Traces split across exports. A batch span processor exports what has ended every few seconds, so the LLM and tool
 * calls of an invocation that runs longer arrive before the invocation's own span. They wait in
 * `otel_pending_spans` (lib/otel/otlp.ts `pending`); a request carrying spans of their trace takes them back, so the
 * turn, when it comes, has all its calls. Spans still waiting after PENDING_MS (their parent never came: an agent that
 * traces only its model calls under an untraced parent) become turns of their own in a sweep, which every instance
 * runs every SWEEP_EVERY_MS.
 *
 * Safe with any number of instances: waiting spans are taken by `delete … returning`, so one request (or one sweep)
 * owns them; a request that fails puts back what it took.
 */

/** How long spans wait for their turn's span before the sweep places them as they are. */
export const PENDING_MS = 120_000;
/** How often each process sweeps, whether or not spans arrive. */
export const SWEEP_EVERY_MS = 30_000;

type Body = { resourceSpans: { resource?: { attributes?: unknown }; scopeSpans?: { spans?: unknown[] }[] }[] };
type Row = {
  trace_id: string;
  span_id: string;
  span: Record<string, unknown>;
  resource: unknown[];
  received_at?: string;
};
/** How long a span may wait at most, whatever happens to its trace (then it is deleted unread). */
const KEEP_DAYS = 7;

const spansOf = (body: Body) =>
  body.resourceSpans.flatMap((rs) =>
    (rs?.scopeSpans ?? []).flatMap((ss) => (ss?.spans ?? []) as { traceId?: unknown; spanId?: unknown }[]),
  );

/** The request with the waiting spans of its traces added (each with its resource), as one more resource entry each. */
function joined(body: Body, rows: Row[]): Body {
  const here = new Set(spansOf(body).map((sp) => `${sp?.traceId}\u0000${sp?.spanId}`));
  const extra = rows
    .filter((r) => !here.has(`${r.trace_id}\u0000${r.span_id}`))
    .map((r) => ({ resource: { attributes: r.resource }, scopeSpans: [{ spans: [r.span] }] }));
  return { resourceSpans: [...body.resourceSpans, ...extra] };
}

/**
 * A span as it may wait: secrets redacted (it is memory content, kept until its turn comes) and NUL characters, which
 * PostgreSQL's jsonb refuses, replaced, so one span cannot fail its request on every retry.
 */
function storable<T>(v: T): T {
  const json = JSON.stringify(v);
  const clean = json.includes('\\u0000') ? (JSON.parse(json.replaceAll('\\u0000', '\\ufffd')) as T) : v;
  return redactDeep(clean, '');
}

async function keep(db: Db, projectId: string, spans: (PendingSpan & { receivedAt?: string })[]) {
  for (let i = 0; i < spans.length; i += 500)
    await db
      .insert(otelPendingSpans)
      .values(
        spans.slice(i, i + 500).map((p) => ({
          projectId,
          traceId: p.traceId,
          spanId: p.spanId,
          span: storable(p.span),
          resource: storable(p.resource),
          // A span taken and put back keeps its time: a busy trace does not hold its waiting calls back for ever.
          ...(p.receivedAt ? { receivedAt: sql`${p.receivedAt}::timestamptz` } : {}),
        })),
      )
      .onConflictDoNothing();
}

const putBack = (db: Db, projectId: string, rows: Row[]) =>
  keep(
    db,
    projectId,
    rows.map((r) => ({
      traceId: r.trace_id,
      spanId: r.span_id,
      span: r.span,
      resource: r.resource,
      receivedAt: r.received_at,
    })),
  );

/**
 * Maps one OTLP request with the spans that waited for its traces, stores the turns, and keeps the calls whose turn
 * has not come. `pending` in the answer counts the spans now waiting from this request.
 */
export async function ingestTraces(
  db: Db,
  projectId: string,
  body: unknown,
  /** `otlpToEnvelopes(body, options)`, which the caller made to refuse a body that is not an export request. */
  first: OtlpResult,
  actor: string,
  options: OtlpOptions = {},
): Promise<{ mapped: OtlpResult; summary: IngestSummary }> {
  const traces = [...new Set(spansOf(body as Body).map((sp) => sp?.traceId))].filter(
    (t): t is string => typeof t === 'string' && t.length > 0,
  );
  const taken = traces.length
    ? rowsOf<Row>(
        await db.execute(
          sql`delete from otel_pending_spans where project_id = ${projectId}
              and trace_id in (${sql.join(
                traces.map((t) => sql`${t}`),
                sql`, `,
              )})
              returning trace_id, span_id, span, resource, to_json(received_at) #>> '{}' as received_at`,
        ),
      )
    : [];
  const mapped = taken.length ? otlpToEnvelopes(joined(body as Body, taken), options) : first;
  let summary: IngestSummary;
  try {
    summary = mapped.envelopes.length
      ? await ingestOtel(db, projectId, mapped.envelopes, actor)
      : { results: [], accepted: 0, duplicates: 0, rejected: 0, conflicts: 0, superseded: 0 };
    if (mapped.pending.length) {
      // Those that waited before keep their time.
      const since = new Map(taken.map((r) => [`${r.trace_id}\u0000${r.span_id}`, r.received_at]));
      await keep(
        db,
        projectId,
        mapped.pending.map((p) => ({ ...p, receivedAt: since.get(`${p.traceId}\u0000${p.spanId}`) })),
      );
    }
  } catch (e) {
    await putBack(db, projectId, taken).catch((err) => log.error({ err }, 'could not put back pending spans'));
    throw e;
  }
  return { mapped, summary };
}

/**
 * Places the spans that have waited longer than `olderThanMs` for their turn's span: each trace's calls become
 * turns as they are. Returns how many spans it placed.
 */
export async function sweepPendingSpans(db: Db, olderThanMs = PENDING_MS): Promise<number> {
  await db.execute(sql`delete from otel_pending_spans where received_at < now() - make_interval(days => ${KEEP_DAYS})`);
  const rows = rowsOf<Row & { project_id: string }>(
    await db.execute(
      sql`delete from otel_pending_spans p
          using (select project_id, trace_id from otel_pending_spans group by project_id, trace_id
                 having max(received_at) < now() - make_interval(secs => ${olderThanMs / 1000}) limit 50) old
          where p.project_id = old.project_id and p.trace_id = old.trace_id
          returning p.project_id, p.trace_id, p.span_id, p.span, p.resource,
                    to_json(p.received_at) #>> '{}' as received_at`,
    ),
  );
  const byProject = new Map<string, Row[]>();
  for (const r of rows) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r]);
  let placed = 0;
  for (const [projectId, list] of byProject) {
    const body = joined({ resourceSpans: [] }, list);
    const options = { orphansAreTurns: true };
    try {
      await ingestTraces(db, projectId, body, otlpToEnvelopes(body, options), 'otlp:pending', options);
      placed += list.length;
    } catch (err) {
      // This project's spans wait for the next sweep; the other projects' are placed.
      await putBack(db, projectId, list);
      log.error({ err, projectId }, 'placing pending OTLP spans failed');
    }
  }
  return placed;
}

/**
 * Sweeps every `everyMs` in this process for as long as it runs, so spans are placed even when no more traces come.
 * Any instance may sweep: each takes its own rows. Returns the function that stops it, which waits for a sweep under
 * way: on shutdown the spans a sweep has taken are written (or put back) before the database closes.
 */
export const startPendingSweeper = (db: Db, everyMs = SWEEP_EVERY_MS) =>
  periodic('otel-pending', db, everyMs, () =>
    sweepPendingSpans(db).catch((err) => log.error({ err }, 'sweeping pending OTLP spans failed')),
  );
