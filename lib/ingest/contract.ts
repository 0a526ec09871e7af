import { z } from 'zod';
import { ccsInputSchema } from '@/lib/ccs/contract';
import { namedMap } from '@/lib/zod-map';
import { redactText } from '@/lib/redact/redact';

/** Limits on what one ingest request may carry. The server may lower or raise them by env. */
export const LIMITS = {
  bodyBytes: 16 * 1024 * 1024,
  recordsPerBatch: 5000,
  idChars: 256,
  textChars: 200_000,
  ccsChars: 64_000,
  listItems: 1000,
  /** Arrays and objects inside one record's data, nested at most this deep. */
  depth: 64,
} as const;

// eslint-disable-next-line no-control-regex -- control characters are exactly what an id may not hold
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
const id = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(LIMITS.idChars, `must be at most ${LIMITS.idChars} characters`)
  .regex(NO_CONTROL, 'must not contain control characters');

/**
 * Whether a record could be stored under this id (the contract's: 1–256 characters, no control characters): an id
 * from an address that could not is not found without asking the database; one sent with a refused record is not
 * named in the answer (a refused memory event is kept under it).
 */
export const storableId = (s: string) => s.trim().length > 0 && s.length <= LIMITS.idChars && NO_CONTROL.test(s);
const text = z.string().max(LIMITS.textChars, `must be at most ${LIMITS.textChars} characters`);
const isoTimestamp = z.iso.datetime({ offset: true, local: true, message: 'must be an ISO-8601 date-time' });
const jsonObject = z.record(z.string(), z.unknown());

export const RECORD_TYPES = [
  'session',
  'turn',
  'artifact',
  'memory_event',
  'ucs_state',
  'ucs_index',
  'ucs_export',
  'ucs_action',
  'ucs_pp_history',
  'ucs_knowledge',
  'ucs_status',
  'ucs_consult_samples',
  'annotation',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** `{"type": ..., "data": {...}}`; `agent` names the agent where a UCS file does not. */
export const envelopeSchema = z.object({
  type: z.enum(RECORD_TYPES, { message: `must be one of: ${RECORD_TYPES.join(', ')}` }),
  data: z.unknown(),
  agent: id.optional(),
  /** Where the record came from (a file path), kept for provenance. */
  source: z.string().max(1024).optional(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

// ---------------------------------------------------------------- ACC sessions

/** A session; `agent` may come from the envelope instead (`{"type":"session","agent":…,"data":…}`). */
export const sessionRecordSchema = z
  .object({
    id,
    agent: id,
    title: z.string().max(500).optional(),
    domain: z.string().max(120).optional(),
    metadata: jsonObject.optional(),
  })
  .loose();

/** A reference to an artifact in the external store: its id, or an object with an id and provenance. */
export const artifactRefSchema = z.union([id, z.object({ id }).loose()]);
export type ArtifactRef = z.infer<typeof artifactRefSchema>;

/** Memory footprint in tokens per strategy: ccs, transcript, retrieval (others kept as sent). */
export const footprintSchema = namedMap(z.number().nonnegative('must be ≥ 0'), 64, 0);
export type Footprint = z.infer<typeof footprintSchema>;

export const turnRecordSchema = z
  .object({
    session_id: id,
    agent: id,
    turn: z.number().int('must be an integer').nonnegative('must be ≥ 0').max(1_000_000),
    input: text,
    output: text,
    // Its size (LIMITS.ccsChars) is checked where it is serialised anyway, in normalizeEnvelope.
    ccs: ccsInputSchema,
    recalled: z.array(artifactRefSchema).max(LIMITS.listItems).default([]),
    qualified: z.array(artifactRefSchema).max(LIMITS.listItems).default([]),
    footprint: footprintSchema.optional(),
    judge: namedMap(z.number(), 64, 0).optional(),
    hallucination: z.number().min(0, 'must be within [0, 1]').max(1, 'must be within [0, 1]').nullable().optional(),
    drift: z.number().min(0, 'must be ≥ 0').nullable().optional(),
    timestamp: isoTimestamp.optional(),
    // Outcome and memory-addition signals for the hygiene lab (kept with the turn's extra fields).
    /** How well the turn went, 0–1, by the agent's own evaluator. */
    utility: z.number().min(0, 'must be within [0, 1]').max(1, 'must be within [0, 1]').optional(),
    /** Whether the task succeeded (used when `utility` is absent). */
    success: z.boolean().optional(),
    /** The evaluator's decision on storing this turn's execution as a memory record. */
    addition: z
      .object({
        decision: z.enum(['added', 'skipped'], { message: 'must be "added" or "skipped"' }),
        evaluator: z.string().max(120).optional(),
        score: z.number().optional(),
      })
      .optional(),
  })
  .loose();
/** Turn fields that are validated but stored with the turn's extra fields. */
export const TURN_EXTRA_FIELDS = ['utility', 'success', 'addition'];
export type TurnRecord = z.infer<typeof turnRecordSchema>;

export const artifactRecordSchema = z
  .object({
    id,
    content: text,
    session_id: id.optional(),
    agent: id.optional(),
    kind: z.string().max(64).optional(),
    provenance: jsonObject.optional(),
    created_turn: z.number().int().nonnegative().optional(),
    timestamp: isoTimestamp.optional(),
    /** −log p(record | context) under the agent's model, for surprise-weighted consolidation. */
    surprise: z.number().nonnegative('must be ≥ 0').optional(),
  })
  .loose();
/** Artifact fields that are validated but stored with the artifact's extra fields. */
export const ARTIFACT_EXTRA_FIELDS = ['surprise'];

// ---------------------------------------------------------------- memory events

export const MEMORY_KINDS = [
  'fact',
  'decision',
  'preference',
  'risk',
  'procedure',
  'hypothesis',
  'evidence',
  'deprecation',
  'conflict',
] as const;
export const SCOPES = [
  'user_identity',
  'team_memory',
  'agent_repo',
  'agent_team',
  'project',
  'session',
  'discard',
] as const;
export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export const EVIDENCE_TYPES = ['commit', 'file', 'message', 'url'] as const;

/**
 * Mnemoscope's extension of both event shapes: the user whose `user_identity` memory the event is (neither schema
 * has a user field; the Curation → Read as view matches it). An id like the others, and an opaque one: the event is
 * redacted before it is stored, so an email (or anything else redaction masks) would be stored masked, and two
 * users masked alike could not be told apart.
 */
const userId = id.refine(
  (v) => !v.includes('[REDACTED:') && redactText(v).findings.length === 0,
  'must be an opaque id, not an email or other personal data (it would be redacted before storage)',
);

/**
 * Mnemoscope's extension of the Agentlas event shape: the session and turn at which the agent emitted the event, so
 * that the replay shows it there. A turn needs its session (`turnInSession`); a session alone is the session (it also
 * owns session memory of an event without a task: lib/curation/read-as.ts). The older shape took any value in these
 * fields before, and still does (`legacyEventSchema`).
 */
const emittedAt = {
  session_id: id.optional(),
  turn: z.number().int('must be an integer').nonnegative('must be ≥ 0').max(1_000_000).optional(),
};
/** The two fields alone, to read them where they fit from an event of the older shape. */
export const emittedAtSchema = z.object(emittedAt);

function turnInSession(e: { session_id?: string; turn?: number }, ctx: z.RefinementCtx) {
  if (e.turn !== undefined && e.session_id === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['session_id'],
      message: 'required with turn: the turn at which the event was emitted is named by both',
    });
}

/**
 * The current Agentlas memory-event schema (fixtures/curator/memory-event.schema.json), as strict as it is, plus
 * Mnemoscope's optional `user_id`, `session_id` and `turn`.
 */
export const agentlasEventSchema = z
  .strictObject({
    event_id: z.string().regex(/^memevt_[A-Za-z0-9_-]{8,}$/, 'must match ^memevt_[A-Za-z0-9_-]{8,}$ (Agentlas schema)'),
    timestamp: isoTimestamp,
    source_agent: z.string().min(1),
    task_id: z.string().min(1),
    project_id: z.string().optional(),
    agent_repo: z.string().optional(),
    team_id: z.string().optional(),
    user_id: userId.optional(),
    memory_kind: z.enum(MEMORY_KINDS),
    content: z.string().min(1).max(1200),
    suggested_scope: z.enum(SCOPES),
    sensitivity: z.enum(['public', 'internal', 'private', 'confidential', 'secret']),
    confidence: z.enum(CONFIDENCES),
    evidence_refs: z.array(z.string()),
    request_context: z
      .strictObject({
        user_intent: z.string().max(240).optional(),
        trigger_terms: z.array(z.string().max(40)).max(12).optional(),
        cwd_at_request: z.string().max(500).nullable().optional(),
        target_project: z.string().max(120).nullable().optional(),
        target_path: z.string().max(500).nullable().optional(),
        cross_context: z.boolean().optional(),
        outcome: z.string().max(240).nullable().optional(),
      })
      .optional(),
    ttl: z.enum(['durable', 'until_milestone', 'session', 'discard']),
    supersedes: z.array(z.string()).optional(),
    conflicts_with: z.array(z.string()).optional(),
    redaction_notes: z.string().optional(),
    human_review_required: z.boolean().optional(),
    ...emittedAt,
  })
  .superRefine(turnInSession);

export const evidenceRefSchema = z.object({ type: z.enum(EVIDENCE_TYPES), ref: z.string().min(1).max(2000) });
export type EvidenceRef = z.infer<typeof evidenceRefSchema>;

/**
 * The Memory Curator paper's older shape: `kind`, object evidence refs, `redact_hints`; plus Mnemoscope's `user_id`,
 * `session_id` and `turn`.
 */
export const legacyEventSchema = z
  .object({
    event_id: id,
    source_agent: id,
    task_id: z.string().max(LIMITS.idChars).nullable().optional(),
    project_id: z.string().max(LIMITS.idChars).nullable().optional(),
    content: z.string().min(1).max(20_000),
    kind: z.enum(MEMORY_KINDS),
    suggested_scope: z.enum(SCOPES),
    confidence: z.enum(CONFIDENCES),
    evidence_refs: z.array(evidenceRefSchema).max(LIMITS.listItems).default([]),
    redact_hints: z.array(z.string().max(1000)).max(100).default([]),
    timestamp: isoTimestamp,
    user_id: userId.optional(),
    // Free fields of this loose shape before Mnemoscope read them: any value is taken as it was; only an id and a
    // turn that fit are read as the turn the event was emitted at (`emittedAtOf` in normalize.ts).
    session_id: z.unknown().optional(),
    turn: z.unknown().optional(),
  })
  .loose();

// ---------------------------------------------------------------- UCS files

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
/** Engine steps are stored as 32-bit integers. */
const step = z
  .number()
  .int('must be an integer')
  .nonnegative('must be ≥ 0')
  .max(2_147_483_647, 'must be at most 2147483647');

export const ucsStateSchema = z
  .object({
    version: z.string().optional(),
    state: z
      .object({
        theta_bins: z.number().int().positive().max(4096),
        phi_bins: z.number().int().positive().max(4096),
        t: step,
        fields: z.record(z.string(), z.array(finite)),
      })
      .loose(),
  })
  .loose()
  .superRefine((doc, ctx) => {
    const n = doc.state.theta_bins * doc.state.phi_bins;
    for (const [name, values] of Object.entries(doc.state.fields)) {
      if (values.length !== n)
        ctx.addIssue({
          code: 'custom',
          path: ['state', 'fields', name],
          message:
            `must hold theta_bins × phi_bins ` +
            `= ${doc.state.theta_bins}×${doc.state.phi_bins} ` +
            `= ${n} ` +
            `values, has ${values.length}`,
        });
    }
  });

const ucsEntry = z.object({ id: id }).loose();

export const ucsIndexSchema = z
  .object({
    annotations: z.record(z.string(), jsonObject).default({}),
    methodology_entries: z.array(ucsEntry).default([]),
    dead_end_entries: z.array(ucsEntry).default([]),
    judgment_nodes: z.array(ucsEntry).default([]),
    policy_overrides: z.array(jsonObject).default([]),
  })
  .loose();

export const ucsExportSchema = z
  .object({
    format: z.string().startsWith('ucs_cognitive_export', 'must be a UCS cognitive export (ucs_cognitive_export_v2)'),
    agent_id: id.optional(),
    exported_at: z.string().min(1),
    judgment_nodes: z.array(ucsEntry).default([]),
    methodology: z.array(ucsEntry).default([]),
    dead_ends: z.array(ucsEntry).default([]),
    artifacts: z.record(z.string(), z.object({ kind: z.string() }).loose()).default({}),
    pp_history: z.array(jsonObject).default([]),
    policy_overrides: z.array(jsonObject).default([]),
  })
  .loose();

export const ucsActionSchema = z
  .object({
    t: step,
    action: z.string().min(1).max(LIMITS.idChars),
    timestamp: z.string().optional(),
  })
  .loose();

export const ucsPpHistorySchema = z
  .object({ snapshots: z.array(z.object({ t: step, pp: z.record(z.string(), z.number()) }).loose()) })
  .loose();

export const ucsKnowledgeSchema = z.object({
  name: z.string().min(1).max(120),
  markdown: text,
});

// ---------------------------------------------------------------- annotations

/** What an annotation is about. Which other fields name it: see `annotationRecordSchema`. */
export const ANNOTATION_TARGETS = ['turn', 'term', 'artifact', 'proposal', 'entry'] as const;
export type AnnotationTarget = (typeof ANNOTATION_TARGETS)[number];
/** The fields that must name each kind of target. */
export const ANNOTATION_TARGET_FIELDS = {
  turn: ['session_id', 'turn'],
  term: ['session_id', 'turn', 'field', 'term'],
  artifact: ['artifact_id'],
  proposal: ['proposal_id'],
  entry: ['entry_id'],
} as const satisfies Record<AnnotationTarget, readonly string[]>;
/** The longest comment of an annotation, in characters. */
export const COMMENT_MAX = 4000;
export const SCORE_NAME = /^[A-Za-z0-9][\w.:-]{0,63}$/;

/**
 * A person's or a judge's score and/or comment on a turn, a CCS term, an artifact, a proposal or a memory entry.
 * The id makes a retry idempotent. A named score's value must fit the project's definition of that name, if any.
 */
export const annotationRecordSchema = z
  .strictObject({
    id,
    target: z.enum(ANNOTATION_TARGETS, { message: `must be one of: ${ANNOTATION_TARGETS.join(', ')}` }),
    session_id: id.optional(),
    turn: z.number().int().nonnegative('must be ≥ 0').optional(),
    field: z.string().min(1).max(64).optional(),
    term: z.string().min(1).max(2000).optional(),
    artifact_id: id.optional(),
    proposal_id: id.optional(),
    entry_id: id.optional(),
    /** The score's name (a definition in the project, or free): letters, digits, `_ . : -`, up to 64. */
    name: z
      .string()
      .regex(SCORE_NAME, 'must be 1–64 letters, digits or _ . : - (starting with a letter or digit)')
      .optional(),
    value: z
      .union([z.number().refine(Number.isFinite, 'must be a finite number'), z.boolean(), z.string().min(1).max(200)], {
        message: 'must be a number, a boolean or a category (a string)',
      })
      .optional(),
    comment: z
      .string()
      .min(1, 'must not be empty')
      .max(COMMENT_MAX, `must be at most ${COMMENT_MAX} characters`)
      .optional(),
    author: z.string().min(1).max(256).optional(),
    created_at: isoTimestamp.optional(),
  })
  .superRefine((d, ctx) => {
    for (const f of ANNOTATION_TARGET_FIELDS[d.target])
      if (d[f] === undefined)
        ctx.addIssue({ code: 'custom', path: [f], message: `required for a ${d.target} annotation` });
    if (d.value !== undefined && d.name === undefined)
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'required with a value (the score it is a value of)' });
    if (d.name !== undefined && d.value === undefined)
      ctx.addIssue({ code: 'custom', path: ['value'], message: `required with a name (the value of score ${d.name})` });
    if (d.value === undefined && d.name === undefined && d.comment === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'an annotation needs a score (name and value) or a comment',
      });
  });
export type AnnotationRecord = z.infer<typeof annotationRecordSchema>;

/** Schemas of `data` per record type, for validation messages and `GET /api/v1/schema`. */
export const DATA_SCHEMAS = {
  session: sessionRecordSchema,
  turn: turnRecordSchema,
  artifact: artifactRecordSchema,
  memory_event: z.union([agentlasEventSchema, legacyEventSchema]),
  ucs_state: ucsStateSchema,
  ucs_index: ucsIndexSchema,
  ucs_export: ucsExportSchema,
  ucs_action: ucsActionSchema,
  ucs_pp_history: ucsPpHistorySchema,
  ucs_knowledge: ucsKnowledgeSchema,
  ucs_status: jsonObject,
  ucs_consult_samples: z.array(jsonObject),
  annotation: annotationRecordSchema,
} satisfies Record<RecordType, z.ZodType>;

// ---------------------------------------------------------------- results

export interface FieldError {
  /** Path into the envelope, e.g. `data.turn` or `data.ccs.constraints`. */
  path: string;
  message: string;
}

/**
 * A record taken with its `warnings`: fields kept as the agent's own that look like slips for known ones; an
 * annotation's target that is not stored.
 */
type Taken = { index: number; type: RecordType; id: string; warnings?: FieldError[] };

export type IngestResult =
  | (Taken & { status: 'accepted' | 'duplicate' })
  | { index: number; status: 'rejected'; type?: string; id?: string; errors: FieldError[] }
  /** Another version is stored under the id and was kept; `fields` differ. */
  | (Taken & { status: 'conflict'; fields: string[]; message: string })
  /** Another version was stored under the id; this one replaced it (the request asked to supersede). */
  | (Taken & { status: 'superseded'; fields: string[] });

export interface Redaction {
  path: string;
  type: string;
  count: number;
}
