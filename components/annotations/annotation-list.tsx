'use client';

import { entryHref } from '@/lib/pages';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Actor, useActorLabel } from '@/components/ui/actor';
import Link from 'next/link';
import { useTRPC } from '@/components/trpc/provider';
import type { RouterOutputs } from '@/components/trpc/outputs';
import { ListFoot } from '@/components/ui/list-foot';
import { MemoryText } from '@/components/ui/memory-text';
import { QueryError } from '@/components/ui/states';
import { formatScore, targetLabel, type AnnotationFilter } from '@/lib/annotations/contract';
import { showBidiControls } from '@/lib/bidi';
import { fmtAgo } from '@/lib/format';
import { useRemoveAnnotation } from './use-annotations';

export type Annotation = RouterOutputs['annotations']['list']['items'][number];
export const ANNOTATION_PAGE = 50;

/** Where an annotation's target is shown: its turn in the replay, the proposal in the inbox, the entry. */
export function targetHref(a: Annotation): string | null {
  if ((a.target === 'turn' || a.target === 'term') && a.sessionId && a.turn !== null)
    return `/sessions/${encodeURIComponent(a.sessionId)}?turn=${a.turn}`;
  if (a.target === 'artifact' && a.sessionId)
    return `/sessions/${encodeURIComponent(a.sessionId)}?artifact=${encodeURIComponent(a.artifactId ?? '')}`;
  if (a.target === 'proposal' && a.proposalId) return `/curation?proposal=${encodeURIComponent(a.proposalId)}`;
  if (a.target === 'entry' && a.entryId) return entryHref(a.entryId);
  return null;
}

/** A score as a chip: its name and value, toned when the value reads as good or bad. */
export function ScoreChip({ name, value }: { name: string; value: Annotation['value'] }) {
  const tone = value === false || value === 'wrong' ? 'danger' : value === true || value === 'right' ? 'ok' : 'accent';
  return (
    <span className={`badge ${tone}`} data-score={name}>
      {name}: <b>{value === null ? '—' : formatScore(value)}</b>
    </span>
  );
}

/**
 * Annotations matching a filter, newest first, paged by the server. `links`: each row links to its target (the
 * Annotations page); without, the target is named only when it is not the obvious one (a term on a turn).
 */
export function AnnotationList({
  filter,
  links = false,
  empty,
  testId = 'annotation-list',
}: {
  filter: AnnotationFilter;
  links?: boolean;
  empty: string;
  testId?: string;
}) {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.annotations.list.infiniteQueryOptions(
      { ...filter, limit: ANNOTATION_PAGE },
      { getNextPageParam: (p) => p.next ?? undefined },
    ),
  );
  const remove = useRemoveAnnotation();
  // Only the author or an admin may remove one (the server refuses others): offer it to them only.
  const who = useQuery(trpc.system.info.queryOptions()).data?.auth;
  const mayRemove = (a: Annotation) => who?.role === 'admin' || (!!who?.username && who.username === a.author);
  const actorLabel = useActorLabel();
  // Which one, in words: "faithfulness 0.8 on turn 3 by gpt-judge" (every row's button was named by its author only).
  const described = (a: Annotation) =>
    showBidiControls(
      `${a.name ? `${a.name} ${a.value === null ? '—' : formatScore(a.value)}` : 'the comment'} on ` +
        `${a.sessionId && links ? `${a.sessionId} · ` : ''}${targetLabel(a)} by ${actorLabel(a.author)}`,
    );
  if (list.error) return <QueryError query={list} />;
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const matching = list.data?.pages[0]?.matching ?? 0;
  if (list.isPending) return <div className="skeleton" aria-busy="true" />;
  if (!items.length)
    return (
      <div className="faint" data-testid={`${testId}-empty`}>
        {empty}
      </div>
    );
  return (
    <>
      <ul className="annotation-list" data-testid={testId}>
        {items.map((a) => {
          // A target not stored (yet) is named, not linked: the link would lead nowhere.
          const href = links && !a.missing ? targetHref(a) : null;
          const label = targetLabel(a);
          return (
            <li key={a.id} className="note-row" data-annotation={a.id}>
              <div className="annotation-head">
                {a.name ? <ScoreChip name={a.name} value={a.value} /> : <span className="badge">comment</span>}
                {links || a.target !== 'turn' ? (
                  href ? (
                    <Link href={href} className="mono clip">
                      {a.sessionId && links ? `${a.sessionId} · ` : ''}
                      {label}
                    </Link>
                  ) : (
                    <span className="mono clip">
                      <MemoryText text={`${a.sessionId && links ? `${a.sessionId} · ` : ''}${label}`} />
                    </span>
                  )
                ) : null}
                {a.missing ? (
                  <span className="badge warn" title={a.missing} data-testid="target-missing">
                    not stored
                  </span>
                ) : null}
                <span className="grow" />
                <span className="faint nowrap" title={a.createdAt}>
                  <Actor actor={a.author} /> · {fmtAgo(a.createdAt)}
                </span>
                {mayRemove(a) ? (
                  <button
                    type="button"
                    className="link-btn"
                    aria-label={`Remove ${described(a)}`}
                    onClick={() => {
                      // Nothing brings it back (a judge's score is not sent again): asked first, as revoking a key is.
                      if (confirm(`Remove ${described(a)}? It cannot be undone.`)) remove.mutate({ id: a.id });
                    }}
                    disabled={remove.isPending}
                  >
                    remove
                  </button>
                ) : null}
              </div>
              {a.comment ? <MemoryText className="annotation-comment" text={a.comment} /> : null}
            </li>
          );
        })}
      </ul>
      {remove.error ? (
        <div className="banner danger" role="alert">
          {remove.error.message}
        </div>
      ) : null}
      <ListFoot shown={items.length} matching={matching} noun="annotations" page={ANNOTATION_PAGE} query={list} />
    </>
  );
}
