'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { useInfiniteQuery } from '@tanstack/react-query';
import { CodeBlock } from '@/components/ui/code-block';
import { useTRPC } from '@/components/trpc/provider';
import { DataTable } from '@/components/ui/data-table';
import { ListFoot } from '@/components/ui/list-foot';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
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
                <PayloadDialog eventId={r.eventId} raw={r.raw} />
              </>
            ),
          },
        ]}
      />
      <ListFoot testId="rejected-count" shown={items.length} matching={matching} noun="events" page={PAGE} query={q} />
    </Panel>
  );
}

/** The payload whole, as received (redacted) and indented, to read and to copy: the table shows one line of it. */
function PayloadDialog({ eventId, raw }: { eventId: string | null; raw: unknown }) {
  return (
    <Dialog.Root>
      <Dialog.Trigger
        className="btn btn-small nowrap"
        style={{ marginTop: 4 }}
        aria-label={`Show the whole payload of ${eventId ?? 'the event'}`}
      >
        Whole
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay">
          <Dialog.Content
            className="dialog panel payload-dialog"
            data-testid="payload-dialog"
            aria-describedby={undefined}
          >
            <Dialog.Title className="panel-head">Malformed event {eventId ?? '(no event_id)'}</Dialog.Title>
            <div className="panel-body form-col">
              <CodeBlock label="as received, secrets redacted" code={JSON.stringify(raw, null, 2)} />
              <div className="toolbar" style={{ justifyContent: 'flex-end' }}>
                <Dialog.Close className="btn">Close</Dialog.Close>
              </div>
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
