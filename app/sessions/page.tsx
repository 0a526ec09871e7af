import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { SessionsTable } from '@/components/sessions/sessions-table';
import { getQueryClient, trpc } from '@/server/trpc/rsc';
import { SESSIONS_PAGE, sessionsListParams } from '@/lib/sessions/list';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sessions' };

export default async function SessionsPage({
  searchParams,
}: {
  searchParams: Promise<{ q?: string | string[]; sort?: string | string[] }>;
}) {
  const { q, sort } = await searchParams;
  const initial = sessionsListParams(q, sort);
  const qc = getQueryClient();
  // The first page, as the table asks for it on load (the search and sort of the address, `?q=…&sort=…`).
  await qc.prefetchInfiniteQuery(
    trpc.sessions.page.infiniteQueryOptions(
      { ...initial, limit: SESSIONS_PAGE },
      { getNextPageParam: (last) => last.next },
    ),
  );
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <SessionsTable initialSearch={initial.search} initialSort={initial.sort} sortProblem={initial.sortProblem} />
    </HydrationBoundary>
  );
}
