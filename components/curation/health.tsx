'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { healthCounts, healthRates, type HealthRates } from '@/lib/curation/health';
import { fmtInt, plural } from '@/lib/format';
import { useTRPC } from '@/components/trpc/provider';
import { Panel } from '@/components/ui/panel';
import { Sparkline } from '@/components/ui/sparkline';
import { EmptyState, QueryError } from '@/components/ui/states';
import { Paper } from '@/components/ui/paper';

type Rate = keyof Omit<HealthRates, 'day' | 'labelled' | 'precision' | 'recall'>;
type Counted = keyof ReturnType<typeof healthCounts>;

/** Reviewers' decisions are the labels of these: until one is made, each says so instead of a blank day. */
const REVIEWED = 'no proposal reviewed yet';

const METRICS: { key: Rate; label: string; what: string; ms?: boolean; none?: string }[] = [
  {
    key: 'approval',
    label: 'Reviewer approval rate',
    what: 'reviewed proposals approved (the rest rejected by a reviewer)',
    none: REVIEWED,
  },
  {
    key: 'routing',
    label: 'Routing accuracy (M1)',
    what: 'the curator’s decided proposals approved in its scope (reviewers’ decisions as labels)',
    none: REVIEWED,
  },
  {
    key: 'leakage',
    label: 'Scope corrected by a reviewer (M2)',
    what: 'the curator’s decided proposals approved only after a reviewer moved them to fewer readers: leaks caught',
    none: REVIEWED,
  },
  {
    key: 'rejection',
    label: 'Curator rejection rate',
    what: 'events the curator rejected itself (unsafe, malformed, no evidence); not the inbox’s “rejected”',
  },
  {
    key: 'evidence',
    label: 'Evidence sufficiency (M3)',
    what: 'events whose evidence sufficed without demotion, of those that reached the check (not refused before it)',
  },
  { key: 'redundancy', label: 'Redundancy (M4)', what: 'events duplicating an existing entry' },
  {
    key: 'conflicts',
    label: 'Conflicts flagged (M5)',
    what:
      'events flagged as conflicting with memory; the paper’s M5 is these flags’ precision and recall, which needs ' +
      'labels of what truly conflicts (no review decision says so)',
  },
  { key: 'p95', label: 'Latency p95 (M7)', what: 'curator time per event, embedding included', ms: true },
];

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`);

/** The Memory Curator paper's curation metrics that the stored decisions and labels allow, per day. */
export function Health() {
  const trpc = useTRPC();
  const q = useQuery(trpc.curation.health.queryOptions());
  if (q.error) return <QueryError query={q} />;
  if (!q.data)
    // Loading: the cards' places, not figures of no day.
    return (
      <div className="grid-2" aria-busy="true" data-testid="health-loading">
        {[...METRICS, null].map((m) => (
          <Panel as="div" padded key={m?.key ?? 'm6'} className="skeleton" style={{ height: 110 }} />
        ))}
      </div>
    );
  if (!q.data.length) return <EmptyState title="No curation yet">Metrics appear once memory events arrive.</EmptyState>;
  const days = q.data;
  const rates = healthRates(days);
  // Each metric on the latest day it has a value: a day with retrieval labels only blanks no curation metric.
  const latest = (has: (r: HealthRates) => boolean) => rates.findLast(has);
  const total = days.reduce((n, d) => n + d.curated, 0);
  const received = days.reduce((n, d) => n + d.received, 0);
  const raised = days.reduce((n, d) => n + d.raised, 0);
  // What the curator decided besides the memory events the Events tab lists.
  const malformed = total - received;
  const curatedDays = days.filter((d) => d.curated).length;
  const m6 = latest((r) => r.labelled > 0);
  return (
    <>
      <p className="muted" style={{ marginTop: 0 }}>
        <span data-testid="health-curated">
          {fmtInt(total)} events curated over {plural(curatedDays, 'day')}
          {malformed ? ` (${fmtInt(received)} memory events received, ${fmtInt(malformed)} malformed)` : ''}
          {raised ? `, and ${plural(raised, 'deprecation')} raised in the hygiene lab` : ''}.
        </span>{' '}
        The metrics are M1–M7 of <Paper id="curator" at="§10" />. A day is the day the curator decided (an import
        curates many days&apos; events on one). M1 and M2 take the reviewers&apos; decisions as labels, so they cover
        the curator&apos;s reviewed proposals only (written events were never labelled; deprecations raised in the
        hygiene lab are not the curator&apos;s routing).
      </p>
      <div className="grid-2" data-testid="health">
        {METRICS.map((m) => {
          const day = latest((r) => r[m.key] !== null);
          const v = day?.[m.key] ?? null;
          const of = day && !m.ms ? healthCounts(days.find((d) => d.day === day.day)!)[m.key as Counted] : null;
          return (
            <Panel as="div" padded key={m.key}>
              <div className="cell-sub">{m.label}</div>
              <div className="toolbar" style={{ justifyContent: 'space-between' }}>
                <b style={{ fontSize: 22 }} data-metric={m.key}>
                  {v === null ? '—' : m.ms ? `${v.toFixed(2)} ms` : pct(v)}
                  {of ? (
                    <span className="muted" style={{ fontSize: 13, fontWeight: 400 }} data-testid={`of-${m.key}`}>
                      {' '}
                      {fmtInt(of[0])}/{fmtInt(of[1])}
                    </span>
                  ) : null}
                </b>
                <Trend label={`${m.label} by day`} k={m.key} values={rates.map((r) => r[m.key])} />
              </div>
              <div className="cell-sub">
                {m.what} ·{' '}
                <span className="nowrap" data-testid={`latest-${m.key}`}>
                  {day ? `latest day ${day.day}` : (m.none ?? 'no day has it yet')}
                </span>
              </div>
            </Panel>
          );
        })}
        <Panel as="div" padded testId="health-m6">
          <div className="cell-sub">Retrieval F1 (M6)</div>
          <div className="toolbar" style={{ justifyContent: 'space-between' }}>
            <b style={{ fontSize: 22 }} data-metric="f1">
              {pct(m6?.f1)}
            </b>
            <Trend label="Retrieval F1 (M6) by day" k="f1" values={rates.map((r) => r.f1)} />
          </div>
          <div className="cell-sub">
            precision <b data-metric="precision">{pct(m6?.precision)}</b> · recall{' '}
            <b data-metric="recall">{pct(m6?.recall)}</b> ·{' '}
            <span data-metric="labelled">
              {fmtInt(m6?.labelled ?? 0)} search{m6?.labelled === 1 ? '' : 'es'} labelled
            </span>{' '}
            ·{' '}
            <span className="nowrap" data-testid="latest-f1">
              {m6 ? `latest day ${m6.day}` : 'no search labelled yet'}
            </span>
          </div>
          <p className="cell-sub" style={{ margin: 0 }}>
            From reviewers&apos; labels on agents&apos; <code>search_memory</code> results (
            <Link href="/curation/retrievals">Retrievals</Link>): precision = relevant returned ÷ returned judged,
            recall = relevant returned ÷ (relevant returned + relevant missed), F1 their harmonic mean.
          </p>
        </Panel>
      </div>
    </>
  );
}

/** A metric by day: a line once two days have it (one day is a point, not a trend). */
function Trend({ label, k, values }: { label: string; k: string; values: (number | null)[] }) {
  const days = values.filter((v) => v !== null).length;
  // No day at all: the figure's "—" says it.
  if (!days) return null;
  if (days < 2)
    return (
      <span className="faint nowrap" data-testid="trend-none">
        one day: no trend yet
      </span>
    );
  return <Sparkline width={180} height={36} label={label} series={[{ key: k, values }]} />;
}
