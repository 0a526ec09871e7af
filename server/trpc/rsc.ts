import 'server-only';
import { cache } from 'react';
import { headers } from 'next/headers';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { makeQueryClient } from '@/lib/trpc/query-client';
import { appRouter } from '@/server/routers/app';
import { createContext } from './init';

/** One QueryClient per server request, so prefetched data is dehydrated into that page only. */
export const getQueryClient = cache(makeQueryClient);

/** For server components: `prefetchQuery(trpc.sessions.list.queryOptions())` runs the procedure in-process. */
export const trpc = createTRPCOptionsProxy({
  ctx: async () => createContext({ cookieHeader: (await headers()).get('cookie') }),
  router: appRouter,
  queryClient: getQueryClient,
});
