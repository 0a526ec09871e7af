import { defaultShouldDehydrateQuery, QueryClient } from '@tanstack/query-core';
import superjson from 'superjson';

/**
 * The one QueryClient factory both sides use: server components prefetch into it (server/trpc/rsc.ts)
 * and the browser hydrates from it (components/trpc/provider.tsx), so the serializer must be the same.
 * Framework-free (query-core, not react-query), so it may live in lib/.
 */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, refetchOnWindowFocus: false },
      dehydrate: {
        serializeData: superjson.serialize,
        // Pending queries are streamed to the client too.
        shouldDehydrateQuery: (q) => defaultShouldDehydrateQuery(q) || q.state.status === 'pending',
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
