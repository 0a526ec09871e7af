'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { Actor } from '@/components/ui/actor';
import { MemoryText } from '@/components/ui/memory-text';
import { judgeLeft, type LeftDecision, type LeftVerdict, type Standing } from '@/lib/curation/left-decisions';
import { fmtDateTime, fmtInt } from '@/lib/format';
import { forgetLeft, onLeftChange, readLeft, sendingLeft } from './held-decision';

type Refused = Extract<LeftVerdict, { kind: 'refused' }> & { d: LeftDecision };

/**
 * Decisions this browser sent as a page went or the inbox was left, checked against where their proposals stand now:
 * one that did not take (a colleague decided first, or it never arrived) is said on every page (the app shell shows
 * this) until dismissed; the others are forgotten quietly.
 */
export function LeftDecisions() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  // Read in the browser (the server renders none: this renders nothing until the standing comes), and again when
  // the inbox, unmounting, writes a decision down or hears its answer: then the standing is asked again at once.
  const [left, setLeft] = useState<LeftDecision[]>(() => (typeof window === 'undefined' ? [] : readLeft()));
  useEffect(
    () =>
      onLeftChange(() => {
        setLeft(readLeft());
        void qc.invalidateQueries({ queryKey: trpc.curation.statuses.queryKey() });
      }),
    [qc, trpc],
  );
  const ids = useMemo(() => [...new Set(left.flatMap((d) => d.ids))].slice(0, 500), [left]);
  const standing = useQuery({
    ...trpc.curation.statuses.queryOptions({ ids }),
    enabled: ids.length > 0,
    // Asked again while a decision may still be on its way.
    refetchInterval: (q) => (q.state.data && verdicts(left, q.state.data, q.state.dataUpdatedAt).wait ? 5000 : false),
  });
  const judged = useMemo(
    () => (standing.data ? verdicts(left, standing.data, standing.dataUpdatedAt) : null),
    [left, standing.data, standing.dataUpdatedAt],
  );
  // Those that took are forgotten by the browser; those that did not are said on every page until dismissed.
  useEffect(() => {
    if (judged?.settled.length) forgetLeft(judged.settled);
  }, [judged]);
  const shown = judged?.refused ?? [];
  if (!shown.length) return null;
  return (
    <>
      {shown.map((r) => (
        <div key={r.d.at} className="banner warn left-banner" role="alert" data-testid="left-decision">
          <span className="left-text">
            <b>
              <MemoryText text={r.d.text} />
            </b>
            , sent as {r.d.how === 'left' ? 'you left the inbox' : 'the page closed'} at {fmtDateTime(new Date(r.d.at))}
            , did not take
            {r.said ? (
              <>: {r.said}. </>
            ) : (
              <>
                {r.of > 1 ? ` for ${fmtInt(r.otherwise.length + r.pending.length)} of ${fmtInt(r.of)}` : ''}:{' '}
                {r.otherwise.length ? <DecidedBefore row={r.otherwise[0]!} /> : null}
                {r.otherwise.length && r.pending.length ? '; ' : null}
                {r.pending.length ? 'it never arrived, and the proposal is still pending' : null}.{' '}
              </>
            )}
            {r.d.ids.length === 1 ? <Link href={`/curation?proposal=${r.d.ids[0]}`}>Open the proposal</Link> : null}
          </span>
          <button type="button" className="btn btn-small" onClick={() => forgetLeft([r.d.at])}>
            Dismiss
          </button>
        </div>
      ))}
    </>
  );
}

function DecidedBefore({ row }: { row: Standing }) {
  return (
    <>
      {row.status} by <Actor actor={row.decidedBy ?? 'someone'} /> at {fmtDateTime(row.decidedAt)}
    </>
  );
}

function verdicts(left: LeftDecision[], rows: Standing[], now: number) {
  const by = new Map(rows.map((r) => [r.id, r]));
  const settled: number[] = [];
  const refused: Refused[] = [];
  let wait = false;
  for (const d of left) {
    // Its answer is still on its way to this page, which writes it down when it comes: not judged by standing yet.
    if (sendingLeft.has(d.at)) continue;
    const v = judgeLeft(d, by, now);
    if (v.kind === 'wait') wait = true;
    else if (v.kind === 'refused') refused.push({ ...v, d });
    else if (v.kind !== 'elsewhere') settled.push(d.at);
  }
  return { settled, refused, wait };
}
