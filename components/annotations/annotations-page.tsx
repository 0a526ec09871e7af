'use client';

import { useQuery } from '@tanstack/react-query';
import { useActorLabel } from '@/components/ui/actor';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useTRPC } from '@/components/trpc/provider';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { ANNOTATION_TARGETS } from '@/lib/ingest/contract';
import type { AnnotationFilter } from '@/lib/annotations/contract';
import { fmtInt } from '@/lib/format';
import { AnnotationList, ANNOTATION_PAGE } from './annotation-list';

const PARAMS = ['name', 'target', 'author', 'session', 'commented'] as const;

/**
 * Every annotation of the project, newest first, filtered by score, target, author, session and whether it has a
 * comment; the filters live in the URL, so a filtered list can be shared. Each row links to what it is about.
 */
export function AnnotationsPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const get = (k: (typeof PARAMS)[number]) => params.get(k) ?? '';
  const target = get('target');
  // A target the address names that is none (an edited or old link) is ignored, and said to be.
  const knownTarget = (ANNOTATION_TARGETS as readonly string[]).includes(target);
  const filter: AnnotationFilter = {
    ...(get('name') ? { name: get('name') } : {}),
    ...(knownTarget ? { target: target as AnnotationFilter['target'] } : {}),
    ...(get('author') ? { author: get('author') } : {}),
    ...(get('session') ? { sessionId: get('session') } : {}),
    ...(get('commented') ? { commented: get('commented') === 'yes' } : {}),
  };
  // The facets (score names, authors, targets present) come with the unfiltered first page.
  const all = useQuery(trpc.annotations.list.queryOptions({ limit: 1 }));
  const facets = all.data?.facets;
  const setParam = (k: (typeof PARAMS)[number], v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    router.replace(`${pathname}${next.size ? `?${next}` : ''}`, { scroll: false });
  };
  const actorLabel = useActorLabel();
  const select = (k: 'name' | 'target' | 'author', label: string, choices: Record<string, number> | undefined) => (
    <select
      className="select"
      aria-label={`Filter by ${label}`}
      value={k === 'target' && !knownTarget ? '' : get(k)}
      onChange={(e) => setParam(k, e.target.value)}
    >
      <option value="">all {label}s</option>
      {Object.entries(choices ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([v, n]) => (
          <option key={v} value={v}>
            {k === 'author' ? actorLabel(v) : v} ({fmtInt(n)})
          </option>
        ))}
      {/* One the link names that none has now (all removed since): kept chosen, with its count. */}
      {get(k) && !choices?.[get(k)] && (k !== 'target' || knownTarget) ? (
        <option value={get(k)}>{get(k)} (0)</option>
      ) : null}
    </select>
  );
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Annotations</h1>
          <div className="sub">
            Scores and comments by reviewers and automated judges on turns, CCS terms, artifacts, proposals and entries
            {all.data ? ` · ${fmtInt(all.data.matching ?? 0)} in all` : ''}
          </div>
        </div>
      </div>
      <div className="toolbar" style={{ flexWrap: 'wrap', marginBottom: 10 }}>
        {select('name', 'score', facets?.name)}
        {select('target', 'target', facets?.target)}
        {select('author', 'author', facets?.author)}
        <select
          className="select"
          aria-label="Filter by comment"
          value={get('commented')}
          onChange={(e) => setParam('commented', e.target.value)}
        >
          <option value="">with or without a comment</option>
          <option value="yes">with a comment</option>
          <option value="no">without a comment</option>
        </select>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setParam('session', String(new FormData(e.currentTarget).get('session') ?? '').trim());
          }}
        >
          <input
            key={get('session')}
            name="session"
            className="input"
            placeholder="session id, Enter"
            aria-label="Filter by session id"
            defaultValue={get('session')}
          />
        </form>
        {PARAMS.some((k) => params.get(k)) ? (
          <button type="button" className="btn" onClick={() => router.replace(pathname, { scroll: false })}>
            Clear filters
          </button>
        ) : null}
      </div>
      {target && !knownTarget ? (
        <p className="banner warn" role="status" data-testid="unknown-target">
          target “<MemoryText text={target} />” is none of {ANNOTATION_TARGETS.join(', ')}: not filtered by it.
        </p>
      ) : null}
      <Panel as="div">
        <AnnotationList
          filter={filter}
          links
          empty={
            Object.keys(filter).length
              ? 'No annotation matches these filters.'
              : 'No annotations yet. Press n on a turn in the replay or on a proposal in the inbox; a judge posts ' +
                `scores to /api/v1/annotations with an API key (${ANNOTATION_PAGE} a page here).`
          }
          testId="all-annotations"
        />
      </Panel>
    </>
  );
}
