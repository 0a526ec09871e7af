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
    rejection: rate(d.rejected, d.curated),
    evidence: d.curated ? 1 - (d.demoted + d.insufficient) / d.curated : null,
    redundancy: rate(d.duplicates, d.curated),
    conflicts: rate(d.conflicts, d.curated),
    p50: d.p50,
    p95: d.p95,
  }));
}
