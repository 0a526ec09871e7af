'use client';

import { eventHref } from '@/lib/pages';
import Link from 'next/link';
import type { RouterOutputs } from '@/components/trpc/outputs';
import { Outcome } from '@/components/curation/events-table';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { fmtInt } from '@/lib/format';
import { WINDOW_EVENTS } from '@/lib/curation/event';

export type TurnEvent = RouterOutputs['sessions']['events']['items'][number];

/**
 * The memory events the agent emitted at a turn (they name it: `session_id` and `turn`), each with what the curator or
 * a reviewer made of it: why the agent's durable memory changed, or did not, after this turn.
 */
export function TurnEvents({ turn, events, unlisted }: { turn: number; events: TurnEvent[]; unlisted: boolean }) {
  return (
    <section aria-labelledby="turn-events" data-testid="turn-events">
      <h3 id="turn-events" className="label-sm" style={{ marginTop: 12 }}>
        Memory events emitted at turn {fmtInt(turn)}
        {unlisted ? null : ` (${fmtInt(events.length)})`}
      </h3>
      {unlisted ? (
        <div className="faint">
          The turns near this one emitted over {fmtInt(WINDOW_EVENTS)} events, too many to list here: this turn&apos;s
          are in{' '}
          <Link className="u-link" href="/curation/events">
            Curation → Events
          </Link>
          .
        </div>
      ) : events.length ? (
        <DataTable
          compact
          headless
          caption={`Memory events emitted at turn ${fmtInt(turn)}: kind and scope asked, content, outcome`}
          testId="turn-events-table"
          rows={events}
          rowKey={(e) => e.eventId}
          columns={[
            {
              id: 'kind',
              header: 'Kind',
              width: 1,
              cell: (e) => (
                <>
                  <span className="badge">{e.kind}</span>
                  <div className="cell-sub nowrap">
                    asked for <span className="mono">{e.suggestedScope}</span>
                  </div>
                </>
              ),
            },
            {
              id: 'content',
              header: 'Content',
              cell: (e) => (
                <>
                  <MemoryText className="pre" text={e.content} />
                  <div className="cell-sub">
                    <Link
                      className="u-link mono"
                      href={eventHref(e.eventId)}
                      aria-label={`event ${e.eventId} in Curation → Events`}
                    >
                      {e.eventId}
                    </Link>
                  </div>
                </>
              ),
            },
            {
              id: 'outcome',
              header: 'Outcome',
              cellProps: () => ({ style: { minWidth: 130, maxWidth: 220 } }),
              cell: (e) => <Outcome eventId={e.eventId} outcome={e.outcome} asked={e} />,
            },
          ]}
        />
      ) : (
        <div className="faint">None at this turn.</div>
      )}
    </section>
  );
}
