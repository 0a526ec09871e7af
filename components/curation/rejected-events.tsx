'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';
import { MemoryText } from '@/components/ui/memory-text';
import { ErrorBox } from '@/components/ui/states';
import { fmtDateTime } from '@/lib/format';

/** Memory events that failed the schema check, with every reason, and the payload as received (redacted). */
export function RejectedEvents() {
  const trpc = useTRPC();
  const q = useQuery(trpc.curation.rejected.queryOptions());
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data?.length) return null;
  return (
    <div className="panel" style={{ marginTop: 14 }}>
      <div className="panel-head">
        <span>Malformed events</span>
        <span className="muted">{q.data.length} rejected by the schema check; stored redacted, never curated</span>
      </div>
      <table className="data" data-testid="rejected-events">
        <tbody>
          {q.data.map((r) => (
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
    </div>
  );
}
