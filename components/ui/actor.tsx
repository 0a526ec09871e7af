'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';
import { MemoryText } from './memory-text';

/** The project's API keys by the actor the logs keep for them (`api_key:<id>`): one query for the whole page. */
function useKeyNames(enabled = true) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.apiKeys.names.queryOptions(), enabled });
}

/** A key the log names that this instance does not hold (deleted, or in a project imported from another instance). */
const elsewhere = (actor: string) => `API key ${actor.slice('api_key:'.length, 'api_key:'.length + 8)}… (not here)`;

/** An actor as plain text (a filter's options): an API key as "name · key prefix…", anyone else by their name. */
export function useActorLabel(): (actor: string) => string {
  const names = useKeyNames();
  return (actor) => {
    const key = names.data?.[actor];
    if (key) return `${key.name} · key ${key.prefix}…`;
    return names.data && actor.startsWith('api_key:') ? elsewhere(actor) : actor;
  };
}

/**
 * Who did something, as a person reads it: an API key by the name and prefix Settings shows (`api_key:<id>` is what
 * the logs keep, in the tooltip), anyone else by their name. One query for every actor on the page.
 */
export function Actor({ actor }: { actor: string }) {
  const names = useKeyNames(actor.startsWith('api_key:'));
  const key = names.data?.[actor];
  if (!key)
    return names.data && actor.startsWith('api_key:') ? (
      <span title={`${actor}: no key of this instance`} data-actor={actor} className="faint">
        {elsewhere(actor)}
      </span>
    ) : (
      <MemoryText text={actor} />
    );
  return (
    <span title={actor} data-actor={actor}>
      <MemoryText text={key.name} /> <span className="faint mono">· key {key.prefix}…</span>
    </span>
  );
}
