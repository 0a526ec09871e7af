'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';

/**
 * Who did something, as a person reads it: an API key by the name and prefix Settings shows (`api_key:<id>` is what
 * the logs keep, in the tooltip), anyone else by their name. One query for every actor on the page.
 */
export function Actor({ actor }: { actor: string }) {
  const trpc = useTRPC();
  const names = useQuery({ ...trpc.apiKeys.names.queryOptions(), enabled: actor.startsWith('api_key:') });
  const key = names.data?.[actor];
  if (!key) return <span>{actor}</span>;
  return (
    <span title={actor} data-actor={actor}>
      {key.name} <span className="faint mono">(key {key.prefix}…)</span>
    </span>
  );
}
