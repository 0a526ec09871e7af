import { describe, expect, it } from 'vitest';
import {
  healthCounts,
  healthRates,
  mergeHealthDays,
  retrievalRates,
  type HealthDay,
  type RetrievalDay,
} from './health';

const labels = (judged: number, hits: number, missed: number) => ({
  judged_returned: judged,
  relevant_returned: hits,
  relevant_missed: missed,
});

describe('M6: retrieval precision, recall and F1 from reviewers’ labels', () => {
  it('pools a day’s judged items: precision over judged returned items, recall over every relevant one', () => {
    // 4 returned items judged, 3 relevant; 1 relevant item added as missed.
    const r = retrievalRates(labels(4, 3, 1));
    expect(r.precision).toBe(0.75);
    expect(r.recall).toBe(0.75);
    expect(r.f1).toBeCloseTo(0.75, 12);
    const uneven = retrievalRates(labels(5, 1, 0));
    expect([uneven.precision, uneven.recall]).toEqual([0.2, 1]);
    expect(uneven.f1).toBeCloseTo((2 * 0.2 * 1) / 1.2, 12);
  });

  it('lowers recall, and not precision, for an item the search missed', () => {
    const without = retrievalRates(labels(2, 2, 0));
    const missed = retrievalRates(labels(2, 2, 1));
    expect(without.recall).toBe(1);
    expect(missed.recall).toBeCloseTo(2 / 3, 12);
    expect(missed.precision).toBe(without.precision);
    expect(missed.f1!).toBeLessThan(without.f1!);
  });

  it('is null where the labels say nothing, and 0 when nothing returned was relevant', () => {
    expect(retrievalRates(labels(0, 0, 0))).toEqual({ precision: null, recall: null, f1: null });
    // Only irrelevant results: precision 0, recall unknown (no relevant item is known), so no F1.
    expect(retrievalRates(labels(3, 0, 0))).toEqual({ precision: 0, recall: null, f1: null });
    // Nothing returned judged, one missed: recall 0, precision unknown.
    expect(retrievalRates(labels(0, 0, 1))).toEqual({ precision: null, recall: 0, f1: null });
    expect(retrievalRates(labels(2, 0, 1))).toEqual({ precision: 0, recall: 0, f1: 0 });
  });
});

describe('curation and retrieval days', () => {
  const curated = (day: string, n: number): Omit<HealthDay, keyof RetrievalDay | 'day'> & { day: string } => ({
    day,
    curated: n,
    received: n,
    raised: 0,
    written: n,
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
    evidence_checked: n,
    demoted: 0,
    insufficient: 0,
    conflicts: 0,
    p50: 2,
    p95: 3,
  });
  const searched = (day: string, judged: number, hits: number, missed: number): RetrievalDay => ({
    day,
    retrievals_labelled: 1,
    ...labels(judged, hits, missed),
  });

  it('merges by day, oldest first, a day missing from one side with zeros and no latency', () => {
    const days = mergeHealthDays(
      [curated('2026-03-02', 5), curated('2026-03-04', 7)],
      [searched('2026-03-01', 2, 1, 0), searched('2026-03-04', 4, 3, 1)],
    );
    expect(days.map((d) => [d.day, d.curated, d.retrievals_labelled, d.judged_returned])).toEqual([
      ['2026-03-01', 0, 1, 2],
      ['2026-03-02', 5, 0, 0],
      ['2026-03-04', 7, 1, 4],
    ]);
    expect(days[0]!.p95).toBeNull();
    const rates = healthRates(days);
    expect(rates.map((r) => [r.day, r.precision, r.recall, r.labelled])).toEqual([
      ['2026-03-01', 0.5, 1, 1],
      ['2026-03-02', null, null, 0],
      ['2026-03-04', 0.75, 0.75, 1],
    ]);
    // The curation rates of a day with labels only are null, not 0.
    expect(rates[0]!.evidence).toBeNull();
    expect(rates[1]!.evidence).toBe(1);
  });

  it('counts M3 over the events that reached the evidence check, not those refused before it', () => {
    // 10 curated: 2 refused as malformed or unsafe before the check, 1 demoted and 1 refused for want of evidence.
    const [d] = mergeHealthDays(
      [{ ...curated('2026-03-02', 10), rejected: 3, evidence_checked: 8, demoted: 1, insufficient: 1 }],
      [],
    );
    expect(healthRates([d!])[0]!.evidence).toBe(0.75);
  });

  it('gives the counts behind each share, the same fractions as the rates', () => {
    const [d] = mergeHealthDays(
      [
        {
          ...curated('2026-03-02', 16),
          rejected: 2,
          approved: 12,
          declined: 2,
          reviewed: 14,
          scope_kept: 12,
          scope_moved: 1,
          duplicates: 3,
          conflicts: 1,
          evidence_checked: 14,
          demoted: 1,
        },
      ],
      [],
    );
    const counts = healthCounts(d!);
    expect(counts.conflicts).toEqual([1, 16]);
    expect(counts.evidence).toEqual([13, 14]);
    const rates = healthRates([d!])[0]!;
    for (const [k, [n, of]] of Object.entries(counts)) expect(rates[k as keyof typeof counts], k).toBeCloseTo(n / of);
  });
});
