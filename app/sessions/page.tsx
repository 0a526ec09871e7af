import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { SessionsTable } from '@/components/sessions/sessions-table';
import { getQueryClient, trpc } from '@/server/trpc/rsc';
import { SESSIONS_PAGE } from '@/lib/sessions/list';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sessions' };

export default async function SessionsPage() {
  const qc = getQueryClient();
  // The first page, as the table asks for it on load.
  await qc.prefetchInfiniteQuery(
    trpc.sessions.page.infiniteQueryOptions(
      { search: '', sort: 'recent', limit: SESSIONS_PAGE },
      { getNextPageParam: (last) => last.next },
    ),
  );
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <SessionsTable />
    </HydrationBoundary>
  );
}
