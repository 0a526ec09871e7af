import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '@/server/db';
import type { RecordType } from '@/lib/ingest/contract';
import { chunks, type Pending, type Rec } from './ingest-batch';
import { turnRow } from './ingest-prepare';

/**
 * A record sent again under an id already stored, with other content: a correction, or a mistake. It is never
 * dropped in silence: by default the stored version wins and the record is answered `conflict`, naming the fields that
 * differ; a request that asks to supersede stores the new version, keeps the old one in `record_versions` and audits
 * the change. Memory events are never superseded: the curator decided on what was sent (send a new event with
 * `supersedes` naming the old one).
 */

interface Shape<T extends Pending> {
  type: RecordType;
  table: string;
  /** Key columns (besides project_id) and content columns, with their SQL types. */
  key: Record<string, string>;
  columns: Record<string, string>;
  /** Columns compared but never reported (derived from others). */
  quiet?: string[];
  /** What a column is compared as on the stored side, where not the column itself. */
  stored?: Record<string, string>;
  /**
   * Columns replaced on supersede but not compared: the time a record was made, which an agent that re-runs a step
   * (or re-sends it later) gives anew. The same content at another time is the same record.
   */
  unchecked?: string[];
  /** Columns set from others on update. */
  derived?: Record<string, string>;
  /** Extra condition on the stored row (e.g. only declared sessions: an implicit one is filled in, not corrected). */
  where?: string;
  supersedable: boolean;
  values: (p: T) => Record<string, unknown>;
  id: (p: T) => string;
}

const SHAPES = {
  turn: {
    type: 'turn',
    table: 'turns',
    key: { session_id: 'text', turn: 'int' },
    columns: {
      agent_id: 'text',
      input: 'text',
      output: 'text',
      ccs_raw: 'jsonb',
      ccs: 'jsonb',
      recalled: 'jsonb',
      qualified: 'jsonb',
      footprint: 'jsonb',
      judge: 'jsonb',
      hallucination: 'float8',
      drift: 'float8',
      timestamp: 'text',
      extra: 'jsonb',
      redactions: 'jsonb',
    },
    quiet: ['ccs_raw', 'redactions'],
    unchecked: ['timestamp'],
    derived: { ts: 'x."timestamp"::timestamptz' },
    supersedable: true,
    values: (p) => JSON.parse(p.row ?? turnRow(p.record)) as Record<string, unknown>,
    id: (p) => p.id,
  } satisfies Shape<Pending<Rec<'turn'>>>,
  artifact: {
    type: 'artifact',
    table: 'artifacts',
    key: { id: 'text' },
    columns: {
      session_id: 'text',
      agent_id: 'text',
      kind: 'text',
      content: 'text',
      provenance: 'jsonb',
      created_turn: 'int',
      timestamp: 'text',
      extra: 'jsonb',
      redactions: 'jsonb',
    },
    quiet: ['redactions'],
    unchecked: ['timestamp'],
    derived: { ts: 'x."timestamp"::timestamptz' },
    supersedable: true,
    values: ({ record: r }) => ({
      id: r.id,
      session_id: r.sessionId,
      agent_id: r.agentId,
      kind: r.kind,
      content: r.content,
      provenance: r.provenance,
      created_turn: r.createdTurn,
      timestamp: r.timestamp,
      extra: r.extra,
      redactions: r.redactions,
    }),
    id: (p) => p.record.id,
  } satisfies Shape<Pending<Rec<'artifact'>>>,
  session: {
    type: 'session',
    table: 'sessions',
    key: { id: 'text' },
    columns: { agent_id: 'text', title: 'text', domain: 'text', metadata: 'jsonb', extra: 'jsonb' },
    where: 't.declared',
    supersedable: true,
    values: ({ record: r }) => ({
      id: r.id,
      agent_id: r.agentId,
      title: r.title,
      domain: r.domain,
      metadata: r.metadata,
      extra: r.extra,
    }),
    id: (p) => p.record.id,
  } satisfies Shape<Pending<Rec<'session'>>>,
  annotation: {
    type: 'annotation',
    table: 'annotations',
    key: { id: 'text' },
    columns: {
      target: 'text',
      session_id: 'text',
      turn: 'int',
      field: 'text',
      term: 'text',
      artifact_id: 'text',
      proposal_id: 'text',
      entry_id: 'text',
      name: 'text',
      value: 'jsonb',
      comment: 'text',
      redactions: 'jsonb',
    },
    quiet: ['redactions'],
    supersedable: true,
    values: ({ record: r }) => ({
      id: r.id,
      target: r.target,
      session_id: r.sessionId,
      turn: r.turn,
      field: r.field,
      term: r.term,
      artifact_id: r.artifactId,
      proposal_id: r.proposalId,
      entry_id: r.entryId,
      name: r.name,
      value: r.value,
      comment: r.comment,
      redactions: r.redactions,
    }),
    id: (p) => p.record.id,
  } satisfies Shape<Pending<Rec<'annotation'>>>,
  memory_event: {
    type: 'memory_event',
    table: 'memory_events',
    key: { event_id: 'text' },
    // What was sent, redacted: any change of the event shows here, but its time (a client that fills in the time
    // when it sends, as MCP callers may, retries with another) and the turn it names (an OTLP event takes its span's
    // turn, which a retried export may number otherwise before the stored event is moved: otel-turns.ts).
    columns: { raw: 'jsonb' },
    stored: { raw: `t.raw - 'timestamp' - 'session_id' - 'turn'` },
    supersedable: false,
    values: ({ record: r }) => ({
      event_id: r.eventId,
      raw: { ...r.raw, timestamp: undefined, session_id: undefined, turn: undefined },
    }),
    id: (p) => p.record.eventId,
  } satisfies Shape<Pending<Rec<'memory_event'>>>,
} as const;

export type CorrectableType = keyof typeof SHAPES;
export const CORRECTABLE = Object.keys(SHAPES) as CorrectableType[];

const q = (c: string) => `"${c}"`;

function recordset(shape: Shape<Pending>, rows: Record<string, unknown>[]) {
  const cols = { __i: 'int', ...shape.key, ...shape.columns };
  const defs = Object.entries(cols)
    .map(([c, t]) => `${q(c)} ${t}`)
    .join(', ');
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${sql.raw(defs)})`;
}

const joinOn = (shape: Shape<Pending>, projectId: string) =>
  sql`t.project_id = ${projectId} and ${sql.raw(
    [...Object.keys(shape.key).map((k) => `t.${q(k)} = x.${q(k)}`), ...(shape.where ? [shape.where] : [])].join(
      ' and ',
    ),
  )}`;

export interface Correction {
  /** The fields whose stored values differ from those sent. */
  fields: string[];
  superseded: boolean;
}

/**
 * Of records not stored because their id was taken, those whose content differs from the stored version: by index,
 * the differing fields; superseded (the stored row replaced, the old one kept) when `supersede` and the type allows.
 */
export async function correct(
  tx: Tx,
  projectId: string,
  type: CorrectableType,
  taken: Pending[],
  o: { supersede: boolean; actor: string },
): Promise<Map<number, Correction>> {
  const out = new Map<number, Correction>();
  if (!taken.length) return out;
  const shape = SHAPES[type] as unknown as Shape<Pending>;
  const loud = Object.keys(shape.columns).filter((c) => !shape.quiet?.includes(c));
  const diff = Object.keys(shape.columns)
    .filter((c) => !shape.unchecked?.includes(c))
    .map((c) => `case when ${shape.stored?.[c] ?? `t.${q(c)}`} is distinct from x.${q(c)} then '${c}' end`)
    .join(', ');
  for (const chunk of chunks(taken)) {
    const rows = chunk.map((p) => ({ ...shape.values(p), __i: p.index }));
    const changed = rowsOf<{ i: number; fields: string[] }>(
      await tx.execute(sql`
        select x.__i as i, array_remove(array[${sql.raw(diff)}], null) as fields
          from ${recordset(shape, rows)}
          join ${sql.raw(shape.table)} t on ${joinOn(shape, projectId)}`),
    ).filter((r) => r.fields.length);
    if (!changed.length) continue;
    const supersede = o.supersede && shape.supersedable;
    for (const r of changed) {
      const fields = r.fields.filter((f) => loud.includes(f));
      out.set(Number(r.i), { fields: fields.length ? fields : r.fields, superseded: supersede });
    }
    if (!supersede) continue;
    const mine = rows.filter((r) => out.has(r.__i));
    const idOf = new Map(chunk.map((p) => [p.index, shape.id(p)]));
    const versions = mine.map((r) => ({ __i: r.__i, id: idOf.get(r.__i)!, fields: out.get(r.__i)!.fields }));
    await tx.execute(sql`
      insert into record_versions (project_id, record_type, record_id, fields, old, superseded_by)
      select ${projectId}, ${type}, v.id, v.fields, to_jsonb(t) - 'project_id', ${o.actor}
        from ${recordset(shape, mine)}
        join ${sql.raw(shape.table)} t on ${joinOn(shape, projectId)}
        join jsonb_to_recordset(${JSON.stringify(versions)}::jsonb) as v(__i int, id text, fields jsonb)
          on v.__i = x.__i`);
    const set = [
      ...Object.keys(shape.columns).map((c) => `${q(c)} = x.${q(c)}`),
      ...Object.entries(shape.derived ?? {}).map(([c, e]) => `${q(c)} = ${e}`),
    ].join(', ');
    await tx.execute(sql`
      update ${sql.raw(shape.table)} t set ${sql.raw(set)}
        from ${recordset(shape, mine)}
       where ${joinOn(shape, projectId)}`);
  }
  return out;
}
