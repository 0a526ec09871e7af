import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { SessionsTable } from '@/components/sessions/sessions-table';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sessions' };

export default async function SessionsPage() {
  const qc = getQueryClient();
  await qc.prefetchQuery(trpc.sessions.list.queryOptions());
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <SessionsTable />
    </HydrationBoundary>
  );
}
