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

/** A CCS normalised to predicate terms per field; fields the agent did not send are absent. */
export type CcsTerms = Partial<Record<CcsField, string[]>> & { [extraField: string]: string[] | undefined };

// Lists first: agents mostly send lists of terms, and a union pays for every branch it tries before the match.
const ccsValue = z.union([z.array(z.union([z.string(), z.number(), z.boolean()])), z.string(), z.null()]);

/** A CCS as JSON: the nine fields (any may be missing), each a string of terms or a list of terms. */
export const ccsObjectSchema = namedMap(ccsValue, 64);

/** A CCS as sent: a JSON object, or the ACC paper's TOON-style text (`field: term term(...)`). */
export const ccsInputSchema = z.union([ccsObjectSchema, z.string().min(1)]);

export type CcsInput = z.infer<typeof ccsInputSchema>;
