'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { JsonDialog } from '@/components/ui/json-dialog';
import { useTRPC } from '@/components/trpc/provider';
import { DataTable } from '@/components/ui/data-table';
import { ListFoot } from '@/components/ui/list-foot';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { QueryError } from '@/components/ui/states';
import { fmtDateTime, fmtInt } from '@/lib/format';

const PAGE = 100;

/** Memory events that failed the schema check, with every reason, and the payload as received (redacted). */
export function RejectedEvents() {
  const trpc = useTRPC();
  const q = useInfiniteQuery(
    trpc.curation.rejected.infiniteQueryOptions({ limit: PAGE }, { getNextPageParam: (last) => last.next }),
  );
  const pages = q.data?.pages ?? [];
  const items = pages.flatMap((p) => p.items);
  const matching = pages[0]?.matching ?? 0;
  if (q.error) return <QueryError query={q} />;
  if (!items.length) return null;
  return (
    <Panel
      as="div"
      style={{ marginTop: 14 }}
      body={false}
      title={
        <>
          <span>Malformed events</span>
          <span className="muted">
            {fmtInt(matching)} rejected at the curator&apos;s first step, the schema check (Health counts them as
            rejections); stored redacted, never proposed
          </span>
        </>
      }
    >
      <DataTable
        testId="rejected-events"
        headless
        rows={items}
        rowKey={(r) => r.id}
        columns={[
          {
            id: 'event',
            header: 'Event',
            className: 'nowrap mono',
            width: 1,
            cell: (r) => (
              <>
                {r.eventId ?? '(no event_id)'}
                <div className="cell-sub">{fmtDateTime(new Date(r.receivedAt).toISOString())}</div>
              </>
            ),
          },
          {
            id: 'errors',
            header: 'Errors',
            // A path or a value sent can be one long word: it wraps rather than widening the table.
            cellProps: () => ({ style: { overflowWrap: 'anywhere' } }),
            cell: (r) => (
              <ul style={{ margin: 0, paddingLeft: 16 }}>
                {r.errors.map((e, i) => (
                  <li key={i}>
                    <span className="mono">{e.path || 'event'}</span> {e.message}
                  </li>
                ))}
              </ul>
            ),
          },
          {
            id: 'raw',
            header: 'Payload',
            cellProps: () => ({ style: { maxWidth: 420 } }),
            cell: (r) => (
              <>
                <MemoryText className="clip mono" text={JSON.stringify(r.raw)} />
                <JsonDialog
                  value={r.raw}
                  title={`Malformed event ${r.eventId ?? '(no event_id)'}`}
                  label="as received, secrets redacted"
                  what={`payload of ${r.eventId ?? 'the event'}`}
                  testId="payload-dialog"
                />
              </>
            ),
          },
        ]}
      />
      <ListFoot testId="rejected-count" shown={items.length} matching={matching} noun="events" page={PAGE} query={q} />
    </Panel>
  );
}
