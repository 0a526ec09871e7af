import { z } from 'zod';
import { annotationRecordSchema, DATA_SCHEMAS, envelopeSchema, RECORD_TYPES } from '@/lib/ingest/contract';

/**
 * What the HTTP API answers, as zod schemas: the OpenAPI document (`lib/api/openapi.ts`) is generated from them and
 * from the request contracts in `lib/ingest/contract.ts`, and the tests check the live server's answers against it.
 */

/** The longest API key name, in characters. */
export const KEY_NAME_MAX = 100;

export const fieldErrorSchema = z
  .object({
    path: z.string().meta({ description: 'the offending field, e.g. data.turn ("" for the record as a whole)' }),
    message: z.string(),
  })
  .meta({ id: 'FieldError' });

export const errorSchema = z
  .object({
    error: z.string().meta({ description: 'what is wrong, naming the field or header where there is one' }),
    requestId: z.string().optional().meta({ description: 'the x-request-id of the call, to quote from a log' }),
    retryAfterSeconds: z.number().optional(),
  })
  .meta({ id: 'Error' });

const warningsSchema = z
  .array(fieldErrorSchema)
  .optional()
  .meta({
    description:
      "fields the record's type does not know that look like slips for ones it does (`halucination`): kept as the " +
      "agent's own, in extra; each names the field meant",
  });

export const ingestResultSchema = z
  .union([
    z.object({
      index: z.number().int(),
      status: z.enum(['accepted', 'duplicate']),
      type: z.enum(RECORD_TYPES),
      id: z.string(),
      warnings: warningsSchema,
    }),
    z.object({
      index: z.number().int(),
      status: z.literal('rejected'),
      type: z.string().optional(),
      id: z.string().optional(),
      errors: z.array(fieldErrorSchema).meta({ description: 'every offending field, each with its reason' }),
    }),
    z
      .object({
        index: z.number().int(),
        status: z.literal('conflict'),
        type: z.enum(RECORD_TYPES),
        id: z.string(),
        fields: z.array(z.string()).meta({ description: 'the fields in which the stored version differs' }),
        message: z.string(),
        warnings: warningsSchema,
      })
      .meta({
        description: 'another version is stored under this id and was kept (send supersede=true to replace it)',
      }),
    z
      .object({
        index: z.number().int(),
        status: z.literal('superseded'),
        type: z.enum(RECORD_TYPES),
        id: z.string(),
        fields: z.array(z.string()),
        warnings: warningsSchema,
      })
      .meta({ description: 'this version replaced the stored one, which is kept in the record’s history' }),
  ])
  .meta({ id: 'IngestResult' });

export const curationCountsSchema = z
  .object({
    batchId: z.string(),
    events: z.number().int(),
    written: z.number().int(),
    proposed: z.number().int(),
    rejected: z.number().int(),
    duplicate: z.number().int(),
    discarded: z.number().int(),
  })
  .meta({ id: 'CurationCounts' });

export const ingestAnswerSchema = z
  .object({
    results: z.array(ingestResultSchema).meta({ description: 'one per record, in the order sent' }),
    accepted: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.number().int(),
    conflicts: z.number().int(),
    superseded: z.number().int(),
    curation: z.union([curationCountsSchema, z.object({ error: z.string() })]).optional(),
  })
  .meta({ id: 'IngestAnswer' });

export const sessionStateSchema = z
  .object({
    session_id: z.string(),
    title: z.string().nullable(),
    agent: z.string(),
    turn: z.number().int(),
    turns: z.number().int().meta({ description: 'how many turns the session holds' }),
    timestamp: z.string().nullable(),
    ccs: z.record(z.string(), z.array(z.string())).meta({ description: 'the CCS committed at that turn, by field' }),
    hallucination: z.number().nullable(),
    drift: z.number().nullable(),
    forked_from: z
      .object({ session: z.string(), turn: z.number().int(), by: z.string(), at: z.string() })
      .nullable()
      .meta({ description: "set on a fork (a reviewer's corrected CCS): where it was taken from" }),
    url: z.string(),
  })
  .meta({ id: 'SessionState' });
export type SessionState = z.infer<typeof sessionStateSchema>;

const annotationOutSchema = z
  .object({
    id: z.string(),
    target: z.string(),
    session_id: z.string().nullable(),
    turn: z.number().int().nullable(),
    field: z.string().nullable(),
    term: z.string().nullable(),
    artifact_id: z.string().nullable(),
    proposal_id: z.string().nullable(),
    entry_id: z.string().nullable(),
    name: z.string().nullable(),
    value: z.union([z.number(), z.boolean(), z.string()]).nullable(),
    comment: z.string().nullable(),
    author: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'Annotation' });

export const annotationsPageSchema = z
  .object({
    annotations: z.array(annotationOutSchema),
    matching: z.number().int().nullable().meta({ description: 'how many match the filters (first page only)' }),
    next: z.string().nullable().meta({ description: 'the cursor of the next page; null at the end' }),
  })
  .meta({ id: 'AnnotationsPage' });

export const projectImportAnswerSchema = z
  .object({
    project: z.string(),
    rows: z.number().int(),
    tables: z.record(z.string(), z.number().int()),
  })
  .meta({ id: 'ProjectImportAnswer' });

export const otlpAnswerSchema = z
  .object({
    partialSuccess: z
      .object({ rejectedSpans: z.number().int(), errorMessage: z.string() })
      .optional()
      .meta({ description: "OTLP's partial success: how many spans were refused, and why" }),
    mnemoscope: z.object({
      spans: z.number().int(),
      skipped: z.number().int(),
      accepted: z.number().int(),
      duplicates: z.number().int(),
      rejected: z.number().int(),
    }),
  })
  .meta({ id: 'OtlpAnswer' });

/** The request bodies, by their ingest contracts. */
export const envelopeRequestSchema = envelopeSchema.meta({ id: 'Envelope' });
export const annotationRequestSchema = annotationRecordSchema.meta({ id: 'AnnotationRecord' });
export const recordDataSchemas = DATA_SCHEMAS;
