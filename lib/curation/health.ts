/**
 * Per-day curation counts (from the outcomes table) and retrieval labels (from reviewers' judgments of agents'
 * `search_memory` results) turned into the Memory Curator paper's rates.
 */
export interface HealthDay {
  day: string;
  /** Events the curator decided: memory events received and malformed ones. */
  curated: number;
  /** Of them, memory events stored (the Events tab's). */
  received: number;
  /** Deprecations raised in the hygiene lab (proposals no curator routed: not among the curated). */
  raised: number;
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
  /** Of the curated events, those that reached the evidence check (not refused before it: malformed, unsafe). */
  evidence_checked: number;
  demoted: number;
  insufficient: number;
  conflicts: number;
  p50: number | null;
  p95: number | null;
  /** M6 counts, by the day of the search: logged searches with a label that counts (below). */
  retrievals_labelled: number;
  /** Returned items a reviewer judged (relevant or not), and those judged relevant. */
  judged_returned: number;
  relevant_returned: number;
  /** Items a reviewer added as relevant that the search did not return. */
  relevant_missed: number;
}

/** A day of M6 counts alone (what the retrieval labels give), named as in HealthDay. */
export type RetrievalDay = Pick<
  HealthDay,
  'day' | 'retrievals_labelled' | 'judged_returned' | 'relevant_returned' | 'relevant_missed'
>;

export interface RetrievalRates {
  /** Relevant returned items, of the returned items judged. */
  precision: number | null;
  /** Relevant returned items, of every item known relevant (returned or added as missed). */
  recall: number | null;
  /** Harmonic mean of the two; null unless both are known. */
  f1: number | null;
}

export interface HealthRates extends RetrievalRates {
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
  /**
   * M3: events whose evidence sufficed without demotion, of those that reached the evidence check (an event refused
   * before it, as malformed or unsafe, says nothing of its evidence).
   */
  evidence: number | null;
  /** M4: events found to duplicate an existing entry. */
  redundancy: number | null;
  /** M5: events flagged as conflicting. */
  conflicts: number | null;
  /** M7: curator latency per event, ms. */
  p50: number | null;
  p95: number | null;
  /** M6: searches labelled that day (precision, recall and F1 above pool their items). */
  labelled: number;
}

const rate = (n: number, of: number) => (of ? n / of : null);

export function healthRates(days: readonly HealthDay[]): HealthRates[] {
  return days.map((d) => {
    const c = healthCounts(d);
    return {
      day: d.day,
      approval: rate(...c.approval),
      routing: rate(...c.routing),
      leakage: rate(...c.leakage),
      rejection: rate(...c.rejection),
      evidence: rate(...c.evidence),
      redundancy: rate(...c.redundancy),
      conflicts: rate(...c.conflicts),
      p50: d.p50,
      p95: d.p95,
      ...retrievalRates(d),
      labelled: d.retrievals_labelled,
    };
  });
}

/** Of each share `healthRates` gives for a day, how many of how many (the figure behind the percentage). */
export function healthCounts(
  d: HealthDay,
): Record<
  'approval' | 'routing' | 'leakage' | 'rejection' | 'evidence' | 'redundancy' | 'conflicts',
  [number, number]
> {
  return {
    approval: [d.approved, d.approved + d.declined],
    routing: [d.scope_kept, d.reviewed],
    leakage: [d.scope_moved, d.reviewed],
    rejection: [d.rejected, d.curated],
    evidence: [d.evidence_checked - d.demoted - d.insufficient, d.evidence_checked],
    redundancy: [d.duplicates, d.curated],
    conflicts: [d.conflicts, d.curated],
  };
}

/**
 * M6, retrieval F1 on downstream tasks, from reviewers' labels: the items of a day's labelled searches pooled
 * (micro-averaged, so a search with many results weighs more than one with few). Items returned but not judged count
 * nowhere; an item a reviewer added as missed lowers recall. Null where the labels say nothing.
 */
export function retrievalRates(d: Omit<RetrievalDay, 'day' | 'retrievals_labelled'>): RetrievalRates {
  const precision = rate(d.relevant_returned, d.judged_returned);
  const recall = rate(d.relevant_returned, d.relevant_returned + d.relevant_missed);
  const f1 =
    precision === null || recall === null
      ? null
      : precision + recall === 0
        ? 0
        : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

const NO_RETRIEVALS = { retrievals_labelled: 0, judged_returned: 0, relevant_returned: 0, relevant_missed: 0 };
const NO_CURATION = {
  curated: 0,
  received: 0,
  raised: 0,
  written: 0,
  proposed: 0,
  rejected: 0,
  duplicates: 0,
  discarded: 0,
  approved: 0,
  declined: 0,
  reviewed: 0,
  scope_kept: 0,
  scope_moved: 0,
  scope_widened: 0,
  evidence_checked: 0,
  demoted: 0,
  insufficient: 0,
  conflicts: 0,
  p50: null,
  p95: null,
};

/** The curation days and the retrieval days as one series by day, oldest first; a day missing from one has zeros. */
export function mergeHealthDays(
  curation: readonly Omit<HealthDay, keyof typeof NO_RETRIEVALS>[],
  retrieval: readonly RetrievalDay[],
): HealthDay[] {
  const byDay = new Map<string, HealthDay>();
  for (const d of curation) byDay.set(d.day, { ...NO_RETRIEVALS, ...d });
  for (const r of retrieval) byDay.set(r.day, { ...NO_CURATION, ...byDay.get(r.day), ...r });
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}
