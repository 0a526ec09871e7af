import { z } from 'zod';

/**
 * What became of a memory event an agent sent, as `GET /api/v1/memory-events/{id}`, the MCP tool
 * `get_memory_decision` and the SDKs' `decision()` answer it. The zod schemas are the contract: the OpenAPI document
 * is generated from them and the types below are inferred from them.
 */

/** An entry as the decision left it, read now (its content after a reviewer's edit, its status after a deprecation). */
export const decidedEntrySchema = z
  .object({
    id: z.string(),
    content: z.string(),
    scope: z.string(),
    kind: z.string(),
    status: z.string().meta({ description: 'active, in_conflict or deprecated' }),
    version: z.number().int(),
    changed_by: z.string().meta({ description: "who made the entry's latest version" }),
    note: z.string().nullable().meta({ description: 'the note left with that version (a deprecation’s reason)' }),
    url: z.string().meta({ description: 'where the entry opens in the app (a path)' }),
  })
  .meta({ id: 'DecidedEntry' });
export type DecidedEntry = z.infer<typeof decidedEntrySchema>;

export const memoryDecisionSchema = z
  .object({
    event_id: z.string(),
    disposition: z.string().meta({
      description: 'pending_curation, written, proposed, approved, rejected, duplicate or discarded',
    }),
    final: z.boolean().meta({ description: 'false while the curator has not run or a reviewer has not decided' }),
    reason: z.string().nullable(),
    scope: z.string().nullable(),
    kind: z.string().nullable(),
    edited: z.array(z.string()).meta({ description: 'the fields a reviewer changed before approving' }),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    entry_id: z.string().nullable(),
    entry_url: z
      .string()
      .optional()
      .meta({ description: "the entry in the app: absolute under the server's MNEMOSCOPE_PUBLIC_URL, else a path" }),
    entry: decidedEntrySchema.nullable(),
    duplicate_of: decidedEntrySchema
      .nullable()
      .meta({ description: 'for a duplicate: the entry that says it already' }),
    proposal_id: z.string().optional(),
    proposal_status: z.string().optional(),
    review_url: z
      .string()
      .optional()
      .meta({ description: "the proposal in the app: absolute under the server's MNEMOSCOPE_PUBLIC_URL, else a path" }),
    history: z
      .array(
        z.object({
          disposition: z.string(),
          reason: z.string().nullable(),
          decided_by: z.string(),
          decided_at: z.string(),
        }),
      )
      .meta({ description: 'every outcome recorded for the event, oldest first' }),
  })
  .meta({ id: 'MemoryDecision' });
export type MemoryDecision = z.infer<typeof memoryDecisionSchema>;

/** Dispositions that may still change: the curator has not run, or a reviewer has not decided. */
export const OPEN_DISPOSITIONS = ['pending_curation', 'proposed'] as const;

export const isFinal = (disposition: string) => !(OPEN_DISPOSITIONS as readonly string[]).includes(disposition);

/**
 * The rationale of the outcome that records a malformed event refused at ingest. It is no decision about a whole
 * event sent later under the same id: that one is curated, and its own outcome is what became of it.
 */
export const MALFORMED_RATIONALE = { steps: [{ step: 'schema', outcome: 'malformed' }] };
export const isMalformedOutcome = (rationale: unknown) =>
  (rationale as { steps?: { outcome?: string }[] } | null)?.steps?.[0]?.outcome === 'malformed';
