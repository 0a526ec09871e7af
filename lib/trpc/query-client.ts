import { defaultShouldDehydrateQuery, environmentManager, QueryClient } from '@tanstack/query-core';
import superjson from 'superjson';

/**
 * A request the server refused for what it asked (a tRPC error of status 4xx: not found, bad input, not signed in)
 * would be refused again: it is shown at once, not after three retries and ~7 s. A timeout, a rate limit, a server
 * error or a dropped connection is tried twice more in the browser (1 s and 2 s later).
 */
/** How many times the browser asks for a query that keeps failing for a reason worth retrying (once and twice more). */
export const QUERY_ATTEMPTS = 3;

export function worthRetrying(failures: number, error: unknown): boolean {
  // On the server (a page's prefetch) nothing is retried, as query-core's own default: the page answers at once.
  if (environmentManager.isServer()) return false;
  const status = (error as { data?: { httpStatus?: unknown } } | null)?.data?.httpStatus;
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429) return false;
  return failures < QUERY_ATTEMPTS - 1;
}

/**
 * The one QueryClient factory both sides use: server components prefetch into it (server/trpc/rsc.ts)
 * and the browser hydrates from it (components/trpc/provider.tsx), so the serializer must be the same.
 * Framework-free (query-core, not react-query), so it may live in lib/.
 */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: worthRetrying },
      dehydrate: {
        serializeData: superjson.serialize,
        // Pending queries are streamed to the client too.
        shouldDehydrateQuery: (q) => defaultShouldDehydrateQuery(q) || q.state.status === 'pending',
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
