'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';
import { ListFoot } from '@/components/ui/list-foot';
import { MemoryText } from '@/components/ui/memory-text';
import { ErrorBox } from '@/components/ui/states';
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
  if (q.error) return <ErrorBox error={q.error} />;
  if (!items.length) return null;
  return (
    <div className="panel" style={{ marginTop: 14 }}>
      <div className="panel-head">
        <span>Malformed events</span>
        <span className="muted">{fmtInt(matching)} rejected by the schema check; stored redacted, never curated</span>
      </div>
      <table className="data" data-testid="rejected-events">
        <tbody>
          {items.map((r) => (
            <tr key={r.id}>
              <td className="nowrap mono" style={{ width: 1 }}>
                {r.eventId ?? '(no event_id)'}
                <div className="cell-sub">{fmtDateTime(new Date(r.receivedAt).toISOString())}</div>
              </td>
              <td>
                <ul style={{ margin: 0, paddingLeft: 16 }}>
                  {r.errors.map((e, i) => (
                    <li key={i}>
                      <span className="mono">{e.path || 'event'}</span> {e.message}
                    </li>
                  ))}
                </ul>
              </td>
              <td style={{ maxWidth: 420 }}>
                <MemoryText className="clip mono" text={JSON.stringify(r.raw)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ListFoot testId="rejected-count" shown={items.length} matching={matching} noun="events" page={PAGE} query={q} />
    </div>
  );
}
