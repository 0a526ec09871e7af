'use client';

import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';
import superjson from 'superjson';
import type { AppRouter } from '@/server/routers/app';
import { makeQueryClient } from '@/lib/trpc/query-client';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

let browserQueryClient: QueryClient | undefined;
function getQueryClient() {
  if (typeof window === 'undefined') return makeQueryClient();
  return (browserQueryClient ??= makeQueryClient());
}

/** For a request that must outlive the page (one sent as the tab closes): alone, not batched, and `keepalive`. */
export const keepaliveClient = () =>
  createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: '/api/trpc',
        transformer: superjson,
        fetch: (url, init) => fetch(url, { ...init, keepalive: true }),
      }),
    ],
  });

export function TrpcProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  // Queries made in one tick go in one request, answered when the slowest is; one that may be slow and that nothing
  // else waits for asks alone (`trpc: { context: { alone: true } }`).
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => op.context.alone === true,
          true: httpLink({ url: '/api/trpc', transformer: superjson }),
          false: httpBatchLink({ url: '/api/trpc', transformer: superjson }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
