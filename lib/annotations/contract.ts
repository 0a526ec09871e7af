import { z } from 'zod';
import { SCORE_NAME, type AnnotationTarget } from '@/lib/ingest/contract';

/** What values a score may take: a number (in a range), a boolean, or one of named categories. */
export const SCORE_KINDS = ['numeric', 'categorical', 'boolean'] as const;
export type ScoreKind = (typeof SCORE_KINDS)[number];

const bound = z.number().refine(Number.isFinite, 'must be a finite number').nullable().optional();

/** A project's definition of a score, as a person enters it in Settings. */
export const scoreDefinitionSchema = z
  .strictObject({
    name: z.string().regex(SCORE_NAME, 'must be 1–64 letters, digits or _ . : - (starting with a letter or digit)'),
    kind: z.enum(SCORE_KINDS, { message: `must be one of: ${SCORE_KINDS.join(', ')}` }),
    min: bound,
    max: bound,
    categories: z
      .array(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'))
      .max(50, 'at most 50 categories')
      .optional(),
    description: z.string().max(1000, 'must be at most 1000 characters').optional(),
  })
  .superRefine((d, ctx) => {
    if (d.kind === 'categorical') {
      const cats = d.categories ?? [];
      if (cats.length < 2)
        ctx.addIssue({
          code: 'custom',
          path: ['categories'],
          message: 'a categorical score needs at least 2 categories',
        });
      const dup = cats.find((c, i) => cats.indexOf(c) !== i);
      if (dup !== undefined)
        ctx.addIssue({ code: 'custom', path: ['categories'], message: `lists ${JSON.stringify(dup)} twice` });
    } else if (d.categories?.length)
      ctx.addIssue({ code: 'custom', path: ['categories'], message: `only a categorical score has categories` });
    if (d.kind !== 'numeric' && (d.min != null || d.max != null))
      ctx.addIssue({ code: 'custom', path: ['min'], message: 'only a numeric score has a range' });
    if (d.min != null && d.max != null && d.min > d.max)
      ctx.addIssue({ code: 'custom', path: ['max'], message: `the highest value must be ≥ the lowest (${d.min})` });
  });
export type ScoreDefinitionInput = z.infer<typeof scoreDefinitionSchema>;

export interface ScoreDefinition {
  name: string;
  kind: ScoreKind;
  min: number | null;
  max: number | null;
  categories: string[];
  description: string | null;
}

export type ScoreValue = number | boolean | string;

/** Why `value` does not fit the definition, or null when it does. */
export function scoreProblem(def: ScoreDefinition, value: ScoreValue): string | null {
  switch (def.kind) {
    case 'numeric':
      if (typeof value !== 'number') return `must be a number (score ${def.name} is numeric)`;
      if (def.min != null && value < def.min) return `must be ≥ ${def.min} (score ${def.name})`;
      if (def.max != null && value > def.max) return `must be ≤ ${def.max} (score ${def.name})`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : `must be true or false (score ${def.name} is boolean)`;
    case 'categorical':
      return typeof value === 'string' && def.categories.includes(value)
        ? null
        : `must be one of: ${def.categories.join(', ')} (score ${def.name})`;
  }
}

/** The kind a value of a score without a definition has. */
export function kindOf(value: ScoreValue): ScoreKind {
  return typeof value === 'number' ? 'numeric' : typeof value === 'boolean' ? 'boolean' : 'categorical';
}

/** How a value reads: numbers to 3 significant digits, booleans as yes/no. */
export function formatScore(value: ScoreValue): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(+value.toPrecision(3));
  return value;
}

/** Where an annotation points, for a person: "turn 17", "term constraints: no_restart(db)", "proposal p-12". */
export function targetLabel(a: {
  target: AnnotationTarget | string;
  turn: number | null;
  field: string | null;
  term: string | null;
  artifactId: string | null;
  proposalId: string | null;
  entryId: string | null;
}): string {
  switch (a.target) {
    case 'turn':
      return `turn ${a.turn}`;
    case 'term':
      return `turn ${a.turn} · ${a.field}: ${a.term}`;
    case 'artifact':
      return `artifact ${a.artifactId}`;
    case 'proposal':
      return `proposal ${a.proposalId}`;
    case 'entry':
      return `entry ${a.entryId}`;
    default:
      return a.target;
  }
}

/**
 * Filters of the annotations list (the page, the API and the router share them). Not strict: TanStack's infinite
 * queries add keys of their own (`direction`), which are dropped; the HTTP API refuses unknown parameters itself.
 */
export const annotationFilterSchema = z.object({
  sessionId: z.string().min(1).max(256).optional(),
  target: z.enum(['turn', 'term', 'artifact', 'proposal', 'entry']).optional(),
  name: z.string().min(1).max(64).optional(),
  author: z.string().min(1).max(256).optional(),
  /** Only annotations with (true) or without (false) a comment. */
  commented: z.boolean().optional(),
  proposalId: z.string().min(1).max(256).optional(),
  entryId: z.string().min(1).max(256).optional(),
  turn: z.number().int().nonnegative().optional(),
});
export type AnnotationFilter = z.infer<typeof annotationFilterSchema>;

/** An annotation as a stored row has it (camelCase). */
export interface AnnotationFields {
  id: string;
  target: string;
  sessionId: string | null;
  turn: number | null;
  field: string | null;
  term: string | null;
  artifactId: string | null;
  proposalId: string | null;
  entryId: string | null;
  name: string | null;
  value: ScoreValue | null;
  comment: string | null;
  author: string;
  /** ISO 8601. */
  createdAt: string;
}

/** The `annotation` record of a stored annotation, as the API lists it and the session export writes it. */
export function annotationRecord(a: AnnotationFields) {
  return {
    id: a.id,
    target: a.target,
    session_id: a.sessionId,
    turn: a.turn,
    field: a.field,
    term: a.term,
    artifact_id: a.artifactId,
    proposal_id: a.proposalId,
    entry_id: a.entryId,
    name: a.name,
    value: a.value,
    comment: a.comment,
    author: a.author,
    created_at: a.createdAt,
  };
}
