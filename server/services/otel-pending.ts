import { sql } from 'drizzle-orm';
import { otlpToEnvelopes, usableId, type OtlpOptions, type OtlpResult, type PendingSpan } from '@/lib/otel/otlp';
import { rowsOf, type Db } from '@/server/db';
import { otelPendingSpans } from '@/server/db/schema/sessions';
import { redactDeep } from '@/lib/redact/redact';
import { log } from '@/server/log';
import { periodic } from '@/server/lifecycle';
import { callsUnder, withLateCalls, type StoredTurn } from '@/lib/otel/late-calls';
import { auditLog } from '@/server/db/schema/projects';
import { refreshDigestsSoon } from './session-digest';
import { ingestOtel, list } from './otel-turns';
import { turnsReplaced, type IngestSummary } from './ingest';

/**
 * Traces split across exports. A batch span processor exports what has ended every few seconds, so the LLM and tool
 * calls of an invocation that runs longer arrive before the invocation's own span. They wait in
 * `otel_pending_spans` (lib/otel/otlp.ts `pending`); a request carrying spans of their trace takes them back, so the
 * turn, when it comes, has all its calls. Spans still waiting after PENDING_MS (their parent never came: an agent that
 * traces only its model calls under an untraced parent) become turns of their own in a sweep, which every instance
 * runs every SWEEP_EVERY_MS.
 *
 * Safe with any number of instances: waiting spans are taken by `delete … returning`, so one request (or one sweep)
 * owns them; a request that fails puts back what it took. Two requests of one trace at once (the calls' and the
 * invocation's) can miss each other: the invocation's takes the waiting spans before the other has kept them. So each
 * request looks again once it is written (`attachLateCalls`): calls whose parent span is a stored turn join it. One of
 * the two always sees the other's writes, as each looks after its own have committed.
 */

/** How long spans wait for their turn's span before the sweep places them as they are. */
export const PENDING_MS = 120_000;
/** How often each process sweeps, whether or not spans arrive. */
export const SWEEP_EVERY_MS = 30_000;
/** Traces a sweep takes at a time; it goes on while there are more, for at most SWEEP_BUDGET_MS. */
const SWEEP_BATCH = 100;
const SWEEP_BUDGET_MS = 20_000;
/**
 * Spans a project may have waiting. Beyond it (an agent that exports only its calls, under a parent it never sends,
 * faster than the sweep places them), a request's calls are placed as turns of their own at once, and its answer
 * warns.
 */
export const MAX_WAITING = 100_000;

/** A jsonb parameter; SQL null for null. */
const jsonb = (v: unknown) => (v === null ? null : JSON.stringify(v));

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

/**
 * A span's ids and times, which are no content: redacted, a digit run that passed for a card number (a start of 19
 * digits did one time in ten before the redactor asked for an issuer's prefix; a span id still can) left the call
 * without its start or its parent, so calls that waited came out of order or apart from their turn.
 */
const SPAN_FRAME = ['traceId', 'spanId', 'parentSpanId', 'startTimeUnixNano', 'endTimeUnixNano'] as const;

/** A waiting span as stored: its content as `storable` keeps it, its ids and times as sent. */
function storableSpan(span: Record<string, unknown>): Record<string, unknown> {
  const out = storable(span);
  for (const k of SPAN_FRAME) {
    const v = span[k];
    if (typeof v === 'number' || (typeof v === 'string' && !v.includes('\u0000'))) out[k] = v;
  }
  return out;
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
          span: storableSpan(p.span),
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
): Promise<{ mapped: OtlpResult; summary: IngestSummary; warning?: string }> {
  const traces = [...new Set(spansOf(body as Body).map((sp) => sp?.traceId))].filter(usableId);
  const taken = traces.length
    ? rowsOf<Row>(
        await db.execute(
          sql`delete from otel_pending_spans where project_id = ${projectId}
              and trace_id in (${list(traces)})
              returning trace_id, span_id, span, resource, to_json(received_at) #>> '{}' as received_at`,
        ),
      )
    : [];
  let mapped = taken.length ? otlpToEnvelopes(joined(body as Body, taken), options) : first;
  let warning: string | undefined;
  if (mapped.pending.length && (await waitingIn(db, projectId)) + mapped.pending.length > MAX_WAITING) {
    const now = { ...options, orphansAreTurns: true };
    const kept = mapped.pending.length;
    mapped = otlpToEnvelopes(joined(body as Body, taken), now);
    warning =
      `${kept} spans whose turn's span is not in this export were placed as turns of their own at once: ` +
      `this project already has ${MAX_WAITING} spans waiting for theirs (export each invocation's span, or set ` +
      `mnemoscope.turn on the calls)`;
    log.warn({ projectId, kept }, 'too many OTLP spans waiting: calls placed as turns at once');
  }
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
  // Never fails the request: what stays waiting is looked at again by the sweep.
  await attachLateCalls(db, projectId, traces, actor).catch((err) =>
    log.error({ err, projectId }, 'attaching late OTLP calls to their turns failed'),
  );
  return { mapped, summary, ...(warning ? { warning } : {}) };
}

/** How many spans the project has waiting, counted up to MAX_WAITING + 1 (an index range, never the whole table). */
async function waitingIn(db: Db, projectId: string): Promise<number> {
  const [r] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from (select 1 from otel_pending_spans where project_id = ${projectId}
          limit ${MAX_WAITING + 1}) x`,
    ),
  );
  return Number(r?.n ?? 0);
}

/**
 * Waiting spans of these traces whose parent span is a stored turn's, or one of its calls' (a chain inside the agent):
 * taken into that turn as its calls (the turn superseded, its old version kept in `record_versions` and the change
 * audited, as for any correction). Each turn is changed in its own transaction holding its row, so two late batches of
 * one turn both land. Returns how many spans it placed.
 */
export async function attachLateCalls(db: Db, projectId: string, traces: string[], actor: string): Promise<number> {
  if (!traces.length) return 0;
  const waiting = rowsOf<{ trace_id: string; span_id: string; parent: string | null }>(
    await db.execute(
      sql`select trace_id, span_id, span->>'parentSpanId' as parent from otel_pending_spans
          where project_id = ${projectId} and trace_id in (${list(traces)})`,
    ),
  );
  const here = new Set(waiting.map((w) => `${w.trace_id}\u0000${w.span_id}`));
  const tops = waiting.filter((w) => w.parent && !here.has(`${w.trace_id}\u0000${w.parent}`));
  if (!tops.length) return 0;
  // The stored turns of those traces, with the spans of their calls (`turns_otel_trace`).
  const holders = rowsOf<{
    session_id: string;
    turn: number;
    trace: string | null;
    span: string;
    ts: string | null;
    calls: string[] | null;
  }>(
    await db.execute(
      sql`select session_id, turn, extra->'otel'->>'trace_id' as trace, extra->'otel'->>'span_id' as span,
                 "timestamp" as ts,
                 array(select c->>'span_id' from jsonb_array_elements(
                         case when jsonb_typeof(extra->'calls') = 'array' then extra->'calls' else '[]'::jsonb end) c
                        where c->>'span_id' is not null) as calls
            from turns where project_id = ${projectId}
             and extra->'otel'->>'trace_id' in (${list([...new Set(tops.map((w) => w.trace_id))])})`,
    ),
  );
  // Waiting spans by trace and parent, so a trace of many turns and calls is walked once per span, not per turn.
  const children = new Map<string, string[]>();
  for (const w of waiting) {
    if (!w.parent) continue;
    const key = `${w.trace_id}\u0000${w.parent}`;
    const kids = children.get(key);
    if (kids) kids.push(w.span_id);
    else children.set(key, [w.span_id]);
  }
  let placed = 0;
  for (const h of holders) {
    const start = h.ts ? Date.parse(h.ts) : NaN;
    if (!h.trace || !h.span || !Number.isFinite(start)) continue;
    // The spans below the turn's span or its calls': their children that wait, and everything waiting below them
    // (each once: ids a hostile exporter sends in a cycle end the walk).
    const anchors = [h.span, ...(h.calls ?? [])];
    const below = new Set<string>();
    for (let edge = anchors; edge.length;) {
      const next: string[] = [];
      for (const id of edge)
        for (const kid of children.get(`${h.trace}\u0000${id}`) ?? [])
          if (!below.has(kid)) {
            below.add(kid);
            next.push(kid);
          }
      edge = next;
    }
    if (below.size) placed += await attachTo(db, projectId, { ...h, anchors }, h.trace, start, [...below], actor);
  }
  return placed;
}

async function attachTo(
  db: Db,
  projectId: string,
  h: { session_id: string; turn: number; span: string; anchors: string[] },
  trace: string,
  start: number,
  spans: string[],
  actor: string,
): Promise<number> {
  const n = await db.transaction(async (tx) => {
    const [stored] = rowsOf<StoredTurn>(
      await tx.execute(
        sql`select input, output, recalled, footprint, extra from turns
             where project_id = ${projectId} and session_id = ${h.session_id} and turn = ${h.turn} for update`,
      ),
    );
    if (!stored) return 0;
    const taken = rowsOf<Row>(
      await tx.execute(
        sql`delete from otel_pending_spans where project_id = ${projectId} and trace_id = ${trace}
              and span_id in (${list(spans)}) returning trace_id, span_id, span, resource`,
      ),
    );
    const late = callsUnder(
      { traceId: trace, spanId: h.span, startMs: start, calls: h.anchors },
      taken.map((r) => ({ traceId: r.trace_id, spanId: r.span_id, span: r.span, resource: r.resource })),
    );
    if (!late) return taken.length; // nothing in them is a call: taken, as the turn they waited for has come
    const { turn, fields } = withLateCalls(stored, late);
    if (!fields.length) return taken.length; // the turn holds them already (an export sent again)
    const id = `${h.session_id}/${h.turn}`;
    await tx.execute(
      sql`insert into record_versions (project_id, record_type, record_id, fields, old, superseded_by)
          select project_id, 'turn', ${id}, ${JSON.stringify(fields)}::jsonb, to_jsonb(t) - 'project_id', ${actor}
            from turns t where project_id = ${projectId} and session_id = ${h.session_id} and turn = ${h.turn}`,
    );
    await tx.execute(
      sql`update turns set input = ${turn.input}, output = ${turn.output},
                 recalled = ${jsonb(turn.recalled)}::jsonb, footprint = ${jsonb(turn.footprint)}::jsonb,
                 extra = ${jsonb(turn.extra)}::jsonb
           where project_id = ${projectId} and session_id = ${h.session_id} and turn = ${h.turn}`,
    );
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'record.supersede',
      subjectType: 'turn',
      subjectId: id,
      detail: { fields, reason: `${taken.length} spans of its trace arrived after it (calls added)` },
    });
    await turnsReplaced(tx, projectId, new Set([h.session_id]));
    return taken.length;
  });
  if (n) refreshDigestsSoon(db, projectId, new Set([h.session_id]));
  return n;
}

/**
 * Places the spans that have waited longer than `olderThanMs` for their turn's span: each trace's calls become
 * turns as they are, SWEEP_BATCH traces at a time for as long as there are more (at most `budgetMs`). Returns how
 * many spans it placed.
 */
export async function sweepPendingSpans(db: Db, olderThanMs = PENDING_MS, budgetMs = SWEEP_BUDGET_MS) {
  await db.execute(sql`delete from otel_pending_spans where received_at < now() - make_interval(days => ${KEEP_DAYS})`);
  const until = Date.now() + budgetMs;
  let placed = 0;
  for (;;) {
    const round = await sweepRound(db, olderThanMs);
    placed += round.placed;
    // A round that placed nothing (its projects' spans were put back) is not tried again at once.
    if (round.traces < SWEEP_BATCH || !round.placed || Date.now() > until) return placed;
  }
}

async function sweepRound(db: Db, olderThanMs: number): Promise<{ traces: number; placed: number }> {
  // Calls whose turn is stored (a request that kept them overlapped the one that stored it) join it first.
  const due = rowsOf<{ project_id: string; trace_id: string }>(
    await db.execute(
      sql`select project_id, trace_id from otel_pending_spans group by project_id, trace_id
          having max(received_at) < now() - make_interval(secs => ${olderThanMs / 1000}) limit ${SWEEP_BATCH}`,
    ),
  );
  let placed = 0;
  for (const projectId of new Set(due.map((d) => d.project_id))) {
    const traces = due.filter((d) => d.project_id === projectId).map((d) => d.trace_id);
    placed += await attachLateCalls(db, projectId, traces, 'otlp:pending').catch((err) => {
      log.error({ err, projectId }, 'attaching late OTLP calls to their turns failed');
      return 0;
    });
  }
  // The traces looked at above, no others (their calls whose turn is stored have joined it); those that still wait.
  const rows = due.length
    ? rowsOf<Row & { project_id: string }>(
        await db.execute(
          sql`delete from otel_pending_spans p
              using jsonb_to_recordset(${JSON.stringify(due)}::jsonb) as old(project_id text, trace_id text)
              where p.project_id = old.project_id and p.trace_id = old.trace_id
                -- A trace that received a span since is not due any more.
                and not exists (select 1 from otel_pending_spans q
                                 where q.project_id = p.project_id and q.trace_id = p.trace_id
                                   and q.received_at >= now() - make_interval(secs => ${olderThanMs / 1000}))
              returning p.project_id, p.trace_id, p.span_id, p.span, p.resource,
                        to_json(p.received_at) #>> '{}' as received_at`,
        ),
      )
    : [];
  const byProject = new Map<string, Row[]>();
  for (const r of rows) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r]);
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
  return { traces: due.length, placed };
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
