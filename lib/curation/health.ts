/** Per-day curation counts (from the outcomes table) turned into the Memory Curator paper's rates. */
export interface HealthDay {
  day: string;
  curated: number;
  written: number;
  proposed: number;
  rejected: number;
  duplicates: number;
  discarded: number;
  approved: number;
  declined: number;
  /** The curator's proposals a reviewer decided (approved or rejected), not the hygiene lab's. */
  reviewed: number;
  /**
   * Of the curator's proposals approved: scope kept, moved to a scope with fewer readers (a leak caught), moved to
   * one with more (`scope` among the fields edited).
   */
  scope_kept: number;
  scope_moved: number;
  scope_widened: number;
  demoted: number;
  insufficient: number;
  conflicts: number;
  p50: number | null;
  p95: number | null;
}

export interface HealthRates {
  day: string;
  /** Reviewed proposals approved, of those decided that day. */
  approval: number | null;
  /**
   * M1, routing accuracy, on the reviewers' decisions as gold labels: the curator's proposals a reviewer approved in
   * the scope the curator chose, of those decided (a rejection says the event belonged in no durable scope).
   */
  routing: number | null;
  /**
   * M2, scope leakage the review caught: approved only after the reviewer moved it to a scope with fewer readers, of
   * the curator's proposals decided.
   */
  leakage: number | null;
  /** Curated events rejected by the curator (unsafe, malformed, no evidence). */
  rejection: number | null;
  /** M3: events whose evidence sufficed without demotion, of those curated. */
  evidence: number | null;
  /** M4: events found to duplicate an existing entry. */
  redundancy: number | null;
  /** M5: events flagged as conflicting. */
  conflicts: number | null;
  /** M7: curator latency per event, ms. */
  p50: number | null;
  p95: number | null;
}

const rate = (n: number, of: number) => (of ? n / of : null);

export function healthRates(days: readonly HealthDay[]): HealthRates[] {
  return days.map((d) => ({
    day: d.day,
    approval: rate(d.approved, d.approved + d.declined),
    routing: rate(d.scope_kept, d.reviewed),
    leakage: rate(d.scope_moved, d.reviewed),
    rejection: rate(d.rejected, d.curated),
    evidence: d.curated ? 1 - (d.demoted + d.insufficient) / d.curated : null,
    redundancy: rate(d.duplicates, d.curated),
    conflicts: rate(d.conflicts, d.curated),
    p50: d.p50,
    p95: d.p95,
  }));
}
