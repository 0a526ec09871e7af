import { z } from 'zod';
import { SLEEP_K } from './consolidation';
import { PAPER_DEFAULTS } from './deletion';
import { DEFAULT_MISALIGNMENT } from './items';

/** Why a memory item may be proposed for deprecation from the lab: a deletion policy, a verdict, or a person. */
export const PROPOSAL_POLICIES = [
  'periodic',
  'history',
  'combined',
  'product',
  'capacity',
  'misaligned',
  'chain',
  'manual',
] as const;
export type ProposalPolicy = (typeof PROPOSAL_POLICIES)[number];

const unit = z.number().min(0).max(1);
/** Consolidation's budget B, in memory items. */
export const DEFAULT_BUDGET = 16;
/**
 * The lab's parameters; every one has as default the value of "How Memory Management Impacts LLM Agents: An
 * Empirical Study of Experience-Following Behavior" (or ours, said on screen).
 */
/** The deletion policies' parameters (P, α, n, β, C). */
export const deletionInput = z.object({
  period: z.number().int().min(1).max(1_000_000).default(PAPER_DEFAULTS.period),
  alpha: z.number().int().min(0).max(1000).default(PAPER_DEFAULTS.alpha),
  n: z.number().int().min(0).max(1000).default(PAPER_DEFAULTS.n),
  beta: unit.default(PAPER_DEFAULTS.beta),
  capacity: z.number().int().min(1).max(1_000_000).default(PAPER_DEFAULTS.capacity),
});
/** The misaligned-item rule's thresholds. */
export const misalignmentInput = z.object({
  inputMin: unit.default(DEFAULT_MISALIGNMENT.inputMin),
  outputMax: unit.default(DEFAULT_MISALIGNMENT.outputMax),
  minHits: z.number().int().min(1).max(1000).default(DEFAULT_MISALIGNMENT.minHits),
});
export const labInput = z.object({
  agent: z.string().min(1).max(256),
  deletion: deletionInput.prefault({}),
  budget: z.number().int().min(1).max(100_000).default(DEFAULT_BUDGET),
  /** Sleep-replay's clusters: the paper's k = 8. */
  sleepK: z.number().int().min(1).max(10_000).default(SLEEP_K),
  misalignment: misalignmentInput.prefault({}),
  /** A turn "went wrong" below this utility (error chains). */
  wrongBelow: unit.default(0.5),
});
export type LabInput = z.infer<typeof labInput>;
