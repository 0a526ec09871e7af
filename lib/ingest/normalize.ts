import type { z } from 'zod';
import { normalizeCcs } from '@/lib/ccs/parse';
import type { CcsTerms } from '@/lib/ccs/contract';
import { mask, redactDeep, redactText, type RedactionRecord } from '@/lib/redact/redact';
import { shapeProblem } from './depth';
import { slipWarnings } from './near-field';
import { splitUcsState, type UcsStateParts } from '@/lib/ucs/state';
import { entitiesFromExport, entitiesFromIndex, type UcsEntities } from '@/lib/ucs/entities';
import type { MemoryEvent } from '@/lib/curation/event';
import {
  ARTIFACT_EXTRA_FIELDS,
  DATA_SCHEMAS,
  LIMITS,
  TURN_EXTRA_FIELDS,
  agentlasEventSchema,
  emittedAtSchema,
  annotationRecordSchema,
  artifactRecordSchema,
  envelopeSchema,
  legacyEventSchema,
  sessionRecordSchema,
  turnRecordSchema,
  ucsActionSchema,
  ucsExportSchema,
  ucsIndexSchema,
  ucsKnowledgeSchema,
  ucsPpHistorySchema,
  ucsStateSchema,
  storableId,
  type AnnotationTarget,
  type ArtifactRef,
  type EvidenceRef,
  type FieldError,
  type Footprint,
  type RecordType,
} from './contract';

type Json = Record<string, unknown>;

export type NormalizedRecord =
  | {
      type: 'session';
      id: string;
      agentId: string;
      title: string | null;
      domain: string | null;
      metadata: Json;
      extra: Json;
    }
  | {
      type: 'turn';
      sessionId: string;
      turn: number;
      agentId: string;
      input: string;
      output: string;
      /** The CCS as sent, or null when the parsed terms are exactly what was sent. */
      ccsRaw: unknown;
      ccs: CcsTerms;
      recalled: ArtifactRef[];
      qualified: ArtifactRef[];
      footprint: Footprint | null;
      judge: Record<string, number> | null;
      hallucination: number | null;
      drift: number | null;
      timestamp: string | null;
      extra: Json;
      redactions: RedactionRecord[];
    }
  | {
      type: 'artifact';
      id: string;
      sessionId: string | null;
      agentId: string | null;
      kind: string | null;
      content: string;
      provenance: Json | null;
      createdTurn: number | null;
      timestamp: string | null;
      extra: Json;
      redactions: RedactionRecord[];
    }
  | ({ type: 'memory_event' } & MemoryEvent)
  | { type: 'ucs_state'; agentId: string; parts: UcsStateParts; source: string | null }
  | {
      type: 'ucs_document';
      recordType: RecordType;
      agentId: string;
      kind: 'index' | 'export' | 'pp_history' | 'knowledge' | 'status' | 'consult_samples';
      /** A natural key where the document has one (export time, note name); else the service hashes the content. */
      key: string | null;
      content: unknown;
      entities: UcsEntities | null;
      source: string | null;
    }
  | { type: 'ucs_action'; agentId: string; t: number; data: Json }
  | {
      type: 'annotation';
      id: string;
      target: AnnotationTarget;
      sessionId: string | null;
      turn: number | null;
      field: string | null;
      term: string | null;
      artifactId: string | null;
      proposalId: string | null;
      entryId: string | null;
      name: string | null;
      value: number | boolean | string | null;
      comment: string | null;
      /** As sent; null: the one who sent it (the store fills in its actor). */
      author: string | null;
      createdAt: string | null;
      redactions: RedactionRecord[];
    };

export type Normalized =
  | {
      ok: true;
      record: NormalizedRecord;
      id: string;
      /** Fields kept as the agent's own that look like slips for known ones (`near-field.ts`): stored, and said. */
      warnings?: FieldError[];
    }
  | { ok: false; type?: string; id?: string; errors: FieldError[] };

function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let s = prefix;
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s;
}

/** Whether the field at `path` is missing from `input` (its parent is an object without it). */
function missing(input: unknown, path: readonly PropertyKey[]): boolean {
  let v: unknown = input;
  for (const k of path.slice(0, -1)) {
    if (!v || typeof v !== 'object') return false;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  const last = path.at(-1);
  return last !== undefined && isObject(v) && v[last as string] === undefined;
}

/**
 * Zod's "Invalid input: expected number, received string" becomes "must be a number (got string)"; a missing
 * field "required" (whatever the schema's own message, such as an enum's options or a date's format); a bad choice
 * "must be one of: a, b, c" (words a reader and a narrow table can wrap).
 */
function issueMessage(i: z.core.$ZodIssue, input: unknown, path: readonly PropertyKey[]): string {
  if (i.code === 'unrecognized_keys') return `unknown field(s): ${i.keys.join(', ')}`;
  if ((i.code === 'invalid_type' || i.code === 'invalid_value') && missing(input, path)) return 'required';
  // Zod's own words for a choice and an empty string ("Invalid option: expected one of \"a\"|\"b\"", "Too small:
  // expected string to have >=1 characters"); a schema's own message is kept.
  if (i.code === 'invalid_value' && i.message.startsWith('Invalid option'))
    return `must be one of: ${i.values.map(String).join(', ')}`;
  if (i.code === 'too_small' && i.origin === 'string' && Number(i.minimum) === 1 && i.message.startsWith('Too small'))
    return 'must not be empty';
  const m = /expected (\w+), received (\w+)/.exec(i.message);
  if (i.code === 'invalid_type' && m)
    return m[2] === 'undefined' ? 'required' : `must be ${/^[aeiou]/.test(m[1]!) ? 'an' : 'a'} ${m[1]} (got ${m[2]})`;
  return i.message;
}

/** Every offending field of a record (at most 20), each with its reason; `input` is what was validated. */
function zodErrors(error: z.ZodError, prefix: string, input: unknown): FieldError[] {
  return error.issues
    .flatMap((i): FieldError[] => {
      // Unions report one issue list per branch: name every error of the branch that came closest.
      if (i.code === 'invalid_union' && 'errors' in i && Array.isArray(i.errors) && i.errors.length) {
        const best = (i.errors as z.core.$ZodIssue[][]).reduce((a, b) => (a.length <= b.length ? a : b));
        if (best.length)
          return best.map((b) => {
            const path = [...i.path, ...b.path];
            return { path: formatPath(prefix, path), message: issueMessage(b, input, path) };
          });
      }
      return [{ path: formatPath(prefix, i.path), message: issueMessage(i, input, i.path) }];
    })
    .slice(0, 20);
}

const KNOWN_TURN = new Set(Object.keys(turnRecordSchema.shape).filter((k) => !TURN_EXTRA_FIELDS.includes(k)));
const KNOWN_SESSION = new Set(Object.keys(sessionRecordSchema.shape));
const FIELDS = {
  turn: Object.keys(turnRecordSchema.shape),
  session: Object.keys(sessionRecordSchema.shape),
  artifact: Object.keys(artifactRecordSchema.shape),
};
/** The `warnings` of a record whose own fields include slips for known ones; nothing when there are none. */
function slips(extra: Json, type: keyof typeof FIELDS): { warnings?: FieldError[] } {
  const warnings = Object.keys(extra).length ? slipWarnings(extra, FIELDS[type], type) : [];
  return warnings.length ? { warnings } : {};
}
const KNOWN_ARTIFACT = new Set(
  Object.keys(artifactRecordSchema.shape).filter((k) => !ARTIFACT_EXTRA_FIELDS.includes(k)),
);

function extras(data: Json, known: Set<string>): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(data)) if (!known.has(k)) out[k] = v;
  return out;
}

function inferEvidenceType(ref: string): EvidenceRef['type'] {
  if (/^https?:\/\//i.test(ref)) return 'url';
  if (/^[0-9a-f]{7,40}$/i.test(ref)) return 'commit';
  if (/[/\\]|\.[a-z0-9]{1,6}$/i.test(ref)) return 'file';
  return 'message';
}

/**
 * An evidence ref as sent in a string: one that names its type (`commit:4e5f6a7`, `file:docs/x.md`, `url:…`,
 * `message:…`) is that type, its name left off; any other, the type its shape says.
 */
export function evidenceRef(sent: string): EvidenceRef {
  const named = /^(commit|file|message|url):(.+)$/is.exec(sent);
  if (named) return { type: named[1]!.toLowerCase() as EvidenceRef['type'], ref: named[2]! };
  return { type: inferEvidenceType(sent), ref: sent };
}

function agentFor(envelopeAgent: string | undefined, data: Json): string | undefined {
  const a = envelopeAgent ?? data.agent_id ?? data.agent;
  return typeof a === 'string' && a.trim() ? a.trim() : undefined;
}

function withoutKey(o: Json, key: string): Json {
  if (!(key in o)) return o;
  const { [key]: _, ...rest } = o;
  return rest;
}

function isObject(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** True when a JSON CCS already is its parsed form (lists of term strings, nothing dropped), so it is stored once. */
function sameTerms(sent: Record<string, unknown>, terms: CcsTerms): boolean {
  const keys = Object.keys(sent);
  if (keys.length !== Object.keys(terms).length) return false;
  for (const k of keys) {
    const a = sent[k];
    const b = terms[k];
    if (!Array.isArray(a) || !b || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  }
  return true;
}

/** What a turn without `ccs` is told: what goes there, and what to send when the agent keeps no CCS. */
const CCS_REQUIRED =
  "required: the agent's Compressed Cognitive State at this turn, an object of its fields (episodic_trace, " +
  'semantic_gist, …; each a list of terms or a string) or its text; {} when the agent keeps none (a graph state, ' +
  "such as a LangGraph agent's, goes under data.state)";

/**
 * The id a record was sent under, read before it is checked (so that an answer refusing it can name it): only one
 * that could be stored (a refused memory event is kept under it, and PostgreSQL cannot hold a NUL).
 */
function sentId(type: string, data: unknown): string | undefined {
  if (!isObject(data)) return undefined;
  const id =
    type === 'turn'
      ? typeof data.session_id === 'string' && typeof data.turn === 'number'
        ? `${data.session_id}/${data.turn}`
        : undefined
      : type === 'memory_event'
        ? data.event_id
        : data.id;
  return typeof id === 'string' && storableId(id) ? id : undefined;
}

/** Validates one envelope and turns it into a record ready to store, or errors naming field and reason. */
export function normalizeEnvelope(raw: unknown): Normalized {
  const env = envelopeSchema.safeParse(raw);
  if (!env.success) {
    const t = isObject(raw) && typeof raw.type === 'string' ? raw.type : undefined;
    return { ok: false, type: t, errors: zodErrors(env.error, '', raw) };
  }
  const { type, data: sent, agent, source } = env.data;
  if (sent === undefined || sent === null) return { ok: false, type, errors: [{ path: 'data', message: 'required' }] };
  // Too deep, a number JSON cannot hold, a string PostgreSQL cannot: refused before anything reads it.
  const shape = shapeProblem(sent, LIMITS.depth, 'data', true);
  if (shape) return { ok: false, type, id: sentId(type, sent), errors: [shape] };
  // UCS documents and the action log are shown in pages and exports like any memory text: redacted whole.
  const data = type.startsWith('ucs_') ? redactDeep(sent, '') : sent;
  const fail = (errors: FieldError[], id?: string): Normalized => ({ ok: false, type, id, errors });
  const needObject = () => fail([{ path: 'data', message: `must be a JSON object for ${type}` }]);

  switch (type) {
    case 'session': {
      // The envelope's agent stands for data.agent when the data has none.
      const r = sessionRecordSchema.safeParse(
        isObject(data) && data.agent === undefined && agent ? { ...data, agent } : data,
      );
      if (!r.success) return fail(zodErrors(r.error, 'data', data));
      const d = r.data;
      const agentId = agent ?? d.agent;
      const sentExtra = extras(d as Json, KNOWN_SESSION);
      return {
        ok: true,
        id: d.id,
        ...slips(sentExtra, 'session'),
        record: {
          type,
          id: d.id,
          agentId,
          title: d.title === undefined ? null : redactText(d.title).text,
          domain: d.domain === undefined ? null : redactText(d.domain).text,
          // `forked_from` is set only by a reviewer's fork (services/session-forks.ts): an agent cannot claim it.
          metadata: redactDeep(withoutKey(d.metadata ?? {}, 'forked_from'), 'metadata'),
          extra: redactDeep(sentExtra, 'extra'),
        },
      };
    }
    case 'turn': {
      const r = turnRecordSchema.safeParse(data);
      if (!r.success)
        return fail(
          zodErrors(r.error, 'data', data).map((e) =>
            e.path === 'data.ccs' && e.message === 'required' ? { path: e.path, message: CCS_REQUIRED } : e,
          ),
          isObject(data) && typeof data.session_id === 'string' && typeof data.turn === 'number'
            ? `${data.session_id}/${data.turn}`
            : undefined,
        );
      const d = r.data;
      const ccsJson = typeof d.ccs === 'string' ? d.ccs : JSON.stringify(d.ccs);
      if (ccsJson.length > LIMITS.ccsChars)
        return fail(
          [{ path: 'data.ccs', message: `must be at most ${LIMITS.ccsChars} characters` }],
          `${d.session_id}/${d.turn}`,
        );
      const redactions: RedactionRecord[] = [];
      const sentExtra = extras(d as Json, KNOWN_TURN);
      // Each part alone, each tested once as a whole text (most need no walk): a secret in one part (an e-mail in the
      // output) does not make the redactor walk every string of the others (bench:ingest: 86 against 57 µs a turn).
      const input = redactDeep(d.input, 'input', [], redactions);
      const output = redactDeep(d.output, 'output', [], redactions);
      const sentCcs = redactDeep(d.ccs, 'ccs', [], redactions, ccsJson);
      const extra = redactDeep(sentExtra, 'extra', [], redactions, JSON.stringify(sentExtra));
      const ccs = normalizeCcs(sentCcs);
      return {
        ok: true,
        id: `${d.session_id}/${d.turn}`,
        ...slips(sentExtra, 'turn'),
        record: {
          type,
          sessionId: d.session_id,
          turn: d.turn,
          agentId: d.agent,
          input,
          output,
          ccsRaw: typeof sentCcs === 'string' || !sameTerms(sentCcs, ccs) ? sentCcs : null,
          ccs,
          recalled: d.recalled,
          qualified: d.qualified,
          footprint: d.footprint ?? null,
          judge: d.judge ?? null,
          hallucination: d.hallucination ?? null,
          drift: d.drift ?? null,
          timestamp: d.timestamp ?? null,
          extra,
          redactions,
        },
      };
    }
    case 'artifact': {
      const r = artifactRecordSchema.safeParse(data);
      if (!r.success) return fail(zodErrors(r.error, 'data', data));
      const d = r.data;
      const redactions: RedactionRecord[] = [];
      const sentExtra = extras(d as Json, KNOWN_ARTIFACT);
      return {
        ok: true,
        id: d.id,
        ...slips(sentExtra, 'artifact'),
        record: {
          type,
          id: d.id,
          sessionId: d.session_id ?? null,
          agentId: agent ?? d.agent ?? null,
          kind: d.kind ?? null,
          content: redactDeep(d.content, 'content', [], redactions),
          provenance: d.provenance === undefined ? null : redactDeep(d.provenance, 'provenance', [], redactions),
          createdTurn: d.created_turn ?? null,
          timestamp: d.timestamp ?? null,
          extra: redactDeep(sentExtra, 'extra', [], redactions),
          redactions,
        },
      };
    }
    case 'memory_event':
      return normalizeMemoryEvent(data, fail);
    case 'annotation': {
      const r = annotationRecordSchema.safeParse(data);
      if (!r.success)
        return fail(
          zodErrors(r.error, 'data', data),
          isObject(data) && typeof data.id === 'string' ? data.id : undefined,
        );
      const d = r.data;
      const redactions: RedactionRecord[] = [];
      const clean = redactDeep({ comment: d.comment, term: d.term }, '', [], redactions);
      return {
        ok: true,
        id: d.id,
        record: {
          type,
          id: d.id,
          target: d.target,
          sessionId: d.session_id ?? null,
          turn: d.turn ?? null,
          field: d.field ?? null,
          term: clean.term ?? null,
          artifactId: d.artifact_id ?? null,
          proposalId: d.proposal_id ?? null,
          entryId: d.entry_id ?? null,
          name: d.name ?? null,
          value: d.value ?? null,
          comment: clean.comment ?? null,
          author: d.author ?? null,
          createdAt: d.created_at ?? null,
          redactions,
        },
      };
    }
    case 'ucs_state': {
      const r = ucsStateSchema.safeParse(data);
      if (!r.success) return fail(zodErrors(r.error, 'data', data));
      const agentId = agentFor(agent, r.data as Json);
      if (!agentId)
        return fail([{ path: 'agent', message: 'required for ucs_state: the state file does not name its agent' }]);
      const parts = splitUcsState(r.data as Json);
      return { ok: true, id: `${agentId}@t${parts.t}`, record: { type, agentId, parts, source: source ?? null } };
    }
    case 'ucs_index': {
      if (!isObject(data)) return needObject();
      const r = ucsIndexSchema.safeParse(data);
      if (!r.success) return fail(zodErrors(r.error, 'data', data));
      const agentId = agentFor(agent, data) ?? soleAgent(r.data.judgment_nodes);
      if (!agentId)
        return fail([{ path: 'agent', message: 'required for ucs_index: the index does not name its agent' }]);
      return doc(agentId, 'index', null, data, entitiesFromIndex(data), `${agentId}/index`);
    }
    case 'ucs_export': {
      if (!isObject(data)) return needObject();
      const r = ucsExportSchema.safeParse(data);
      if (!r.success) return fail(zodErrors(r.error, 'data', data));
      const agentId = agentFor(agent, data);
      if (!agentId) return fail([{ path: 'data.agent_id', message: 'required (or name the agent in the envelope)' }]);
      const key = r.data.exported_at;
      return doc(agentId, 'export', key, data, entitiesFromExport(data), `${agentId}/export@${key}`);
    }
    case 'ucs_pp_history': {
      const r = ucsPpHistorySchema.safeParse(data);
      if (!r.success) return fail(zodErrors(r.error, 'data', data));
      const agentId = agentFor(agent, data as Json);
      if (!agentId) return fail([{ path: 'agent', message: 'required for ucs_pp_history' }]);
      const entities = { ...entitiesFromIndex({}), ppHistory: r.data.snapshots as Json[] };
      return doc(agentId, 'pp_history', null, data, entities, `${agentId}/pp_history`);
    }
    case 'ucs_knowledge': {
      const r = ucsKnowledgeSchema.safeParse(data);
      if (!r.success) return fail(zodErrors(r.error, 'data', data));
      if (!agent) return fail([{ path: 'agent', message: 'required for ucs_knowledge' }]);
      return doc(agent, 'knowledge', null, data, null, `${agent}/knowledge/${r.data.name}`);
    }
    case 'ucs_status':
    case 'ucs_consult_samples': {
      const r = DATA_SCHEMAS[type].safeParse(data);
      if (!r.success) return fail(zodErrors(r.error, 'data', data));
      const agentId = agentFor(agent, isObject(data) ? data : {});
      if (!agentId) return fail([{ path: 'agent', message: `required for ${type}` }]);
      const kind = type === 'ucs_status' ? 'status' : 'consult_samples';
      return doc(agentId, kind, null, data, null, `${agentId}/${kind}`);
    }
    case 'ucs_action': {
      const r = ucsActionSchema.safeParse(data);
      if (!r.success) return fail(zodErrors(r.error, 'data', data));
      const agentId = agentFor(agent, data as Json);
      if (!agentId)
        return fail([{ path: 'agent', message: 'required for ucs_action: action log lines do not name their agent' }]);
      return { ok: true, id: `${agentId}@t${r.data.t}`, record: { type, agentId, t: r.data.t, data: data as Json } };
    }
  }

  function doc(
    agentId: string,
    kind: Extract<NormalizedRecord, { type: 'ucs_document' }>['kind'],
    key: string | null,
    content: unknown,
    entities: UcsEntities | null,
    id: string,
  ): Normalized {
    return {
      ok: true,
      id,
      record: { type: 'ucs_document', recordType: type, agentId, kind, key, content, entities, source: source ?? null },
    };
  }
}

function soleAgent(nodes: Json[]): string | undefined {
  const ids = new Set(nodes.map((n) => n.agent_id).filter((a): a is string => typeof a === 'string'));
  return ids.size === 1 ? [...ids][0] : undefined;
}

/**
 * The session and turn an event was emitted at, as stored (redacted, trimmed): read only where they fit (an id, and
 * a whole turn with its session). The older shape's free fields may hold anything (null, a number): not a turn.
 */
function emittedAtOf(raw: Json): { sessionId: string | null; turn: number | null } {
  const session = emittedAtSchema.shape.session_id.safeParse(raw.session_id ?? undefined);
  const turn = emittedAtSchema.shape.turn.safeParse(raw.turn ?? undefined);
  const sessionId = (session.success && session.data) || null;
  return { sessionId, turn: sessionId !== null && turn.success ? (turn.data ?? null) : null };
}

function normalizeMemoryEvent(data: unknown, fail: (e: FieldError[], id?: string) => Normalized): Normalized {
  if (!isObject(data)) return fail([{ path: 'data', message: 'must be a JSON object (a memory event)' }]);
  const eventId = typeof data.event_id === 'string' ? data.event_id : undefined;
  if ('memory_kind' in data) {
    const r = agentlasEventSchema.safeParse(data);
    if (!r.success) return fail(zodErrors(r.error, 'data', data), eventId);
    const e = r.data;
    const redactions: RedactionRecord[] = [];
    const raw = redactDeep(e as Json, '', [], redactions);
    const content = raw.content as string;
    const requestContext = (raw.request_context as Json | undefined) ?? null;
    return {
      ok: true,
      id: e.event_id,
      record: {
        type: 'memory_event',
        eventId: e.event_id,
        shape: 'agentlas',
        sourceAgent: e.source_agent,
        taskId: e.task_id,
        kind: e.memory_kind,
        content,
        suggestedScope: e.suggested_scope,
        confidence: e.confidence,
        sensitivity: e.sensitivity,
        ttl: e.ttl,
        evidenceRefs: (raw.evidence_refs as string[]).map(evidenceRef),
        requestContext,
        supersedes: e.supersedes ?? [],
        conflictsWith: e.conflicts_with ?? [],
        humanReviewRequired: e.human_review_required ?? false,
        timestamp: e.timestamp,
        ...emittedAtOf(raw),
        raw,
        redactions,
      },
    };
  }
  if ('kind' in data) {
    const r = legacyEventSchema.safeParse(data);
    if (!r.success) return fail(zodErrors(r.error, 'data', data), eventId);
    const e = r.data;
    const redactions: RedactionRecord[] = [];
    // The hints are the secrets themselves: they are masked, never stored. `user_id` is kept as validated
    // (trimmed), as the Agentlas shape keeps every field, so a reader's value matches it either way.
    const masked: Json = {
      ...data,
      redact_hints: e.redact_hints.map(() => mask('hint')),
      ...(e.user_id !== undefined ? { user_id: e.user_id } : {}),
    };
    const raw = redactDeep(masked, '', e.redact_hints, redactions);
    const content = raw.content as string;
    return {
      ok: true,
      id: e.event_id,
      record: {
        type: 'memory_event',
        eventId: e.event_id,
        shape: 'legacy',
        sourceAgent: e.source_agent,
        taskId: e.task_id ?? null,
        kind: e.kind,
        content,
        suggestedScope: e.suggested_scope,
        confidence: e.confidence,
        sensitivity: null,
        ttl: null,
        // As redacted; none sent is none (the schema's default: the row's column takes no null).
        evidenceRefs: (raw.evidence_refs as typeof e.evidence_refs | undefined) ?? e.evidence_refs,
        requestContext: null,
        supersedes: Array.isArray(data.supersedes) ? (data.supersedes as string[]) : [],
        conflictsWith: Array.isArray(data.conflicts_with) ? (data.conflicts_with as string[]) : [],
        humanReviewRequired: data.human_review_required === true,
        timestamp: e.timestamp,
        ...emittedAtOf(raw),
        raw,
        redactions,
      },
    };
  }
  // Neither shape's kind: every problem against the shape the event is closer to (the current one when it is as close
  // to both), the missing kind named with both spellings.
  const against = (schema: z.ZodType, kind: string) => {
    const r = schema.safeParse(data);
    return r.success ? [] : zodErrors(r.error, 'data', data).filter((e) => e.path !== kind);
  };
  const current = against(agentlasEventSchema, 'data.memory_kind');
  const older = against(legacyEventSchema, 'data.kind');
  const closer =
    older.length < current.length
      ? { path: 'data.kind', message: 'required (or data.memory_kind, for the Agentlas event shape)', others: older }
      : {
          path: 'data.memory_kind',
          message: "required (or data.kind, for the Memory Curator paper's older event shape)",
          others: current,
        };
  return fail([{ path: closer.path, message: closer.message }, ...closer.others], eventId);
}
