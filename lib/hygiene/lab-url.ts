import { z } from 'zod';
import { readUrlNumber, type NumberRange } from '@/lib/url-number';
import { SLEEP_K } from './consolidation';
import { DEFAULT_BUDGET, deletionInput, labInput, misalignmentInput } from './contract';
import type { DeletionParams } from './deletion';
import { DEFAULT_MISALIGNMENT, type MisalignmentRule } from './items';

/**
 * The hygiene lab's settings in its URL, so that a reload or a shared link shows the same figures. Only what was
 * changed is written; a value the server would refuse (a typo, an edited link) is left out, so its default stands.
 */
export interface LabSettings {
  /** The deletion parameters chosen; null (or those left out) follow the agent's history (see the lab). */
  deletion: Partial<DeletionParams> | null;
  budget: number;
  sleepK: number;
  misalignment: MisalignmentRule;
}

/** URL key of each setting. */
const DELETION_KEYS: Record<keyof DeletionParams, string> = {
  period: 'period',
  alpha: 'alpha',
  n: 'n',
  beta: 'beta',
  capacity: 'capacity',
};
const MISALIGNMENT_KEYS: Record<keyof MisalignmentRule, string> = {
  inputMin: 'input_min',
  outputMax: 'output_max',
  minHits: 'min_hits',
};

function read(params: URLSearchParams, key: string, schema: z.ZodType<number>, problems: string[] = []) {
  return readUrlNumber(params, key, rangeOf(schema), problems);
}

/** What the server's schema of a setting takes: its bounds, and whether only whole numbers. */
function rangeOf(schema: z.ZodType<number>): NumberRange {
  const n = schema instanceof z.ZodDefault ? schema.unwrap() : schema;
  if (!(n instanceof z.ZodNumber)) throw new Error('a lab setting is a number');
  return { min: n.minValue ?? -Infinity, max: n.maxValue ?? Infinity, integer: !!n.isInt };
}

/** The settings the URL names that the lab cannot take, each with what it takes (their defaults stand). */
export function labSettingsProblems(params: URLSearchParams): string[] {
  const problems: string[] = [];
  readLabSettings(params, problems);
  return problems;
}

export function readLabSettings(params: URLSearchParams, problems: string[] = []): LabSettings {
  const deletion: Partial<DeletionParams> = {};
  for (const [field, key] of Object.entries(DELETION_KEYS) as [keyof DeletionParams, string][]) {
    const v = read(params, key, deletionInput.shape[field], problems);
    if (v !== undefined) deletion[field] = v;
  }
  const misalignment = { ...DEFAULT_MISALIGNMENT };
  for (const [field, key] of Object.entries(MISALIGNMENT_KEYS) as [keyof MisalignmentRule, string][])
    misalignment[field] = read(params, key, misalignmentInput.shape[field], problems) ?? misalignment[field];
  return {
    deletion: Object.keys(deletion).length ? deletion : null,
    budget: read(params, 'budget', labInput.shape.budget, problems) ?? DEFAULT_BUDGET,
    sleepK: read(params, 'k', labInput.shape.sleepK, problems) ?? SLEEP_K,
    misalignment,
  };
}

/** Writes the settings into `params` (in place): what differs from the defaults is set, the rest removed. */
export function writeLabSettings(params: URLSearchParams, s: LabSettings): URLSearchParams {
  const put = (key: string, v: number | undefined, dflt?: number) =>
    v === undefined || v === dflt ? params.delete(key) : params.set(key, String(v));
  for (const [field, key] of Object.entries(DELETION_KEYS) as [keyof DeletionParams, string][])
    put(key, s.deletion?.[field]);
  for (const [field, key] of Object.entries(MISALIGNMENT_KEYS) as [keyof MisalignmentRule, string][])
    put(key, s.misalignment[field], DEFAULT_MISALIGNMENT[field]);
  put('budget', s.budget, DEFAULT_BUDGET);
  put('k', s.sleepK, SLEEP_K);
  return params;
}
