'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { SearchOptions } from '@/lib/recall/engine';
import { recall, recallFresh, useRecallStatus } from './client';

/** Starts the recall worker when a component that searches mounts. */
export function useRecallStarted() {
  useEffect(() => {
    recallFresh();
  }, []);
}

/**
 * Recall runs in the worker, not over the network: it must not pause when the browser is offline (react-query's
 * default).
 */
const local = { networkMode: 'always' as const, staleTime: Infinity };

/** What the index can answer changes when items arrive, the model loads or fails, or a build finishes. */
function useIndexKey() {
  return useRecallStatus((s) => `${s.items}|${s.model}|${s.embedded === s.toEmbed ? s.toEmbed : 'b'}`);
}

export function useRecallSearch(query: string, options: SearchOptions, enabled = true) {
  const indexKey = useIndexKey();
  return useQuery({
    queryKey: ['recall', 'search', query, options, indexKey],
    queryFn: () => recall().request('search', { query, options }),
    enabled: enabled && query.trim().length > 0,
    placeholderData: keepPreviousData,
    ...local,
    gcTime: 60_000,
  });
}

export function useMoreLikeThis(itemId: string | null, options: SearchOptions) {
  const indexKey = useIndexKey();
  return useQuery({
    queryKey: ['recall', 'more', itemId, options, indexKey],
    queryFn: () => recall().request('more', { itemId: itemId!, options }),
    enabled: !!itemId,
    ...local,
    // The same item's answer stays while the index changes under it (new memory every 15 s) or a filter changes: its
    // heading does not flicker. Another item's is not shown as this one's.
    placeholderData: (previous, query) => (query?.queryKey[2] === itemId ? previous : undefined),
  });
}

export function useFacets() {
  const indexKey = useIndexKey();
  return useQuery({
    queryKey: ['recall', 'facets', indexKey],
    queryFn: () => recall().request('facets', {}),
    ...local,
    placeholderData: keepPreviousData,
  });
}

export function useDuplicates(threshold: number, options: SearchOptions['filters'], enabled: boolean) {
  const indexKey = useIndexKey();
  return useQuery({
    queryKey: ['recall', 'dups', threshold, options, indexKey],
    queryFn: () => recall().request('duplicates', { threshold, filters: options ?? {} }),
    enabled,
    ...local,
    placeholderData: keepPreviousData,
  });
}
