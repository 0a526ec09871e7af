'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { pct, reportMarkdown, type CurationReport } from '@/lib/curation/report';
import { fmtDateTime, plural } from '@/lib/format';
import { entryHref, eventHref } from '@/lib/pages';
import { useTRPC } from '@/components/trpc/provider';
import { ListFoot } from '@/components/ui/list-foot';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { EmptyState, QueryError } from '@/components/ui/states';
import { Actor } from '@/components/ui/actor';

const PAGE = 100;

/** One curation report per ingest batch, in the curator template's layout, downloadable as Markdown. */
export function Reports() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  // Paged by the server, 100 batches at a time, with how many there are.
  const batches = useInfiniteQuery(
    trpc.curation.batches.infiniteQueryOptions({ limit: PAGE }, { getNextPageParam: (last) => last.next }),
  );
  const pages = batches.data?.pages ?? [];
  const items = pages.flatMap((p) => p.items);
  const selected = params.get('batch') ?? items[0]?.id ?? null;
  const report = useQuery({
    ...trpc.curation.report.queryOptions({ batchId: selected ?? '00000000-0000-0000-0000-000000000000' }),
    enabled: !!selected,
  });
  if (batches.error) return <QueryError query={batches} />;
  if (batches.data && !items.length)
    return (
      <EmptyState title="No reports yet">
        A report is made for every ingest batch that carries memory events.
      </EmptyState>
    );
  return (
    <div className="inbox" style={{ gridTemplateColumns: 'minmax(300px, 3fr) 9fr' }}>
      <Panel as="div" className="inbox-list" testId="batches" body={false}>
        <div role="list" aria-label="Ingest batches">
          {items.map((b) => (
            <div
              key={b.id}
              className="inbox-row"
              role="listitem"
              style={{ gridTemplateColumns: '1fr' }}
              aria-current={b.id === selected ? 'true' : undefined}
            >
              <button
                type="button"
                className="row-pick"
                onClick={() => router.replace(`/curation/reports?batch=${b.id}`, { scroll: false })}
              >
                <span>
                  <b>{fmtDateTime(b.receivedAt)}</b>{' '}
                  <span className="mono faint" data-testid="batch-id">
                    {b.id.slice(0, 8)}
                  </span>
                </span>
                <span className="meta">
                  <Actor actor={b.actor} />
                  <span>{plural(b.events, 'event')}</span>
                  {/* A count of none is no news: plain, not coloured. */}
                  <span className={b.written ? 'badge ok' : 'badge'}>{b.written} written</span>
                  <span className={b.proposed ? 'badge accent' : 'badge'}>{b.proposed} proposed</span>
                  <span
                    className={b.rejected ? 'badge danger' : 'badge'}
                    title="not written: refused, duplicates and discarded"
                  >
                    {b.rejected} rejected
                  </span>
                </span>
              </button>
            </div>
          ))}
        </div>
        <ListFoot
          testId="batches-count"
          shown={items.length}
          matching={pages[0]?.matching ?? 0}
          noun="batches"
          page={PAGE}
          query={batches}
        />
      </Panel>
      <Panel as="div" className="detail" body={false}>
        {report.data ? (
          <ReportView r={report.data} />
        ) : report.error ? (
          <QueryError query={report} />
        ) : (
          <div className="panel-body muted">Loading…</div>
        )}
      </Panel>
    </div>
  );
}

function download(r: CurationReport) {
  const blob = new Blob([reportMarkdown(r)], { type: 'text/markdown;charset=utf-8' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `curation-report-${r.receivedAt.slice(0, 19).replace(/[:T]/g, '-')}.md`;
  a.click();
  URL.revokeObjectURL(a.href);
}

/** An entry's id opens it; a target that is a note ("(not stored here: …)") is no link. */
const storedEntryHref = (id: string) => (id && !id.startsWith('(') ? entryHref(id) : null);

/** A table of the report; the first column is the event's id, which opens it, and `links` say which others open. */
function Section({
  title,
  head,
  rows,
  links = {},
}: {
  title: string;
  head: string[];
  rows: string[][];
  links?: Record<number, (v: string) => string | null>;
}) {
  return (
    <>
      <h3>
        {title} <span className="muted">({rows.length})</span>
      </h3>
      {rows.length ? (
        <DataTable
          compact
          rows={rows}
          rowKey={(_, i) => i}
          columns={head.map((h, j) => ({
            id: String(j),
            header: h,
            className: j === 0 ? 'mono nowrap' : undefined,
            cell: (r: string[]) => {
              const href = (j === 0 ? eventHref : links[j])?.(r[j] ?? '');
              return href ? (
                <Link href={href}>
                  <MemoryText text={r[j] ?? ''} />
                </Link>
              ) : (
                <MemoryText text={r[j] ?? ''} />
              );
            },
          }))}
        />
      ) : (
        <p className="muted" style={{ fontSize: 12, margin: 0 }}>
          None.
        </p>
      )}
    </>
  );
}

function ReportView({ r }: { r: CurationReport }) {
  const n = r.received;
  const stat = (label: string, v: number) => (
    <div>
      <div className="cell-sub">{label}</div>
      <b style={{ fontSize: 18 }}>{v}</b> <span className="muted">{pct(v, n)}</span>
    </div>
  );
  return (
    <div className="panel-body" data-testid="report">
      <div className="toolbar" style={{ justifyContent: 'space-between' }}>
        <span>
          Batch <span className="mono">{r.batchId.slice(0, 8)}</span> · {fmtDateTime(r.receivedAt)} · from{' '}
          <Actor actor={r.actor} />
        </span>
        <button type="button" className="btn" onClick={() => download(r)}>
          Download Markdown
        </button>
      </div>
      <div className="toolbar" style={{ gap: 24, margin: '12px 0' }} data-testid="report-summary">
        <div>
          <div className="cell-sub">received</div>
          <b style={{ fontSize: 18 }}>{n}</b>
        </div>
        {stat('accepted writes', r.written.length)}
        {stat('proposed', r.proposed.length)}
        {stat('rejected', r.rejected.length)}
        {stat('events redacted', new Set(r.redactions.map((x) => x.eventId)).size)}
        {stat('conflicts', r.conflicts.length)}
        {stat('deprecations', r.deprecations.length)}
      </div>
      <Section
        title="Accepted writes"
        head={['Event ID', 'Scope', 'Kind', 'Action', 'Target']}
        rows={r.written.map((w) => [w.eventId, w.scope, w.kind, w.action, w.target])}
        links={{ 4: storedEntryHref }}
      />
      <Section
        title="Proposed writes"
        head={['Event ID', 'Scope', 'Kind', 'Needs review because', 'Decision']}
        rows={r.proposed.map((p) => [p.eventId, p.scope, p.kind, p.because, p.status])}
      />
      <Section
        title="Rejected events"
        head={['Event ID', 'Reason']}
        rows={r.rejected.map((x) => [
          x.eventId,
          x.disposition === 'rejected' ? x.reason : `${x.disposition}: ${x.reason}`,
        ])}
      />
      <Section
        title="Redactions"
        head={['Event ID', 'Redaction']}
        rows={r.redactions.map((x) => [x.eventId, x.redaction])}
      />
      <Section
        title="Conflicts"
        head={['Event ID', 'Conflicts with', 'Resolution needed']}
        rows={r.conflicts.map((c) => [c.eventId, c.conflictsWith, c.resolution])}
      />
      <Section
        title="Deprecations"
        head={['Event ID', 'Target']}
        rows={r.deprecations.map((d) => [d.eventId, d.target])}
        links={{ 1: storedEntryHref }}
      />
      <h3>Audit notes</h3>
      <ul style={{ margin: 0, paddingLeft: 16, fontSize: 12 }}>
        {r.notes.length ? (
          r.notes.map((x, i) => <li key={i}>{x}</li>)
        ) : (
          <li className="muted">No reviewer decisions yet.</li>
        )}
      </ul>
    </div>
  );
}
