import { z } from 'zod';
import { namedMap } from '@/lib/zod-map';

/** The nine typed fields of a Compressed Cognitive State, in the ACC paper's order. */
export const CCS_FIELDS = [
  'episodic_trace',
  'semantic_gist',
  'focal_entities',
  'relational_map',
  'goal_orientation',
  'constraints',
  'predictive_cue',
  'uncertainty_signal',
  'retrieved_artifacts',
] as const;

export type CcsField = (typeof CCS_FIELDS)[number];

/** The order a person reads them in (the state, a diff, a fork's editor, two runs side by side): goal and constraints
 * first, as what a reviewer checks every turn against. */
export const REVIEW_ORDER: readonly CcsField[] = [
  'goal_orientation',
  'constraints',
  'semantic_gist',
  'uncertainty_signal',
  'episodic_trace',
  'focal_entities',
  'relational_map',
  'predictive_cue',
  'retrieved_artifacts',
];

/** `fields` in review order, those not of the nine (an agent's own) after them as they came. */
export function inReviewOrder(fields: readonly string[]): string[] {
  const known = new Set<string>(REVIEW_ORDER);
  return [...REVIEW_ORDER.filter((f) => fields.includes(f)), ...fields.filter((f) => !known.has(f))];
}

/** A CCS normalised to predicate terms per field; fields the agent did not send are absent. */
export type CcsTerms = Partial<Record<CcsField, string[]>> & { [extraField: string]: string[] | undefined };

// Lists first: agents mostly send lists of terms, and a union pays for every branch it tries before the match.
const ccsValue = z.union([z.array(z.union([z.string(), z.number(), z.boolean()])), z.string(), z.null()]);

/** A CCS as JSON: the nine fields (any may be missing), each a string of terms or a list of terms. */
export const ccsObjectSchema = namedMap(ccsValue, 64);

/** A CCS as sent: a JSON object, or the ACC paper's TOON-style text (`field: term term(...)`). */
export const ccsInputSchema = z.union([ccsObjectSchema, z.string().min(1)]);

export type CcsInput = z.infer<typeof ccsInputSchema>;
