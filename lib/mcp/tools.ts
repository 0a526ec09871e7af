import { z } from 'zod';
import {
  ANNOTATION_TARGETS,
  CONFIDENCES,
  LIMITS,
  MEMORY_KINDS,
  SCOPES,
  agentlasEventSchema,
  annotationRecordSchema,
} from '@/lib/ingest/contract';
import { RETRIEVAL_KEEP_DAYS } from '@/lib/curation/retrievals';

/**
 * The MCP tools agents call (the transport is server/http/mcp.ts): names, what each does, and the
 * argument schemas the MCP SDK validates against. Pure, so the Connect page can show them too.
 */
export const MCP_TOOLS = [
  'submit_memory_event',
  'get_memory_decision',
  'search_memory',
  'get_session_state',
  'list_dead_ends',
  'annotate',
] as const;

/** What each tool does, as MCP clients (and the Connect page) show it. */
export const MCP_TOOL_DOCS: Record<(typeof MCP_TOOLS)[number], string> = {
  submit_memory_event:
    'Proposes a durable memory to the curator. It is validated, redacted, checked for safety, evidence, ' +
    'duplicates and conflicts, then written, queued for human review, or rejected. Returns the disposition and ' +
    'the reason.',
  get_memory_decision:
    'What became of a memory event you submitted: written, queued for review (`proposed`), approved (with the ' +
    'fields a reviewer `edited` and the entry as it now reads), rejected with the reason, a `duplicate_of` an ' +
    'entry, or discarded; `final` is false while a review is pending. Give `wait_seconds` (≤ 50) to wait for a ' +
    'pending review to be decided.',
  search_memory:
    'Search over the project’s durable memory entries and its artifact store, ranked as the Mnemoscope app ranks ' +
    'recall: keywords (BM25) and meaning (cosine on the bundled embedding model) fused by reciprocal rank, an ' +
    'item holding every word first. `mode: "keyword"` asks for keywords only. Give `reader` (your user, team, ' +
    'project, agent repo and task) to search only the memory entries you read, as Curation → Read as shows them. ' +
    'Each result says its keyword and ' +
    'vector rank and its cosine. Each search is logged with its results (secrets in the query redacted, kept ' +
    `${RETRIEVAL_KEEP_DAYS} days) so reviewers can judge what it found.`,
  get_session_state:
    'The latest Compressed Cognitive State of a session (or the one committed at a given turn), with the turn ' +
    "it belongs to and its H_t / D_t. A fork (a reviewer's corrected CCS, saved as a new session) names the " +
    'session and turn it was forked from: resume from its state and send the next turns to the fork.',
  list_dead_ends:
    'What the agent learned does not work: each dead end with why it was closed and the conditions that would ' +
    'reopen it. Give `situation` (what you are about to try, or what changed) to see which dead ends it touches: ' +
    '`match: "reopen"` (first) when it meets their reopen conditions, `"related"` with `related_by` when it only ' +
    'names one of their capabilities or keywords.',
  annotate:
    'Scores or comments on a turn, a CCS term, an artifact, a curator proposal or a memory entry, as a reviewer ' +
    'would in the app (an automated judge, for instance). A named score is checked against the project’s ' +
    'definition of that name, if any. Give `id` to make a retry idempotent. Shown on the replay timeline, in the ' +
    'inbox and on the Annotations page, with you as the author.',
};

const A = agentlasEventSchema.shape;

/** The Agentlas memory event, with what a tool caller need not fill in made optional. */
export const memoryEventArgs = {
  content: A.content.describe(
    'The memory itself, one statement (≤ 1200 characters). Secrets are redacted before storage.',
  ),
  memory_kind: A.memory_kind.describe(`One of ${MEMORY_KINDS.join(', ')}.`),
  suggested_scope: A.suggested_scope.describe(`Where it belongs: ${SCOPES.join(', ')}.`),
  source_agent: A.source_agent.describe('The agent emitting the event.'),
  task_id: A.task_id.describe('The task the agent was working on.'),
  confidence: A.confidence.optional().describe(`${CONFIDENCES.join(', ')} (default medium).`),
  evidence_refs: A.evidence_refs
    .optional()
    .describe(
      'Evidence: "commit:<sha>", "file:<path>", "message:<id>" or "url:<url>". Facts, decisions and procedures ' +
        'without evidence are rejected.',
    ),
  sensitivity: A.sensitivity
    .optional()
    .describe('public, internal (default), private, confidential or secret (secret is never stored).'),
  ttl: A.ttl.optional().describe('durable (default), until_milestone, session or discard.'),
  event_id: A.event_id
    .optional()
    .describe('memevt_… id; give the same one when retrying so the event is not stored twice. Generated when absent.'),
  timestamp: A.timestamp.optional(),
  project_id: A.project_id,
  agent_repo: A.agent_repo,
  team_id: A.team_id,
  user_id: A.user_id.describe(
    'Whose user_identity memory this is (a Mnemoscope extension): an opaque user id, not an email.',
  ),
  session_id: A.session_id.describe(
    'The session in which you emit it (a Mnemoscope extension): with `turn`, the replay shows the event at that turn.',
  ),
  turn: A.turn.describe('The turn of that session at which you emit it (needs `session_id`).'),
  request_context: A.request_context,
  supersedes: A.supersedes,
  conflicts_with: A.conflicts_with,
  human_review_required: A.human_review_required,
};

/** Arguments of the read tools. */
/** One of a reader's values, as memory events carry it (no control characters: an unmatchable owner holds one). */
const readerId = z
  .string()
  .trim()
  .max(LIMITS.idChars)
  // eslint-disable-next-line no-control-regex -- refused, not matched
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
  .optional();

export const searchMemoryArgs = {
  query: z.string().trim().min(1, 'must not be empty').max(500),
  limit: z.number().int().min(1).max(50).optional().describe('At most this many results (default 10).'),
  include_deprecated: z.boolean().optional().describe('Also search deprecated entries and records (default false).'),
  mode: z
    .enum(['hybrid', 'keyword'])
    .optional()
    .describe('hybrid (default): keywords and meaning fused; keyword: words only.'),
  reader: z
    .object({ user: readerId, team: readerId, project: readerId, agent_repo: readerId, task: readerId })
    .optional()
    .describe(
      'Who reads: memory entries are then only those this reader reads — in each scope its own (by the user, team, ' +
        'project, agent repo and task its memory events name) and the shared ones, never deprecated — as Curation ' +
        '→ Read as lists them. Without it, every entry of the project.',
    ),
};
export const sessionStateArgs = {
  session_id: z.string().trim().min(1).max(256),
  turn: z.number().int().nonnegative().optional().describe('A turn number; default the latest.'),
};
export const memoryDecisionArgs = {
  event_id: z.string().trim().min(1).max(256).describe('The memevt_… id submit_memory_event answered with.'),
  wait_seconds: z
    .number()
    .int()
    .min(0)
    .max(50)
    .optional()
    .describe('Wait up to this many seconds for a pending decision (default 0: answer now).'),
};
export const deadEndsArgs = {
  agent: z.string().trim().min(1).max(256).optional().describe('A UCS agent id; default every agent of the project.'),
  situation: z.string().max(2000).optional(),
};

const N = annotationRecordSchema.shape;
/** An annotation as the `annotation` ingest record has it; which target fields are needed is checked on ingest. */
export const annotateArgs = {
  target: N.target.describe(`What it is about: ${ANNOTATION_TARGETS.join(', ')}.`),
  session_id: N.session_id.describe('The session (turn, term and artifact annotations).'),
  turn: N.turn.describe('The turn number (turn and term annotations).'),
  field: N.field.describe('The CCS field of the term (term annotations), e.g. constraints.'),
  term: N.term.describe('The CCS term (term annotations), as the state shows it.'),
  artifact_id: N.artifact_id.describe('The artifact (artifact annotations).'),
  proposal_id: N.proposal_id.describe('The curator proposal (proposal annotations).'),
  entry_id: N.entry_id.describe('The memory entry (entry annotations).'),
  name: N.name.describe('The score’s name, e.g. "correct" or "helpfulness"; with value.'),
  value: N.value.describe('The score: a number, a boolean or a category; with name.'),
  comment: N.comment.describe('A comment, with or without a score.'),
  id: N.id.optional().describe('An id of yours for this annotation, so a retry is not stored twice. Generated.'),
};
