import { parseIngestBody, type BodyItem } from '@/lib/ingest/body';
import { LIMITS, type IngestResult } from '@/lib/ingest/contract';
import { shapeProblem } from '@/lib/ingest/depth';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import { redactDeep } from '@/lib/redact/redact';
import { sha256, type Pending, type Rec } from './ingest-batch';

/**
 * The CPU half of ingest, with no database: parse, validate, redact, and serialise each turn as the row the database
 * takes (once, where it is validated). Pure, its result plain data. (Run in a worker thread it gained nothing in
 * bench:ingest on 2 cores, where Postgres, the client and this thread already share the CPU.)
 */

/** A memory event that failed validation, kept (redacted) with its reasons for the curation inbox. */
export interface Malformed {
  eventId: string | null;
  errors: { path: string; message: string }[];
  raw: unknown;
  key: string;
}

export interface Prepared {
  /** The answer for each record rejected here, by its index in the request; the others are decided when stored. */
  rejected: IngestResult[];
  count: number;
  pending: Pending[];
  malformed: Malformed[];
}

/** A request body prepared, or why it is refused as a whole (the HTTP status and message). */
export type PreparedBody =
  { ok: true; prepared: Prepared } | { ok: false; status: 400 | 413; error: string; extra?: Record<string, unknown> };

/** The database row of a turn as JSON, in the shape the insert expands with jsonb_to_recordset. */
export function turnRow(r: Rec<'turn'>): string {
  return JSON.stringify({
    session_id: r.sessionId,
    turn: r.turn,
    agent_id: r.agentId,
    input: r.input,
    output: r.output,
    ccs_raw: r.ccsRaw,
    ccs: r.ccs,
    recalled: r.recalled,
    qualified: r.qualified,
    footprint: r.footprint,
    judge: r.judge,
    hallucination: r.hallucination,
    drift: r.drift,
    timestamp: r.timestamp,
    extra: r.extra,
    redactions: r.redactions,
  });
}

/** Validates each record alone: valid ones become pending records, the others answers that name field and reason. */
export function prepareItems(items: BodyItem[]): Prepared {
  const rejected: IngestResult[] = [];
  const pending: Pending[] = [];
  const malformed: Malformed[] = [];
  items.forEach((item, index) => {
    if (!item.ok) {
      rejected.push({ index, status: 'rejected', errors: item.errors });
      return;
    }
    const n = normalizeEnvelope(item.value);
    if (n.ok) {
      const p: Pending = { index, id: n.id, record: n.record, ...(n.warnings ? { warnings: n.warnings } : {}) };
      if (n.record.type === 'turn') p.row = turnRow(n.record);
      pending.push(p);
    } else {
      rejected.push({ index, status: 'rejected', type: n.type, id: n.id, errors: n.errors });
      // A malformed memory event is kept (redacted) with its reasons, for the curation inbox.
      if (n.type === 'memory_event') {
        // Its `data`; the whole record when it has none (an event sent without its envelope), so that two such
        // events are two rows, not one `null` that the second is taken as a repeat of.
        const data = (item.value as { data?: unknown }).data ?? item.value;
        // Kept only if it can be stored (not too deep, no NUL): the reasons say what was wrong either way.
        const raw = shapeProblem(data, LIMITS.depth, '', true) ? '(not kept: see the reasons)' : redactDeep(data, '');
        malformed.push({ eventId: n.id ?? null, errors: n.errors, raw, key: sha256(raw) });
      }
    }
  });
  return { rejected, count: items.length, pending, malformed };
}

/** Parses and prepares a whole ingest body (JSON array or NDJSON) of at most `maxRecords` records. */
export function prepareBody(body: Uint8Array, maxRecords: number): PreparedBody {
  const parsed = parseIngestBody(body);
  if (!parsed.ok) return { ok: false, status: 400, error: parsed.error };
  if (parsed.items.length > maxRecords)
    return {
      ok: false,
      status: 413,
      error: `batch has ${parsed.items.length} records; at most ${maxRecords} per request`,
      extra: { limitRecords: maxRecords },
    };
  return { ok: true, prepared: prepareItems(parsed.items) };
}
