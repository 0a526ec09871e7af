'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { reportCounterAt, substrateFromParts } from '@/lib/ucs/substrate-sim';

/**
 * One stored state of an agent as the bridge would load it (the latest without t): the state's parts and the index's
 * dead ends, methodology and report counter, made into the lib's SubstrateState in the browser, where the consult
 * and the simulation run on it.
 */
export function useSubstrateState(agent: string, t?: number, enabled = true) {
  const trpc = useTRPC();
  const state = useQuery({
    ...trpc.substrate.state.queryOptions({ agent, t }),
    enabled,
    placeholderData: keepPreviousData,
  });
  const index = useQuery(trpc.substrate.bridgeIndex.queryOptions({ agent }));
  const s = state.data;
  const i = index.data;
  const substrate = useMemo(
    () => (s && i ? substrateFromParts(s, { ...i, reportCounter: reportCounterAt(i, s.t, s.latestT) }) : null),
    [s, i],
  );
  return {
    substrate,
    /** The stored state's t, its file and the latest t (for "the latest snapshot" or not). */
    meta: s ? { t: s.t, source: s.source, latestT: s.latestT } : null,
    index: i ?? null,
    /** The state shown is still the previous t's while the new one loads. */
    stale: state.isPlaceholderData || (t !== undefined && s !== undefined && s.t !== t),
    error: state.error ?? index.error,
  };
}

/** How a stored state is named on screen: its t, and whether it is the latest (and its file). */
export function stateLabel(meta: { t: number; source: string | null; latestT: number }) {
  const file = meta.source ? ` (${meta.source})` : '';
  return meta.t === meta.latestT ? `t ${meta.t}, the latest state${file}` : `snapshot t ${meta.t}${file}`;
}
